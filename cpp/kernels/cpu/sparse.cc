// CPU kernels of the SparseTensor ops: SparseToDense (validates order and bounds as TF's does),
// SparseTensorDenseMatMul (one pass over the nonzeros, each adding a scaled row of b) and
// SparseReorder (a stable row-major sort of the indices).
#include <algorithm>
#include <complex>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kernels/cpu/copy.h"
#include "kernels/cpu/wrapping.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename T>
T conj_of(T v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) return std::conj(v);
  else return v;
}

// indices [N, R] (or [N]: R = 1, or a scalar: one index) as N rows of R values.
std::vector<int64_t> index_rows(const OpDef& op, const TensorImpl& t, int64_t* n, int64_t* r) {
  std::vector<int64_t> v = index_values(op, t, "Tindices");
  *n = t.rank() == 0 ? 1 : t.shape()[0];
  *r = t.rank() > 1 ? t.shape()[1] : 1;
  return v;
}

std::string row_string(const std::vector<int64_t>& v, int64_t i, int64_t r) {
  return list_string(std::vector<int64_t>(v.begin() + i * r, v.begin() + (i + 1) * r));
}

void sparse_to_dense_kernel(KernelContext& c) {
  const TensorImpl &indices = *c.input(0), &shape_t = *c.input(1), &values = *c.input(2), &def = *c.input(3);
  check_index_type(c.op, indices.dtype(), "Tindices");
  EF_INVALID(indices.rank() <= 2, "sparse_indices should be a scalar, vector, or matrix, got shape ",
             indices.shape().to_list_string());
  EF_INVALID(shape_t.rank() == 1, "output_shape must be rank 1, got shape ", shape_t.shape().to_list_string());
  int64_t n = 0, r = 0;
  std::vector<int64_t> idx = index_rows(c.op, indices, &n, &r);
  EF_INVALID(values.rank() == 0 || (values.rank() == 1 && values.shape()[0] == n), "sparse_values has incorrect shape ",
             values.shape().to_list_string(), ", should be [] or [", n, "]");
  EF_INVALID(def.rank() == 0, "default_value should be a scalar.");
  EF_INVALID(shape_t.num_elements() == r, "output_shape has incorrect number of elements: ", shape_t.num_elements(),
             " should be: ", r);
  const Shape out_shape = fill_shape(c.op, shape_t.shape(), &shape_t);
  const std::vector<int64_t> dims = out_shape.to_vector();
  const bool validate = c.attrs.get<bool>("validate_indices", true);
  std::vector<int64_t> flat(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t pos = 0;
    bool in_bounds = true;
    for (int64_t d = 0; d < r; ++d) {
      const int64_t v = idx[i * r + d];
      in_bounds = in_bounds && v >= 0 && v < dims[d];
      pos = in_bounds ? pos * dims[d] + v : 0;
    }
    EF_INVALID(in_bounds, "indices[", i, "] = ", row_string(idx, i, r), " is out of bounds: need 0 <= index < ",
               list_string(dims));
    if (validate && i > 0) {
      EF_INVALID(pos != flat[i - 1], "indices[", i, "] = ", row_string(idx, i, r), " is repeated");
      EF_INVALID(pos > flat[i - 1], "indices[", i, "] = ", row_string(idx, i, r),
                 " is out of order. Many sparse ops require sorted indices.\n"
                 "    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n");
    }
    flat[i] = pos;
  }
  TensorImpl* out = c.allocate_output(0, values.dtype(), out_shape, false);
  EF_DISPATCH_POD(values.dtype(), throw_no_kernel(c.op, "T", values.dtype()), {
    T* o = out->data<T>();
    fill_n<T>(o, out->num_elements(), def.data<T>()[0]);
    const T* v = values.data<T>();
    const bool scalar = values.rank() == 0;
    for (int64_t i = 0; i < n; ++i) o[flat[i]] = scalar ? v[0] : v[i];
  });
}

