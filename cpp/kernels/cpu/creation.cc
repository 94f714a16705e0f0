// CPU kernels: shape queries (Shape, Size, Rank) and creation ops (Fill, ZerosLike, OnesLike, Range,
// LinSpace, OneHot).
#include "kernels/cpu/copy.h"
#include "kernels/cpu/tensor_list.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {

int64_t range_size(const OpDef& op, DType t, double start, double limit, double delta, int64_t istart, int64_t ilimit,
                   int64_t idelta);

namespace {

DType out_type(const KernelContext& c) {
  DType t = c.attrs.get<DType>("out_type", DType::kInt32);
  EF_INVALID(t == DType::kInt32 || t == DType::kInt64, "Value for attr 'out_type' of ", tf_type_string(t),
             " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node ", c.op.name, "}}");
  return t;
}

// A vector or scalar of int32/int64 values.
Tensor int_tensor(DType t, const std::vector<int64_t>& v, bool scalar) {
  Tensor out = TensorImpl::empty(t, scalar ? Shape() : Shape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) {
    if (t == DType::kInt32) {
      EF_INVALID(v[i] <= INT32_MAX, "Tensor dimension ", v[i], " does not fit in int32; use out_type=tf.int64");
      out->data<int32_t>()[i] = static_cast<int32_t>(v[i]);
    } else {
      out->data<int64_t>()[i] = v[i];
    }
  }
  return out;
}

void shape_kernel(KernelContext& c) { c.set_output(0, int_tensor(out_type(c), c.input(0)->shape().to_vector(), false)); }
void size_kernel(KernelContext& c) { c.set_output(0, int_tensor(out_type(c), {c.input(0)->num_elements()}, true)); }
void rank_kernel(KernelContext& c) { c.set_output(0, TensorImpl::scalar<int32_t>(c.input(0)->rank())); }

void fill_kernel(KernelContext& c) {
  const TensorImpl& value = *c.input(1);
  EF_INVALID(value.rank() == 0, "value must represent a scalar, got shape ", value.shape().to_list_string());
  Shape shape = fill_shape(c.op, c.input(0)->shape(), c.input(0).get());
  TensorImpl* out = c.allocate_output(0, value.dtype(), shape);
  EF_DISPATCH_STORAGE(value.dtype(), fill_n<T>(out->data<T>(), out->num_elements(), *value.data<T>()));
}

void zeros_like_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  if (x.dtype() == DType::kVariant) {  // a TensorList gradient that is zero: every element unset
    c.set_output(0, zeros_like_tensor_list(x));
    return;
  }
  c.set_output(0, TensorImpl::zeros(x.dtype(), x.shape()));  // strings start empty
}

void ones_like_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_type(c.op, x.dtype(), kTypesNumeric | kBitsRare | kTypesBool);
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  EF_DISPATCH_POD(x.dtype(), throw_no_kernel(c.op, "T", x.dtype()), fill_n<T>(out->data<T>(), out->num_elements(), T(1)));
}

template <typename T>
void fill_range(TensorImpl* out, T start, T delta) {
  // start + i * delta in T, as TF's kernel computes it (no accumulated rounding error).
  T* o = out->data<T>();
  if constexpr (std::is_integral_v<T>) {
    // Every value lies in [start, limit), but i * delta alone can overflow (range(INT_MIN, INT_MAX,
    // INT_MAX)): compute modulo 2^64, which gives the exact in-range result.
    for (int64_t i = 0; i < out->num_elements(); ++i)
      o[i] = static_cast<T>(uint64_t(int64_t(start)) + uint64_t(i) * uint64_t(int64_t(delta)));
  } else {
    for (int64_t i = 0; i < out->num_elements(); ++i) o[i] = static_cast<T>(start + static_cast<T>(i) * delta);
  }
}

