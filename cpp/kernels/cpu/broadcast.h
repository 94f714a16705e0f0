// NumPy broadcasting in kernels: strides and the strided loop shared by every binary elementwise
// kernel (the shape rule, which inference uses too, is ops/broadcast_shapes.h).
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "core/tensor.h"
#include "core/threadpool.h"
#include "ops/broadcast_shapes.h"

namespace ef {

// Elements per thread chunk for memory-bound elementwise loops.
constexpr int64_t kElementwiseGrain = int64_t(1) << 15;

// Strides (in elements) that read `in` as if it had shape `out` (0 on broadcast dims).
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// Runs fn(begin, end) over [0, n), in parallel (balanced chunks) when n is large.
template <typename F>
inline void for_range(int64_t n, F&& fn, int64_t grain = kElementwiseGrain) {
  if (n < 2 * grain) {
    fn(int64_t(0), n);
  } else {
    parallel_for_balanced(n, grain, fn);
  }
}

// The inner loops of binary_loop over n elements: out[i] = f(a[i], b[i]), f(a, b[i]), f(a[i], b), and
// f(a[i * sa], b[i * sb]). Each reads the functor and pointers from locals of its own: a 1-byte store
// (bool, int8 outputs) may alias anything reachable through memory, such as a closure's captures,
// and would force a reload per element (a scalar loop instead of a vectorized one).
template <typename TA, typename TB, typename TO, typename F>
struct BinaryRuns {
  F f;
  void both(const TA* a, const TB* b, TO* out, int64_t n) const {
    const F fn = f;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(a[i], b[i]);
  }
  void scalar_left(TA a, const TB* b, TO* out, int64_t n) const {
    const F fn = f;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(a, b[i]);
  }
  void scalar_right(const TA* a, TB b, TO* out, int64_t n) const {
    const F fn = f;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(a[i], b);
  }
  void strided(const TA* a, int64_t sa, const TB* b, int64_t sb, TO* out, int64_t n) const {
    const F fn = f;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(a[i * sa], b[i * sb]);
  }
};

// binary_loop with the inner loops of `runs` (BinaryRuns' interface).
template <typename TA, typename TB, typename TO, typename Runs>
void binary_loop_runs(const TensorImpl& a, const TensorImpl& b, TensorImpl& out, const Runs& runs) {
  const TA* pa = a.data<TA>();
  const TB* pb = b.data<TB>();
  TO* po = out.data<TO>();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const int64_t na = a.num_elements(), nb = b.num_elements();
  if (na == n && nb == n) {
    for_range(n, [&](int64_t s, int64_t e) { runs.both(pa + s, pb + s, po + s, e - s); });
  } else if (na == 1 && nb == n) {
    for_range(n, [&](int64_t s, int64_t e) { runs.scalar_left(pa[0], pb + s, po + s, e - s); });
  } else if (nb == 1 && na == n) {
    for_range(n, [&](int64_t s, int64_t e) { runs.scalar_right(pa + s, pb[0], po + s, e - s); });
  } else {
    const Shape& os = out.shape();
    const int r = os.rank();
    std::vector<int64_t> sa = broadcast_strides(a.shape(), os), sb = broadcast_strides(b.shape(), os);
    const int64_t inner = os[r - 1];
    const int64_t rows = n / inner;
    const int64_t ia = sa[r - 1], ib = sb[r - 1];
    for_range(
        rows,
        [&](int64_t s, int64_t e) {
          for (int64_t row = s; row < e; ++row) {
            int64_t oa = 0, ob = 0, rem = row;
            for (int d = r - 2; d >= 0; --d) {
              int64_t idx = rem % os[d];
              rem /= os[d];
              oa += idx * sa[d];
              ob += idx * sb[d];
            }
            TO* dst = po + row * inner;
            const TA* xa = pa + oa;
            const TB* xb = pb + ob;
            if (ia == 1 && ib == 1) {
              runs.both(xa, xb, dst, inner);
            } else if (ia == 0 && ib == 1) {
              runs.scalar_left(xa[0], xb, dst, inner);
            } else if (ia == 1 && ib == 0) {
              runs.scalar_right(xa, xb[0], dst, inner);
            } else {
              runs.strided(xa, ia, xb, ib, dst, inner);
            }
          }
        },
        std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(inner, 1)));
  }
}

// out[i] = f(a[ia], b[ib]) with NumPy broadcasting; `out` already has the broadcast shape.
template <typename TA, typename TB, typename TO, typename F>
void binary_loop(const TensorImpl& a, const TensorImpl& b, TensorImpl& out, F f) {
  binary_loop_runs<TA, TB, TO>(a, b, out, BinaryRuns<TA, TB, TO, F>{f});
}

// out[i] = f(in[i]) over contiguous data.
template <typename TI, typename TO, typename F>
void unary_loop(const TensorImpl& in, TensorImpl& out, F f) {
  // bool goes through its bytes: GCC vectorizes none of its loops over bool elements.
  using SI = std::conditional_t<std::is_same_v<TI, bool>, uint8_t, TI>;
  using SO = std::conditional_t<std::is_same_v<TO, bool>, uint8_t, TO>;
  const SI* pi = reinterpret_cast<const SI*>(in.data<TI>());
  SO* po = reinterpret_cast<SO*>(out.data<TO>());
  if constexpr (std::is_same_v<TI, bool> && !std::is_same_v<TO, bool> && std::is_trivially_copyable_v<TO> &&
                (sizeof(TO) == 2 || sizeof(TO) == 4 || sizeof(TO) == 8)) {
    // f of a bool is one of two values: chosen through a mask of the byte, which vectorizes.
    using W = std::conditional_t<sizeof(TO) == 2, uint16_t, std::conditional_t<sizeof(TO) == 4, uint32_t, uint64_t>>;
    const TO r0 = f(false), r1 = f(true);
    W w0, w1;
    std::memcpy(&w0, &r0, sizeof(W));
    std::memcpy(&w1, &r1, sizeof(W));
    W* const pw = reinterpret_cast<W*>(po);
    for_range(in.num_elements(), [pi, pw, w0, w1](int64_t s, int64_t e) {
      const uint8_t* __restrict const x = pi;
      W* __restrict const o = pw;
      for (int64_t i = s; i < e; ++i) {
        const W m = W(0) - W(x[i] != 0);
        o[i] = (w1 & m) | (w0 & W(~m));
      }
    });
    return;
  }
  for_range(in.num_elements(), [pi, po, f](int64_t s, int64_t e) {
    if constexpr (std::is_same_v<TI, TO>) {
      if (pi == po) {  // a forwarded output: in place through one pointer
        SO* const o = po;
        for (int64_t i = s; i < e; ++i) o[i] = static_cast<SO>(f(static_cast<TI>(o[i])));
        return;
      }
    }
    // Distinct buffers never overlap: restrict lets the loop vectorize where GCC would not version
    // it for aliasing (1-byte elements).
    const SI* __restrict const x = pi;
    SO* __restrict const o = po;
    for (int64_t i = s; i < e; ++i) o[i] = static_cast<SO>(f(static_cast<TI>(x[i])));
  });
}

}  // namespace ef