void sparse_dense_matmul_kernel(KernelContext& c) {
  const TensorImpl &indices = *c.input(0), &values = *c.input(1), &a_shape = *c.input(2), &b = *c.input(3);
  check_index_type(c.op, indices.dtype(), "Tindices");
  const bool adj_a = c.attrs.get<bool>("adjoint_a", false), adj_b = c.attrs.get<bool>("adjoint_b", false);
  EF_INVALID(indices.rank() == 2, "Tensor 'a_indices' is not a matrix");
  EF_INVALID(values.rank() == 1, "Tensor 'a_values' is not a vector");
  EF_INVALID(a_shape.rank() == 1 && a_shape.num_elements() == 2, "Tensor 'a_shape' must have 2 elements");
  EF_INVALID(b.rank() == 2, "Tensor 'b' is not a matrix");
  const int64_t nnz = indices.shape()[0];
  EF_INVALID(values.shape()[0] == nnz, "Number of rows of a_indices does not match number of entries in a_values");
  EF_INVALID(indices.shape()[1] == 2, "Number of dimensions of a_indices must be 2, got ", indices.shape()[1]);
  const std::vector<int64_t> as = tensor_to_int_vector(a_shape);
  const int64_t outer_a = as[adj_a ? 1 : 0], inner_a = as[adj_a ? 0 : 1];
  const int64_t inner_b = b.shape()[adj_b ? 1 : 0], outer_b = b.shape()[adj_b ? 0 : 1];
  EF_INVALID(outer_a >= 0 && inner_a >= 0, "Dimension ", std::min(outer_a, inner_a), " must be >= 0");
  EF_INVALID(inner_a == inner_b, "Cannot multiply A and B because inner dimension does not match: ", inner_a, " vs. ",
             inner_b, ".  Did you forget a transpose?  Dimensions of A: [", as[0], ", ", as[1],
             ").  Dimensions of B: ", b.shape().to_list_string());
  const std::vector<int64_t> idx = tensor_to_int_vector(indices);
  const int lhs = adj_a ? 1 : 0, rhs = adj_a ? 0 : 1;
  for (int64_t i = 0; i < nnz; ++i) {
    const int64_t m = idx[2 * i + lhs], k = idx[2 * i + rhs];
    EF_INVALID(m >= 0 && m < outer_a, "m (", m, ") from index[", i, ",", lhs, "] out of bounds (>=", outer_a, ")");
    EF_INVALID(k >= 0 && k < inner_b, "k (", k, ") from index[", i, ",", rhs, "] out of bounds (>=", inner_b, ")");
  }
  TensorImpl* out = c.allocate_output(0, values.dtype(), checked_shape(Shape({outer_a, outer_b})), false);
  EF_DISPATCH_NUMERIC(values.dtype(), throw_no_kernel(c.op, "T", values.dtype()), {
    T* o = out->data<T>();
    fill_n<T>(o, out->num_elements(), T(0));
    const T* bv = b.data<T>();
    const T* av = values.data<T>();
    const int64_t bcols = b.shape()[1];
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t m = idx[2 * i + lhs], k = idx[2 * i + rhs];
      const T a = adj_a ? conj_of(av[i]) : av[i];
      T* orow = o + m * outer_b;
      if (!adj_b) {
        const T* brow = bv + k * bcols;
        for (int64_t j = 0; j < outer_b; ++j) orow[j] = wrap_add(orow[j], wrap_mul(a, brow[j]));
      } else {
        for (int64_t j = 0; j < outer_b; ++j) orow[j] = wrap_add(orow[j], wrap_mul(a, conj_of(bv[j * bcols + k])));
      }
    }
  });
}

void sparse_reorder_kernel(KernelContext& c) {
  const TensorImpl &indices = *c.input(0), &values = *c.input(1), &shape = *c.input(2);
  EF_INVALID(indices.rank() == 2, "Sparse indices must be rank 2 but is rank ", indices.rank());
  EF_INVALID(values.rank() == 1, "Sparse values must be rank 1 but is rank ", values.rank());
  EF_INVALID(shape.rank() == 1, "Sparse shape must be rank 1 but is rank ", shape.rank());
  const int64_t n = indices.shape()[0], r = indices.shape()[1];
  EF_INVALID(values.shape()[0] == n, "Number of elements in indices (", n, ") and values (", values.shape()[0],
             ") do not match");
  EF_INVALID(shape.shape()[0] == r, "Index rank (", r, ") and shape rank (", shape.shape()[0], ") do not match");
  const int64_t* idx = indices.data<int64_t>();
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::lexicographical_compare(idx + a * r, idx + (a + 1) * r, idx + b * r, idx + (b + 1) * r);
  });
  TensorImpl* out_idx = c.allocate_output(0, DType::kInt64, indices.shape(), false);
  TensorImpl* out_val = c.allocate_output(1, values.dtype(), values.shape(), false);
  int64_t* oi = out_idx->data<int64_t>();
  for (int64_t i = 0; i < n; ++i) std::copy(idx + order[i] * r, idx + (order[i] + 1) * r, oi + i * r);
  EF_DISPATCH_POD(values.dtype(), throw_no_kernel(c.op, "T", values.dtype()), {
    const T* v = values.data<T>();
    T* o = out_val->data<T>();
    for (int64_t i = 0; i < n; ++i) o[i] = v[order[i]];
  });
}

}  // namespace

EF_REGISTER_CPU_KERNEL("SparseToDense", sparse_to_dense_kernel);
EF_REGISTER_CPU_KERNEL("SparseTensorDenseMatMul", sparse_dense_matmul_kernel);
EF_REGISTER_CPU_KERNEL("SparseReorder", sparse_reorder_kernel);

}  // namespace ef
