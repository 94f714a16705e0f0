// Shared op checks and inference rules.
#include "ops/op_util.h"

#include "core/errors.h"
#include "ops/broadcast_shapes.h"

namespace ef {

void check_type(const OpDef& op, DType t, unsigned types) {
  if (dtype_in(t, types)) return;
  throw_error(Code::kInvalidArgument, "Value for attr 'T' of ", tf_type_string(t),
              " is not in the list of allowed values: ", type_list_string(types), "\n\t; NodeDef: {{node ", op.name, "}}");
}

void check_same_dtype(const OpDef& op, DType expected, DType got, int input_index) {
  if (expected == got) return;
  throw_error(Code::kInvalidArgument, "cannot compute ", op.name, " as input #", input_index,
              "(zero-based) was expected to be a ", tf_type_string(expected), " tensor but is a ",
              tf_type_string(got), " tensor");
}

int normalize_axis(const OpDef& op, int64_t axis, int rank) {
  if (axis < -rank || axis >= std::max(rank, 1)) {
    throw_error(Code::kInvalidArgument, "Expected axis in the range [", -rank, ", ", rank, "), but got ", axis);
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

void infer_same_as_input0(InferContext& c) { c.set_output(0, c.dtypes[0], c.shapes[0]); }

void infer_broadcast_binary(InferContext& c) {
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  c.set_output(0, c.dtypes[0], broadcast_shapes(c.shapes[0], c.shapes[1]));
}

void infer_broadcast_compare(InferContext& c) {
  check_same_dtype(c.op, c.dtypes[0], c.dtypes[1], 1);
  c.set_output(0, DType::kBool, broadcast_shapes(c.shapes[0], c.shapes[1]));
}

}  // namespace ef
