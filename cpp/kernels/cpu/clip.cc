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

// clip_one for float/double with bounds that are not NaN: a minps, a maxps (their tie and NaN
// rules are clip_one's for a number x) and one select for a NaN x, where clip_one's own form
// vectorizes to twice the ops with mask registers.
template <class T>
inline T clip_number_bounds(T x, T lo, T hi) {
  const T m = x < hi ? x : hi;
  const T r = m > lo ? m : lo;
  return x != x ? x : r;
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
  // The loops read pointers and bounds from locals of their own: a store through `po` may alias
  // the closure's captures, which would be reloaded per element and keep the loop scalar.
  if (sl == 0 && sh == 0) {
    for_range(n, [px, po, l = pl[0], h = ph[0]](int64_t s, int64_t e) {
      const T* __restrict x = px;
      T* __restrict o = po;
      const T lo_v = l, hi_v = h;
      if constexpr (std::is_floating_point_v<T>) {
        if (!is_nan(lo_v) && !is_nan(hi_v)) {
          for (int64_t i = s; i < e; ++i) o[i] = clip_number_bounds(x[i], lo_v, hi_v);
          return;
        }
      }
      for (int64_t i = s; i < e; ++i) o[i] = clip_one(x[i], lo_v, hi_v);
    });
  } else {
    for_range(n, [px, po, pl, ph, sl, sh](int64_t s, int64_t e) {
      const T* __restrict x = px;
      T* __restrict o = po;
      for (int64_t i = s; i < e; ++i) o[i] = clip_one(x[i], pl[i * sl], ph[i * sh]);
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
