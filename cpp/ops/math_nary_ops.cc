// Op definition: AddN (sum of a list of same-shape, same-dtype tensors).
#include "ops/math_unary_ops.h"
#include "ops/op_util.h"

namespace ef {

void check_add_n_inputs(const OpDef& op, const std::vector<DType>& dtypes, const std::vector<Shape>& shapes) {
  EF_INVALID(!dtypes.empty(), "AddN expects at least one input");
  for (size_t i = 1; i < dtypes.size(); ++i) check_same_dtype(op, dtypes[0], dtypes[i], static_cast<int>(i));
  if (dtypes[0] != DType::kVariant) check_unary_type(op, dtypes[0], unary_types::kAddN);  // variant: TensorLists
  for (size_t i = 1; i < shapes.size(); ++i) {
    const Shape &a = shapes[0], &b = shapes[i];
    bool same = !a.rank_known() || !b.rank_known() || a.rank() == b.rank();
    for (int d = 0; same && a.rank_known() && b.rank_known() && d < a.rank(); ++d)
      same = a[d] < 0 || b[d] < 0 || a[d] == b[d];
    if (!same)
      throw_error(Code::kInvalidArgument, "Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: ",
                  a.to_list_string(), " != input ", i, ": ", b.to_list_string());
  }
}

namespace {

void infer_add_n(InferContext& c) {
  check_add_n_inputs(c.op, c.dtypes, c.shapes);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "AddN";
  d.inputs = {"inputs*"};
  d.infer = infer_add_n;
  d.elementwise = true;
  // variant: TensorLists of gradients (a TensorArray read twice).
  return std::move(d).with_types({"T"}, {{"T", unary_types::kAddN.tf_allowed,
                                         unary_types::kAddN.kernels | dtype_bit(DType::kVariant)}});
}());

}  // namespace
}  // namespace ef