void range_kernel(KernelContext& c) {
  const DType t = c.input(0)->dtype();
  InferContext ic = infer_for_kernel(c);  // validates dtypes, scalars and the start/limit/delta relation; gives the size
  TensorImpl* out = c.allocate_output(0, t, ic.out_shapes[0]);
  switch (t) {
    EF_CASES_REAL(fill_range<T>(out, *c.input(0)->data<T>(), *c.input(2)->data<T>()))
    EF_CASE(kBFloat16, bfloat16, fill_range<T>(out, *c.input(0)->data<T>(), *c.input(2)->data<T>()))
    default: throw_no_kernel(c.op, "Tidx", t);
  }
}

template <typename T>
void fill_linspace(TensorImpl* out, T start, T stop) {
  const int64_t n = out->num_elements();
  T* o = out->data<T>();
  const double s = static_cast<double>(start), e = static_cast<double>(stop);
  if (n == 1) {
    o[0] = start;
    return;
  }
  const double step = (e - s) / static_cast<double>(n - 1);
  if constexpr (std::is_same_v<T, double>) {
    for (int64_t i = 0; i < n; ++i) o[i] = s + step * static_cast<double>(i);
  } else {
    const float fs = static_cast<float>(s), fstep = static_cast<float>((e - s) / static_cast<double>(n - 1));
    for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(fs + fstep * static_cast<float>(i));
  }
  o[n - 1] = stop;
}

void linspace_kernel(KernelContext& c) {
  InferContext ic = infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, c.input(0)->dtype(), ic.out_shapes[0]);
  EF_DISPATCH_FLOAT(out->dtype(), throw_no_kernel(c.op, "T", out->dtype()), fill_linspace<T>(out, *c.input(0)->data<T>(), *c.input(1)->data<T>()));
}

template <typename T>
void one_hot_fill(const TensorImpl& indices, TensorImpl* out, int axis, int64_t depth, const T& on, const T& off) {
  // Output viewed as [prefix, depth, suffix] with prefix * suffix == indices.num_elements().
  const Shape& is = indices.shape();
  int64_t suffix = 1;
  for (int d = axis; d < is.rank(); ++d) suffix *= is[d];
  T* o = out->data<T>();
  fill_n<T>(o, out->num_elements(), off);
  for (int64_t i = 0; i < indices.num_elements(); ++i) {
    const int64_t v = tensor_int_at(indices, i);
    if (v < 0 || v >= depth) continue;
    const int64_t p = i / suffix, s = i % suffix;
    o[(p * depth + v) * suffix + s] = on;
  }
}

void one_hot_kernel(KernelContext& c) {
  InferContext ic = infer_for_kernel(c);
  const TensorImpl& indices = *c.input(0);
  const int r = indices.rank();
  const int64_t axis = c.attrs.get<int64_t>("axis", -1);
  TensorImpl* out = c.allocate_output(0, c.input(2)->dtype(), ic.out_shapes[0]);
  const int64_t depth = tensor_int_at(*c.input(1), 0);
  EF_DISPATCH_STORAGE(out->dtype(), one_hot_fill<T>(indices, out, static_cast<int>(axis == -1 ? r : axis), depth,
                                                    *c.input(2)->data<T>(), *c.input(3)->data<T>()));
}

EF_REGISTER_CPU_KERNEL("Shape", shape_kernel);
EF_REGISTER_CPU_KERNEL("Size", size_kernel);
EF_REGISTER_CPU_KERNEL("Rank", rank_kernel);
EF_REGISTER_CPU_KERNEL("Fill", fill_kernel);
EF_REGISTER_CPU_KERNEL("ZerosLike", zeros_like_kernel);
EF_REGISTER_CPU_KERNEL("OnesLike", ones_like_kernel);
EF_REGISTER_CPU_KERNEL("Range", range_kernel);
EF_REGISTER_CPU_KERNEL("LinSpace", linspace_kernel);
EF_REGISTER_CPU_KERNEL("OneHot", one_hot_kernel);

}  // namespace
}  // namespace ef
