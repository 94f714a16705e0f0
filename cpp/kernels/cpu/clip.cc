// CPU kernel for ClipByValue: minimum(maximum-style) clipping with scalar or same-shape bounds.
// NaN propagates from the input and from either bound, as tf.clip_by_value (minimum then
// maximum) does; when min > max every element becomes min.
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "ops/math_unary_ops.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <class T>
inline bool is_nan(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) return ef::isnan(v);
  else if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

template <class T>
inline T clip_one(T x, T lo, T hi) {
  const T m = (is_nan(x) || x < hi) ? x : hi;  // Minimum(x, hi)
  return (is_nan(m) || m > lo) ? m : lo;       // Maximum(m, lo)
}

template <class T>
void clip_typed(const TensorImpl& t, const TensorImpl& lo, const TensorImpl& hi, TensorImpl& out) {
  const T* px = t.data<T>();
  const T* pl = lo.data<T>();
  const T* ph = hi.data<T>();
  T* po = out.data<T>();
  const int64_t n = t.num_elements();
  // Bounds are scalars or full-size (checked); a stride of 0 reads a scalar bound everywhere.
  const int64_t sl = lo.rank() == 0 ? 0 : 1, sh = hi.rank() == 0 ? 0 : 1;
  if (sl == 0 && sh == 0) {
    const T l = pl[0], h = ph[0];
    for_range(n, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = clip_one(px[i], l, h);
    });
  } else {
    for_range(n, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) po[i] = clip_one(px[i], pl[i * sl], ph[i * sh]);
    });
  }
}

void clip_by_value_kernel(KernelContext& c) {
  const TensorImpl& t = *c.input(0);
  const TensorImpl& lo = *c.input(1);
  const TensorImpl& hi = *c.input(2);
  check_same_dtype(c.op, t.dtype(), lo.dtype(), 1);
  check_same_dtype(c.op, t.dtype(), hi.dtype(), 2);
  check_unary_type(c.op, t.dtype(), unary_types::kClipByValue);
  check_clip_shapes(t.shape(), lo.shape(), hi.shape());
  TensorImpl* out = c.allocate_output(0, t.dtype(), t.shape());
  if (t.num_elements() == 0) return;
  switch (t.dtype()) {
    EF_CASES_REAL(clip_typed<T>(t, lo, hi, *out))
    EF_CASES_WIDE_UINT(clip_typed<T>(t, lo, hi, *out))
    EF_CASE(kBFloat16, bfloat16, clip_typed<T>(t, lo, hi, *out))
    default: throw_no_kernel(c.op, "T", t.dtype());
  }
}

EF_REGISTER_CPU_KERNEL("ClipByValue", clip_by_value_kernel);

}  // namespace
}  // namespace ef
