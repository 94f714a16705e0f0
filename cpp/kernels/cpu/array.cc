// CPU kernels: zero-copy reshapes (Reshape, ExpandDims, Squeeze, Identity) and strided copies
// (Transpose, ReverseV2, BroadcastTo, Tile, Roll).
#include "kernels/cpu/copy.h"
#include "ops/array_shapes.h"

namespace ef {
namespace {

void reshape_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  c.set_output(0, x->with_shape(reshape_shape(c.op, x->shape(), c.input(1)->shape(), c.input(1).get())));
}

void expand_dims_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  c.set_output(0, x->with_shape(expand_dims_shape(c.op, x->shape(), c.input(1).get())));
}

void squeeze_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  c.set_output(0, x->with_shape(squeeze_shape(x->shape(), c.attrs.get<std::vector<int64_t>>("squeeze_dims", {}))));
}

void identity_kernel(KernelContext& c) { c.set_output(0, c.input(0)->with_shape(c.input(0)->shape())); }

// Copies `x` viewed through `it` (src strides/offset set by the caller) into a new tensor.
Tensor copy_view(const TensorImpl& x, const Shape& out_shape, StridedIter it) {
  Tensor out = TensorImpl::empty(x.dtype(), out_shape);
  it.dst_st = row_strides(it.dims);
  EF_DISPATCH_STORAGE(x.dtype(), strided_copy(x.data<T>(), out->data<T>(), std::move(it)));
  return out;
}

void transpose_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  std::vector<int> perm;
  Shape out_shape = transpose_shape(c.op, x->shape(), c.input(1).get(), &perm);
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i) identity &= perm[i] == static_cast<int>(i);
  if (identity) return c.set_output(0, x->with_shape(x->shape()));
  std::vector<int64_t> in_st = row_strides(x->shape());
  StridedIter it;
  it.dims = out_shape.to_vector();
  for (int p : perm) it.src_st.push_back(in_st[p]);
  c.set_output(0, copy_view(*x, out_shape, std::move(it)));
}

void reverse_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  std::vector<bool> axes;
  reverse_axes(c.op, x->shape(), *c.input(1), &axes);
  StridedIter it;
  it.dims = x->shape().to_vector();
  it.src_st = row_strides(it.dims);
  bool any = false;
  for (size_t d = 0; d < axes.size(); ++d) {
    if (!axes[d] || it.dims[d] <= 1) continue;
    any = true;
    it.src_off += (it.dims[d] - 1) * it.src_st[d];
    it.src_st[d] = -it.src_st[d];
  }
  if (!any) return c.set_output(0, x->with_shape(x->shape()));
  c.set_output(0, copy_view(*x, x->shape(), std::move(it)));
}

void broadcast_to_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  Shape out_shape = broadcast_to_shape(c.op, x->shape(), c.input(1)->shape(), c.input(1).get());
  if (out_shape == x->shape()) return c.set_output(0, x->with_shape(x->shape()));
  StridedIter it;
  it.dims = out_shape.to_vector();
  it.src_st = broadcast_strides(x->shape(), out_shape);
  c.set_output(0, copy_view(*x, out_shape, std::move(it)));
}

// Tile as a broadcast: input [d0, d1] is read as [m0, d0, m1, d1] with zero strides on the
// multiples, whose row-major layout is exactly the tiled output [m0*d0, m1*d1].
void tile_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  Shape out_shape = tile_shape(c.op, x->shape(), c.input(1)->shape(), c.input(1).get());
  std::vector<int64_t> m = tensor_to_int_vector(*c.input(1));
  std::vector<int64_t> in_st = row_strides(x->shape());
  StridedIter it;
  for (int d = 0; d < x->rank(); ++d) {
    it.dims.push_back(m[d]);
    it.src_st.push_back(0);
    it.dims.push_back(x->shape()[d]);
    it.src_st.push_back(in_st[d]);
  }
  c.set_output(0, copy_view(*x, out_shape, std::move(it)));
}

// Roll: out[(i + shift) mod n] = in[i] along each axis (repeated axes add). Each rolled axis
// splits into two ranges that swap places, so the copy is 2^k blocks for k rolled axes, each a
// strided copy of whole runs.
void roll_kernel(KernelContext& c) {
  const Tensor& x = c.input(0);
  const TensorImpl &shift = *c.input(1), &axis = *c.input(2);
  EF_INVALID(x->rank() >= 1, "input must be 1-D or higher");
  EF_INVALID(shift.rank() <= 1, "shift must be a scalar or a 1-D vector. Found: ", shift.shape().to_list_string());
  EF_INVALID(axis.rank() <= 1, "axis must be a scalar or a 1-D vector. Found: ", axis.shape().to_list_string());
  EF_INVALID(shift.num_elements() == axis.num_elements(), "shift and axis must have the same size");
  const std::vector<int64_t> shifts = tensor_to_int_vector(shift), axes = tensor_to_int_vector(axis);
  const Shape& shape = x->shape();
  const int r = shape.rank();
  std::vector<int64_t> by(r, 0);  // each axis's shift, in [0, n)
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i] < 0 ? axes[i] + r : axes[i];
    EF_INVALID(a >= 0 && a < r, "axis ", a, " is out of range");
    const int64_t n = shape[static_cast<int>(a)];
    if (n > 0) by[a] = ((by[a] + shifts[i] % n) % n + n) % n;
  }
  std::vector<int> rolled;
  for (int d = 0; d < r; ++d)
    if (by[d] != 0) rolled.push_back(d);
  if (rolled.empty() || x->num_elements() == 0) return c.set_output(0, x->with_shape(shape));
  Tensor out = TensorImpl::empty(x->dtype(), shape);
  const std::vector<int64_t> st = row_strides(shape);
  for (uint64_t m = 0; m < (uint64_t(1) << rolled.size()); ++m) {
    StridedIter it;
    it.dims = shape.to_vector();
    it.src_st = st;
    it.dst_st = st;
    for (size_t k = 0; k < rolled.size(); ++k) {
      const int d = rolled[k];
      const int64_t n = shape[d], s = by[d];
      if (m >> k & 1) {  // the last s of the input's axis open the output's
        it.dims[d] = s;
        it.src_off += (n - s) * st[d];
      } else {  // the rest follow them
        it.dims[d] = n - s;
        it.dst_off += s * st[d];
      }
    }
    EF_DISPATCH_STORAGE(x->dtype(), strided_copy(x->data<T>(), out->data<T>(), std::move(it)));
  }
  c.set_output(0, out);
}

EF_REGISTER_CPU_KERNEL("Reshape", reshape_kernel);
EF_REGISTER_CPU_KERNEL("ExpandDims", expand_dims_kernel);
EF_REGISTER_CPU_KERNEL("Squeeze", squeeze_kernel);
EF_REGISTER_CPU_KERNEL("Identity", identity_kernel);
EF_REGISTER_CPU_KERNEL("Transpose", transpose_kernel);
EF_REGISTER_CPU_KERNEL("ReverseV2", reverse_kernel);
EF_REGISTER_CPU_KERNEL("BroadcastTo", broadcast_to_kernel);
EF_REGISTER_CPU_KERNEL("Tile", tile_kernel);
EF_REGISTER_CPU_KERNEL("Roll", roll_kernel);

}  // namespace
}  // namespace ef
