// Op definitions for tf.debugging, tf.py_function and tf.timestamp: Assert, CheckNumerics, EnsureShape,
// EagerPyFunc, Timestamp.
#include "ops/op_util.h"
#include "ops/shape_merge.h"

namespace ef {
namespace {

void infer_assert(InferContext& c) {
  check_same_dtype(c.op, DType::kBool, c.dtypes[0], 0);
}

void infer_check_numerics(InferContext& c) {
  if (!dtype_is_floating(c.dtypes[0]))
    throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", dtype_name(c.dtypes[0]),
                " is not in the list of allowed values: bfloat16, half, float, double");
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

// The output is the input, its static shape merged with the expected one (TF's Merge error when
// they cannot).
void infer_ensure_shape(InferContext& c) {
  const Shape expected = ensure_shape_attr(c.attrs);
  Shape merged;
  if (!merge_shapes(expected, c.shapes[0], &merged))
    throw_error(Code::kInvalidArgument, shape_merge_error(expected, c.shapes[0]));  // TF's order in the message
  c.set_output(0, c.dtypes[0], merged);
}

void infer_timestamp(InferContext& c) { c.set_output(0, DType::kFloat64, Shape()); }

// Tout: the output dtypes as enums; the shapes are unknown until the Python function runs.
void infer_py_func(InferContext& c) {
  const auto tout = c.attrs.get<std::vector<int64_t>>("Tout", {});
  for (size_t i = 0; i < tout.size(); ++i) c.set_output(i, static_cast<DType>(tout[i]), Shape::unknown_rank());
}

// Assert(condition, data*) attrs: summarize (default 3). Stateful: runs even though nothing reads it.
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "Assert";
  d.inputs = {"condition", "data*"};
  d.attrs = {"summarize"};
  d.infer = infer_assert;
  d.stateful = true;
  return std::move(d).with_types({"bool", ""}, {});
}());

// CheckNumerics(tensor) attrs: message. Passes the tensor through; stateful so it is never pruned.
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "CheckNumerics";
  d.inputs = {"tensor"};
  d.attrs = {"message"};
  d.infer = infer_check_numerics;
  d.stateful = true;
  return std::move(d).with_types({"T"}, {{"T", "bfloat16, half, float, double"}});
}());

// EnsureShape(input) attrs: shape (dims, -1 unknown; None: any rank). Checks the shape when it runs.
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "EnsureShape";
  d.inputs = {"input"};
  d.attrs = {"shape"};
  d.infer = infer_ensure_shape;
  return std::move(d).with_types({"T"}, {{"T"}});
}());

// EagerPyFunc(input*) attrs: token (the registered Python callable), Tout (list of dtype enums).
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "EagerPyFunc";
  d.inputs = {"input*"};
  d.attrs = {"token", "Tout"};
  d.infer = infer_py_func;
  d.stateful = true;
  return std::move(d).with_types({""}, {});
}());

// Timestamp: the wall-clock time in seconds since the epoch, a float64 scalar. Stateful, so a graph
// reads the clock on each run and never folds it into a constant.
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "Timestamp";
  d.infer = infer_timestamp;
  d.stateful = true;
  return std::move(d).with_types({}, {});
}());

}  // namespace
}  // namespace ef
