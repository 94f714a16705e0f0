// CPU kernels for the gradient-support ops: ScatterNd (sums duplicates),
// InvertPermutation, StridedSliceGrad (scatter dy into zeros) and MirrorPadGrad (fold the mirrored
// borders back onto the input).
#include "kernels/cpu/copy.h"
#include "kernels/cpu/scatter_nd.h"
#include "kernels/cpu/scatter_rows.h"
#include "kernels/cpu/slice_args.h"
#include "ops/array_shapes.h"
#include "kernels/cpu/wrapping.h"
#include "ops/slice_spec.h"

namespace ef {
namespace {

#define EF_DISPATCH_SUM(DTYPE, OP, ...)                                              \
  switch (DTYPE) {                                                                   \
    EF_CASES_REAL(__VA_ARGS__)                                                       \
    EF_CASE(kComplex64, ::ef::complex64, __VA_ARGS__)                                \
    EF_CASES_RARE(__VA_ARGS__)                                                       \
    default: check_type(OP, DTYPE, kTypesNumeric | kBitsRare);                       \
  }

template <typename T>
void zero(TensorImpl* out) {
  fill_n<T>(out->data<T>(), out->num_elements(), T(0));
}

void invert_permutation_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_index_type(c.op, x.dtype(), "T");
  EF_INVALID(x.rank() == 1, "invert_permutation expects a 1D vector.");
  std::vector<int64_t> v = tensor_to_int_vector(x);
  const int64_t n = static_cast<int64_t>(v.size());
  std::vector<int64_t> inv(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    EF_INVALID(v[i] >= 0 && v[i] < n, v[i], " is not between 0 and ", n);
    EF_INVALID(inv[v[i]] == -1, v[i], " is duplicated in the input.");
    inv[v[i]] = i;
  }
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  for (int64_t i = 0; i < n; ++i) {
    if (x.dtype() == DType::kInt32) out->data<int32_t>()[i] = static_cast<int32_t>(inv[i]);
    else out->data<int64_t>()[i] = inv[i];
  }
}

void scatter_nd_kernel(KernelContext& c) {
  const TensorImpl &indices = *c.input(0), &updates = *c.input(1);
  check_index_type(c.op, indices.dtype(), "Tindices", true);
  const Shape out_shape = fill_shape(c.op, c.input(2)->shape(), c.input(2).get());
  const Shape &is = indices.shape(), &us = updates.shape();
  EF_INVALID(is.rank() >= 1, "Indices shape must have rank at least one. Found:", is.to_list_string());
  EF_INVALID(us.rank() >= 1, "Updates shape must have rank at least one. Found:", us.to_list_string());
  // TF's ValidEmptyOutputShape: indices and updates are both empty, or neither (nor the shape).
  const int64_t n_shape = c.input(2)->num_elements(), n_idx = indices.num_elements(), n_upd = updates.num_elements();
  EF_INVALID((n_idx == 0 && n_upd == 0) || (n_shape != 0 && n_idx != 0 && n_upd != 0),
             "Indices and updates specified for empty output shape");
  check_scatter_nd_shapes(out_shape, is, us);
  int64_t inner = 1;
  const std::vector<int64_t> rows = n_idx ? scatter_nd_rows(indices, out_shape, &inner) : std::vector<int64_t>();
  TensorImpl* out = c.allocate_output(0, updates.dtype(), out_shape);
  EF_DISPATCH_SUM(updates.dtype(), c.op, {
    zero<T>(out);
    scatter_apply_rows<ScatterMode::kAdd>(out->data<T>(), updates.data<T>(), rows, inner, false);
  });
}

void strided_slice_grad_kernel(KernelContext& c) {
  const Shape shape = fill_shape(c.op, c.input(0)->shape(), c.input(0).get());
  const SliceArgs<3> a = slice_args<3>(c);
  SliceSpec spec = strided_slice_inputs(c.op, shape, a.dtypes, a.shapes, a.values, c.attrs);
  const TensorImpl& dy = *c.input(4);
  EF_INVALID(dy.shape() == spec.final_shape, "shape of dy was ", dy.shape().to_list_string(), " instead of ",
             spec.final_shape.to_list_string());
  TensorImpl* out = c.allocate_output(0, dy.dtype(), shape);
  std::vector<int64_t> st = row_strides(shape);
  StridedIter it;
  it.dims = spec.size;
  it.src_st = row_strides(spec.size);
  for (int d = 0; d < shape.rank(); ++d) {
    it.dst_off += spec.begin[d] * st[d];
    it.dst_st.push_back(spec.stride[d] * st[d]);
  }
  EF_DISPATCH_STORAGE(dy.dtype(), {
    fill_n<T>(out->data<T>(), out->num_elements(), T{});
    if (dy.num_elements() > 0) strided_copy(dy.data<T>(), out->data<T>(), std::move(it));
  });
}

// grad[map(i)] += g[i] over every element of the padded gradient `g`.
template <typename T>
void mirror_fold(const TensorImpl& g, TensorImpl& out, const std::vector<std::vector<int64_t>>& maps) {
  T* dst = out.data<T>();
  const T* src = g.data<T>();
  const int r = g.rank();
  fill_n<T>(dst, out.num_elements(), T(0));
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  const std::vector<int64_t> st = row_strides(out.shape()), gd = g.shape().to_vector();
  const int64_t inner = gd[r - 1];
  if (inner == 0 || g.num_elements() == 0) return;
  const int64_t rows = g.num_elements() / inner;
  for (int64_t row = 0; row < rows; ++row) {
    int64_t off = 0, rem = row;
    for (int d = r - 2; d >= 0; --d) {
      off += maps[d][rem % gd[d]] * st[d];
      rem /= gd[d];
    }
    const T* s = src + row * inner;
    for (int64_t i = 0; i < inner; ++i) dst[off + maps[r - 1][i]] = wrap_add(dst[off + maps[r - 1][i]], s[i]);
  }
}

void mirror_pad_grad_kernel(KernelContext& c) {
  const TensorImpl& g = *c.input(0);
  const std::string mode = c.attrs.get<std::string>("mode", "REFLECT");
  EF_INVALID(mode == "REFLECT" || mode == "SYMMETRIC", "mode must be either REFLECT or SYMMETRIC, got ", mode);
  const int mirror = mode == "REFLECT" ? 1 : 2;
  const Shape& ps = c.input(1)->shape();
  EF_INVALID(ps.rank() == 2 && ps[1] == 2, "paddings must be a matrix with 2 columns: ", ps.to_list_string());
  EF_INVALID(ps[0] == g.rank(), "The first dimension of paddings must be the rank of inputs",
             ps.to_list_string(), " ", g.shape().to_list_string());
  std::vector<int64_t> pads = index_values(c.op, *c.input(1), "Tpaddings");
  Shape out_shape;
  std::vector<std::vector<int64_t>> maps(g.rank());
  for (int d = 0; d < g.rank(); ++d) {
    const int64_t b = pads[2 * d], a = pads[2 * d + 1];
    EF_INVALID(b >= 0 && a >= 0, "Paddings must be non-negative: ", b, " ", a);
    // Huge paddings wrap the difference (as TF's int64 arithmetic does), but are never valid.
    const int64_t n = int64_t(uint64_t(g.shape()[d]) - uint64_t(a) - uint64_t(b));
    EF_INVALID(n >= 0 && a <= g.shape()[d] && b <= g.shape()[d] - a,
               "paddings must be less than the output dimension size: ", b, ", ", a, " not less than ", n);
    if (mirror == 1)
      EF_INVALID(b < n && a < n, "paddings must be less than the output dimension size: ", b, ", ", a,
                 " not less than ", n);
    else
      EF_INVALID(b <= n && a <= n, "paddings must be no greater than the output dimension size: ", b, ", ", a,
                 " greater than ", n);
    out_shape.push_back(n);
    for (int64_t o = 0; o < g.shape()[d]; ++o) {
      int64_t j = o - b;
      if (j < 0) j = mirror == 1 ? -j : -j - 1;
      else if (j >= n) j = mirror == 1 ? 2 * n - 2 - j : 2 * n - 1 - j;
      maps[d].push_back(j);
    }
  }
  TensorImpl* out = c.allocate_output(0, g.dtype(), out_shape);
  EF_DISPATCH_SUM(g.dtype(), c.op, mirror_fold<T>(g, *out, maps));
}

EF_REGISTER_CPU_KERNEL("InvertPermutation", invert_permutation_kernel);
EF_REGISTER_CPU_KERNEL("ScatterNd", scatter_nd_kernel);
EF_REGISTER_CPU_KERNEL("StridedSliceGrad", strided_slice_grad_kernel);
EF_REGISTER_CPU_KERNEL("MirrorPadGrad", mirror_pad_grad_kernel);

}  // namespace
}  // namespace ef
