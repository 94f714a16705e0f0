// CPU kernels of TensorScatter{Update,Add,Sub,Min,Max} (a copy of the tensor with the updates
// combined in; duplicates apply in order) and TensorStridedSliceUpdate, over the helpers of
// scatter_nd.h that the variable scatters share.
#include "kernels/cpu/copy.h"
#include "kernels/cpu/nd_index.h"
#include "kernels/cpu/scatter_nd.h"
#include "kernels/cpu/scatter_rows.h"
#include "kernels/cpu/slice_args.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"
#include "ops/slice_spec.h"

namespace ef {

namespace {

template <ScatterMode M, typename T>
void apply_mode(const OpDef& op, DType dtype, T* out, const T* upd, const std::vector<int64_t>& rows, int64_t inner,
                bool scalar) {
  if constexpr (scatter_mode_applies<M, T>()) scatter_apply_rows<M>(out, upd, rows, inner, scalar);
  else throw_no_kernel(op, "T", dtype);
}

template <typename T>
void apply_rows(const OpDef& op, ScatterMode m, DType dtype, T* out, const T* upd, const std::vector<int64_t>& rows,
                int64_t inner, bool scalar) {
  switch (m) {
    case ScatterMode::kUpdate: return apply_mode<ScatterMode::kUpdate>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kAdd: return apply_mode<ScatterMode::kAdd>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kSub: return apply_mode<ScatterMode::kSub>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kMul: return apply_mode<ScatterMode::kMul>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kDiv: return apply_mode<ScatterMode::kDiv>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kMin: return apply_mode<ScatterMode::kMin>(op, dtype, out, upd, rows, inner, scalar);
    case ScatterMode::kMax: return apply_mode<ScatterMode::kMax>(op, dtype, out, upd, rows, inner, scalar);
  }
}

Tensor copy_of(const TensorImpl& in) {
  Tensor out = TensorImpl::empty(in.dtype(), in.shape());
  if (in.dtype() == DType::kString) {
    for (int64_t i = 0; i < in.num_elements(); ++i) out->data<std::string>()[i] = in.data<std::string>()[i];
  } else if (in.nbytes()) {
    std::memcpy(out->data<void>(), in.data<void>(), in.nbytes());
  }
  return out;
}

void apply(const OpDef& op, ScatterMode m, TensorImpl& out, const TensorImpl& updates, const std::vector<int64_t>& rows,
           int64_t inner, bool scalar) {
  switch (out.dtype()) {
    EF_CASES_REAL(apply_rows<T>(op, m, out.dtype(), out.data<T>(), updates.data<T>(), rows, inner, scalar))
    EF_CASE(kComplex64, complex64, apply_rows<T>(op, m, out.dtype(), out.data<T>(), updates.data<T>(), rows, inner, scalar))
    EF_CASE(kBool, bool, apply_rows<T>(op, m, out.dtype(), out.data<T>(), updates.data<T>(), rows, inner, scalar))
    EF_CASE(kString, std::string, apply_rows<T>(op, m, out.dtype(), out.data<T>(), updates.data<T>(), rows, inner, scalar))
    default: throw_no_kernel(op, "T", out.dtype());
  }
}

template <ScatterMode M>
void tensor_scatter_kernel(KernelContext& c) {
  const TensorImpl &input = *c.input(0), &indices = *c.input(1), &updates = *c.input(2);
  check_tensor_scatter_shapes(input.shape(), indices.shape(), updates.shape());
  c.set_output(0, scatter_nd_into(c.op, M, input, indices, updates));
}

void strided_slice_update_kernel(KernelContext& c) {
  c.set_output(0, strided_slice_update(c, *c.input(0), *c.input(4)));
}

}  // namespace

Tensor strided_slice_update(KernelContext& c, const TensorImpl& input, const TensorImpl& value) {
  const SliceArgs<3> a = slice_args<3>(c);
  SliceSpec spec = strided_slice_inputs(c.op, input.shape(), a.dtypes, a.shapes, a.values, c.attrs);
  // NumPy broadcasting of value against the final (shrunk) shape, then onto the processing shape.
  const Shape& fin = spec.final_shape;
  bool ok = value.rank() <= fin.rank();
  for (int d = 0; ok && d < value.rank(); ++d) {
    const int64_t v = value.shape()[value.rank() - 1 - d], f = fin[fin.rank() - 1 - d];
    ok = v == f || v == 1;
  }
  EF_INVALID(ok, "Cannot broadcast input shape ", value.shape().to_list_string(), " into final shape ",
             fin.to_list_string());
  Tensor out = copy_of(input);
  int64_t count = 1;
  for (int64_t s : spec.size) count *= s;
  if (count == 0) return out;
  // value broadcast to the final shape, whose row-major order is the slice's (they differ by
  // size-1 dims only: shrunk and new axes).
  Tensor full = TensorImpl::empty(input.dtype(), fin);
  StridedIter bc;
  bc.dims = fin.to_vector();
  bc.dst_st = row_strides(fin);
  bc.src_st.assign(fin.rank(), 0);
  const std::vector<int64_t> own = row_strides(value.shape());
  for (int d = 0; d < value.rank(); ++d)
    if (value.shape()[d] != 1) bc.src_st[fin.rank() - value.rank() + d] = own[d];
  const std::vector<int64_t> ost = row_strides(input.shape());
  StridedIter it;
  it.dims = spec.size;
  it.src_st = row_strides(spec.size);
  for (size_t d = 0; d < spec.size.size(); ++d) {
    it.dst_off += spec.begin[d] * ost[d];
    it.dst_st.push_back(spec.stride[d] * ost[d]);
  }
  EF_DISPATCH_STORAGE(input.dtype(), {
    strided_copy(value.data<T>(), full->data<T>(), std::move(bc));
    strided_copy(full->data<T>(), out->data<T>(), std::move(it));
  });
  return out;
}

std::vector<int64_t> scatter_nd_rows(const TensorImpl& indices, const Shape& shape, int64_t* inner) {
  const Shape& is = indices.shape();
  const int64_t k = is.rank() ? is[is.rank() - 1] : 1;
  EF_INVALID(k <= shape.rank(), "index innermost dimension length must be <= params rank; saw: ", k, " vs. ",
             shape.rank());
  const int64_t count = k ? indices.num_elements() / k : 0;
  *inner = 1;
  for (int d = static_cast<int>(k); d < shape.rank(); ++d) *inner *= shape[d];
  return nd_offsets(indices, count, k, shape, 1, [&](int64_t i, const std::vector<int64_t>& bad) {
    throw_error(Code::kInvalidArgument, "indices[", i, "] = ", list_string(bad, ", "), " does not index into shape ",
                shape.to_list_string());
  });
}

void check_scatter_nd_shapes(const Shape& out, const Shape& is, const Shape& us) {
  const int batch = is.rank() - 1;
  const int64_t k = is[batch];
  bool ok = us.rank() >= batch;
  for (int d = 0; ok && d < batch; ++d) ok = us[d] == is[d];
  EF_INVALID(ok, "Dimensions [0,", batch, ") of indices[shape=", is.to_list_string(), "] must match dimensions [0,",
             batch, ") of updates[shape=", us.to_list_string(), "]");
  ok = k <= out.rank() && us.rank() - batch == out.rank() - k;
  for (int d = 0; ok && d < us.rank() - batch; ++d) ok = us[batch + d] == out[static_cast<int>(k) + d];
  EF_INVALID(ok, "Dimensions [", k, ",", out.rank(), ") of input[shape=", out.to_list_string(),
             "] must match dimensions [", batch, ",", us.rank(), ") of updates[shape=", us.to_list_string(), "]");
}

void check_tensor_scatter_shapes(const Shape& out, const Shape& is, const Shape& us) {
  EF_INVALID(is.rank() >= 1, "Indices shape must have rank at least one. Found:", is.to_list_string());
  EF_INVALID(us.rank() >= 1, "Updates shape must have rank at least one. Found:", us.to_list_string());
  const int64_t n_out = out.num_elements(), n_idx = is.num_elements(), n_upd = us.num_elements();
  EF_INVALID((n_idx == 0 && n_upd == 0) || (n_out != 0 && n_idx != 0 && n_upd != 0),
             "Indices and updates specified for empty output shape");
  const int outer = is.rank() - 1;
  bool ok = us.rank() >= outer;
  for (int d = 0; ok && d < outer; ++d) ok = is[d] == us[d];
  EF_INVALID(ok, "Outer dimensions of indices and update must match. Indices shape: ", is.to_list_string(),
             ", updates shape:", us.to_list_string());
  const int64_t ix = is[outer];
  EF_INVALID(us.rank() - outer == out.rank() - ix,
             "Inner dimensions of output shape must match inner dimensions of updates shape. Output: ",
             out.to_list_string(), " updates: ", us.to_list_string());
  for (int d = 0; d + outer < us.rank(); ++d)
    EF_INVALID(us[d + outer] == out[static_cast<int>(ix) + d], "The inner ", out.rank() - ix,
               " dimensions of output.shape=", out.to_list_string(), " must match the inner ", us.rank() - outer,
               " dimensions of updates.shape=", us.to_list_string());
}

Tensor scatter_nd_into(const OpDef& op, ScatterMode m, const TensorImpl& input, const TensorImpl& indices,
                       const TensorImpl& updates) {
  Tensor out = copy_of(input);
  if (indices.num_elements() == 0) return out;
  int64_t inner = 1;
  const std::vector<int64_t> rows = scatter_nd_rows(indices, input.shape(), &inner);
  apply(op, m, *out, updates, rows, inner, false);
  return out;
}

Tensor scatter_rows_into(const OpDef& op, ScatterMode m, const TensorImpl& input, const TensorImpl& indices,
                         const TensorImpl& updates) {
  const Shape &ps = input.shape(), &is = indices.shape(), &us = updates.shape();
  EF_INVALID(ps.rank() >= 1, "params must be at least 1-D, got shape ", ps.to_list_string());
  bool ok = us.rank() == 0 || us.rank() == is.rank() + ps.rank() - 1;
  for (int d = 0; ok && us.rank() && d < is.rank(); ++d) ok = us[d] == is[d];
  for (int d = 1; ok && us.rank() && d < ps.rank(); ++d) ok = us[is.rank() + d - 1] == ps[d];
  EF_INVALID(ok, "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got ",
             "updates.shape ", us.to_list_string(), ", indices.shape ", is.to_list_string(), ", params.shape ",
             ps.to_list_string());
  std::vector<int64_t> rows = tensor_to_int_vector(indices);
  for (size_t i = 0; i < rows.size(); ++i)
    EF_INVALID(rows[i] >= 0 && rows[i] < ps[0], "indices[", i, "] = ", rows[i], " is not in [0, ", ps[0], ")");
  int64_t inner = 1;
  for (int d = 1; d < ps.rank(); ++d) inner *= ps[d];
  Tensor out = copy_of(input);
  apply(op, m, *out, updates, rows, inner, us.rank() == 0);
  return out;
}

namespace {

EF_REGISTER_CPU_KERNEL("TensorScatterUpdate", tensor_scatter_kernel<ScatterMode::kUpdate>);
EF_REGISTER_CPU_KERNEL("TensorScatterAdd", tensor_scatter_kernel<ScatterMode::kAdd>);
EF_REGISTER_CPU_KERNEL("TensorScatterSub", tensor_scatter_kernel<ScatterMode::kSub>);
EF_REGISTER_CPU_KERNEL("TensorScatterMin", tensor_scatter_kernel<ScatterMode::kMin>);
EF_REGISTER_CPU_KERNEL("TensorScatterMax", tensor_scatter_kernel<ScatterMode::kMax>);
EF_REGISTER_CPU_KERNEL("TensorStridedSliceUpdate", strided_slice_update_kernel);

}  // namespace
}  // namespace ef
