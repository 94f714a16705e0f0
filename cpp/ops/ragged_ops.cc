// Op definition of RaggedTensorToTensor (TF's name, inputs and attrs): a ragged tensor given as its
// flat values and one row_splits tensor per ragged dimension, padded into a dense tensor.
#include "ops/array_shapes.h"
#include "ops/types.h"

namespace ef {
namespace {

// shape (scalar -1: every dim natural; or one entry per output dim, -1: natural), values [n, ...],
// default_value, row_partition_tensors (ROW_SPLITS, outermost first) -> T of rank
// num_row_partition_tensors + rank(values).
void infer_ragged_to_tensor(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "Tshape");
  const int k = static_cast<int>(c.dtypes.size()) - 3;
  const Shape& values = c.shapes[1];
  if (!values.rank_known()) return c.set_output(0, c.dtypes[1], Shape::unknown_rank());
  Shape out(std::vector<int64_t>(k + values.rank(), -1));
  for (int d = 1; d < values.rank(); ++d) out.set_dim(k + d, values[d]);
  if (const TensorImpl* s = input_value(c, 0)) {
    if (s->rank() == 1) {
      std::vector<int64_t> dims = tensor_to_int_vector(*s);
      EF_INVALID(static_cast<int>(dims.size()) == out.rank(), "rt_input.shape and shape=",
                 list_string(dims), " are incompatible: rank ", out.rank(), " vs ", dims.size());
      for (int d = 0; d < out.rank(); ++d)
        if (dims[d] >= 0) out.set_dim(d, dims[d]);
    }
  }
  c.set_output(0, c.dtypes[1], out);
}

EF_REGISTER_OP(make_op("RaggedTensorToTensor", {"shape", "values", "default_value", "row_partition_tensors*"},
                       {"T", "Tindex", "Tshape", "num_row_partition_tensors", "row_partition_types"},
                       infer_ragged_to_tensor)
                   .with_types({"Tshape", "T", "T", "Tindex"},
                               {{"T", nullptr, kTypesNumeric | kTypesBool}, {"Tindex", kListIndex},
                                {"Tshape", kListIndex}}));

}  // namespace
}  // namespace ef
