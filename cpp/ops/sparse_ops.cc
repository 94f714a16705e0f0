// Op definitions of the SparseTensor kernels: SparseToDense, SparseTensorDenseMatMul and
// SparseReorder (TF's names, inputs and attrs; a SparseTensor is indices [N, rank] int64, values [N]
// and dense_shape [rank] int64).
#include "ops/array_shapes.h"
#include "ops/types.h"

namespace ef {
namespace {

// sparse_indices [N, R] (or [N] / scalar: one dim), output_shape [R], sparse_values [N] or scalar,
// default_value scalar -> dense output_shape.
void infer_sparse_to_dense(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "Tindices");
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() == 1, "output_shape must be rank 1, got shape ",
             c.shapes[1].to_list_string());
  EF_INVALID(!c.shapes[3].rank_known() || c.shapes[3].rank() == 0, "default_value should be a scalar.");
  c.set_output(0, c.dtypes[2], fill_shape(c.op, c.shapes[1], input_value(c, 1)));
}

// a [M, K] given by a_indices / a_values / a_shape, b [K, N] (adjoint flags swap) -> [M, N].
void infer_sparse_dense_matmul(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "Tindices");
  const Shape& b = c.shapes[3];
  EF_INVALID(!c.shapes[0].rank_known() || c.shapes[0].rank() == 2, "Tensor 'a_indices' is not a matrix");
  EF_INVALID(!b.rank_known() || b.rank() == 2, "Tensor 'b' is not a matrix");
  const bool adj_a = c.attrs.get<bool>("adjoint_a", false), adj_b = c.attrs.get<bool>("adjoint_b", false);
  int64_t m = -1;
  if (const TensorImpl* s = input_value(c, 2)) {
    std::vector<int64_t> dims = tensor_to_int_vector(*s);
    EF_INVALID(dims.size() == 2, "Tensor 'a_shape' must have 2 elements");
    m = dims[adj_a ? 1 : 0];
  }
  const int64_t n = b.rank_known() ? b[adj_b ? 0 : 1] : -1;
  c.set_output(0, c.dtypes[1], Shape({m, n}));
}

// Sorts indices [N, R] (with their values) into row-major order; the shapes stay.
void infer_sparse_reorder(InferContext& c) {
  const Shape &idx = c.shapes[0], &vals = c.shapes[1];
  EF_INVALID(!idx.rank_known() || idx.rank() == 2, "Sparse indices must be rank 2 but is rank ", idx.rank());
  c.set_output(0, DType::kInt64, idx.rank_known() ? idx : Shape({-1, -1}));
  c.set_output(1, c.dtypes[1], vals.rank_known() ? vals : Shape({-1}));
}

EF_REGISTER_OP(make_op("SparseToDense", {"sparse_indices", "output_shape", "sparse_values", "default_value"},
                       {"validate_indices", "T", "Tindices"}, infer_sparse_to_dense)
                   .with_types({"Tindices", "Tindices", "T", "T"}, {{"T", nullptr, kTypesNumeric | kTypesBool}, {"Tindices", kListIndex}}));
EF_REGISTER_OP(make_op("SparseTensorDenseMatMul", {"a_indices", "a_values", "a_shape", "b"},
                       {"T", "Tindices", "adjoint_a", "adjoint_b"}, infer_sparse_dense_matmul)
                   .with_types({"Tindices", "T", "int64", "T"}, {{"T", nullptr, kTypesNumeric}, {"Tindices", kListIndex}}));
EF_REGISTER_OP(make_op("SparseReorder", {"input_indices", "input_values", "input_shape"}, {"T"}, infer_sparse_reorder)
                   .with_types({"int64", "T", "int64"}, {{"T", nullptr, kTypesNumeric | kTypesBool}}));

}  // namespace
}  // namespace ef
