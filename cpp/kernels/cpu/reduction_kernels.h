// Helpers shared by the reduction, arg-reduction and scan CPU kernels.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#if defined(__SSE4_1__)
#include <immintrin.h>
#endif

#include "core/dtype.h"
#include "core/shape.h"

namespace ef {

// The identity of max / min: -inf / +inf for floats, the type's extremes otherwise.
template <typename A>
inline A lowest_value() {
  if constexpr (std::is_same_v<A, bool>) return false;
  else if constexpr (std::is_same_v<A, half>) return -std::numeric_limits<half>::infinity();
  else if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::lowest();
}
template <typename A>
inline A highest_value() {
  if constexpr (std::is_same_v<A, bool>) return true;
  else if constexpr (std::is_same_v<A, half>) return std::numeric_limits<half>::infinity();
  else if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
  else return std::numeric_limits<A>::max();
}

// The widest vector the build targets, for the GCC vector extensions below: a generic vector wider
// than the ISA's registers is expanded element by element (argmax 15x slower on the baseline x86-64
// build than one SSE register at a time).
#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

// Whether any lane of a vector compare's result (GCC vector extensions: lanes 0 or -1) is set:
// one test instruction where the ISA has it, not a walk over the lanes.
template <typename M>
inline bool any_lane(M mask) {
#if defined(__AVX512F__)
  if constexpr (sizeof(M) == 64) return _mm512_test_epi64_mask(__m512i(mask), __m512i(mask)) != 0;
#endif
#if defined(__AVX__)
  if constexpr (sizeof(M) == 32) return !_mm256_testz_si256(__m256i(mask), __m256i(mask));
#endif
#if defined(__SSE4_1__)
  if constexpr (sizeof(M) == 16) return !_mm_testz_si128(__m128i(mask), __m128i(mask));
#endif
  uint64_t w[sizeof(M) / 8], any = 0;
  std::memcpy(w, &mask, sizeof(M));
  for (uint64_t x : w) any |= x;
  return any != 0;
}

// The max (kMax) or min of p[0..n) and `init`, where NaNs never win; *saw_nan reports whether
// p holds a NaN. Written with GCC vector extensions: GCC does not vectorize a NaN-aware
// compare-select reduction on its own (it would need -ffast-math). T: int or float types.
template <bool kMax, typename T>
T extreme_value(const T* p, int64_t n, T init, bool* saw_nan) {
  constexpr int L = kVectorBytes / sizeof(T);
  typedef T V __attribute__((vector_size(kVectorBytes)));
  V m0, m1;
  for (int j = 0; j < L; ++j) m0[j] = m1[j] = init;
  auto pick = [](V v, V m) { return kMax ? (v > m ? v : m) : (v < m ? v : m); };
  auto nan = m0 != m0;  // all-false lane mask (a vector of ints)
  int64_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) {
    V a, b;
    std::memcpy(&a, p + i, sizeof(V));
    std::memcpy(&b, p + i + L, sizeof(V));
    m0 = pick(a, m0);
    m1 = pick(b, m1);
    if constexpr (std::is_floating_point_v<T>) nan |= (a != a) | (b != b);
  }
  m0 = pick(m1, m0);
  T best = init;
  bool any = false;
  for (int j = 0; j < L; ++j) {
    best = (kMax ? m0[j] > best : m0[j] < best) ? m0[j] : best;
    any |= nan[j] != 0;
  }
  for (; i < n; ++i) {
    best = (kMax ? p[i] > best : p[i] < best) ? p[i] : best;
    any |= p[i] != p[i];
  }
  *saw_nan = any;
  return best;
}

// Views `shape` as [K1, R, K2] around `axis` (R = the axis length).
struct AxisSplit {
  int64_t K1 = 1, R = 1, K2 = 1;
};
inline AxisSplit split_at_axis(const Shape& shape, int axis) {
  AxisSplit s;
  for (int d = 0; d < shape.rank(); ++d) {
    if (d < axis) s.K1 *= shape[d];
    else if (d == axis) s.R = shape[d];
    else s.K2 *= shape[d];
  }
  return s;
}

}  // namespace ef
