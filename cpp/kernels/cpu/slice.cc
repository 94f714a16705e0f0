// CPU kernels: StridedSlice and Slice (one strided copy; whole-tensor slices and runs of elements
// share the buffer).
#include "kernels/cpu/copy.h"
#include "kernels/cpu/slice_args.h"
#include "ops/array_shapes.h"
#include "ops/slice_spec.h"

namespace ef {
namespace {

void run_slice(KernelContext& c, const SliceSpec& spec) {
  const TensorImpl& x = *c.input(0);
  bool whole = true;
  for (int d = 0; d < x.rank(); ++d)
    whole &= spec.begin[d] == 0 && spec.stride[d] == 1 && spec.size[d] == x.shape()[d];
  if (whole) return c.set_output(0, x.with_shape(spec.final_shape));
  std::vector<int64_t> in_st = row_strides(x.shape());
  // One run of x's elements (dims of one element, then one dim's range with stride 1, then whole
  // dims, as a slice of rows is): a view of x's buffer.
  int d0 = 0;
  while (d0 < x.rank() && spec.size[d0] == 1) ++d0;
  bool run = d0 == x.rank() || spec.stride[d0] == 1;
  for (int d = d0 + 1; run && d < x.rank(); ++d) run = spec.begin[d] == 0 && spec.size[d] == x.shape()[d];
  if (run) {
    int64_t offset = 0;
    for (int d = 0; d < x.rank(); ++d) offset += spec.begin[d] * in_st[d];
    if (Tensor view = TensorImpl::view_of(x, offset, spec.final_shape)) return c.set_output(0, view);
  }
  StridedIter it;
  it.dims = spec.size;
  for (int d = 0; d < x.rank(); ++d) {
    it.src_off += spec.begin[d] * in_st[d];
    it.src_st.push_back(spec.stride[d] * in_st[d]);
  }
  it.dst_st = row_strides(it.dims);
  TensorImpl* out = c.allocate_output(0, x.dtype(), spec.final_shape);
  EF_DISPATCH_STORAGE(x.dtype(), strided_copy(x.data<T>(), out->data<T>(), std::move(it)));
}

void strided_slice_kernel(KernelContext& c) {
  const SliceArgs<3> a = slice_args<3>(c);
  run_slice(c, strided_slice_inputs(c.op, c.input(0)->shape(), a.dtypes, a.shapes, a.values, c.attrs));
}

void slice_kernel(KernelContext& c) {
  const SliceArgs<2> a = slice_args<2>(c);
  run_slice(c, slice_inputs(c.op, c.input(0)->shape(), a.dtypes, a.shapes, a.values));
}

EF_REGISTER_CPU_KERNEL("StridedSlice", strided_slice_kernel);
EF_REGISTER_CPU_KERNEL("Slice", slice_kernel);

}  // namespace
}  // namespace ef
