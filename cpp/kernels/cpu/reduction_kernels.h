// Helpers shared by the reduction, arg-reduction and scan CPU kernels, and by their per-ISA copies
// (reduction_isa_leaves.cc).
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
#include "kernels/cpu/vector_width.h"

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

// The vector kernels below are file-local in every includer: the per-ISA copies compile them with
// their own -m flags, and the linker keeps one instantiation of an external name for all callers.
namespace {

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

// The first index of the max (kMax) or min of p[0..n), n >= one vector of 4- or 8-byte elements:
// each lane keeps its strictly best value and where it was first seen, then the lanes holding the
// row's extreme give the smallest index. A block of four vectors is first only compared with the
// lanes' best (a max chain that NaN never enters); the lanes are updated only in the rare blocks
// that beat it, so most blocks cost a max per vector, near the row's memory bandwidth. NaN never
// wins a comparison; nothing beating `init` gives 0 (both as TF's sequential scan).
template <bool kMax, typename T>
int64_t first_extreme_index(const T* p, int64_t n, T init) {
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  constexpr int L = kVectorBytes / sizeof(T), K = 4;
  typedef T V __attribute__((vector_size(kVectorBytes)));
  typedef I VI __attribute__((vector_size(kVectorBytes)));
  V m;
  VI idx, lane;
  for (int j = 0; j < L; ++j) {
    m[j] = init;
    idx[j] = 0;
    lane[j] = j;
  }
  auto load = [p](int64_t at) {
    V a;
    std::memcpy(&a, p + at, sizeof(V));
    return a;
  };
  auto beats = [](V a, V b) { return kMax ? a > b : a < b; };
  auto pick = [&](V a, V b) { return beats(a, b) ? a : b; };  // b when a is NaN
  // Lanes take a's values that beat them, with their indices; for each lane the indices it sees
  // increase, so it keeps the first index of its best value.
  auto update = [&](V a, int64_t at) {
    const auto take = beats(a, m);
    m = take ? a : m;
    idx = take ? lane + static_cast<I>(at) : idx;
  };
  int64_t i = 0;
  for (; i + K * L <= n; i += K * L) {
    const V a0 = load(i), a1 = load(i + L), a2 = load(i + 2 * L), a3 = load(i + 3 * L);
    if (__builtin_expect(any_lane(beats(pick(a3, pick(a2, pick(a1, pick(a0, m)))), m)), 0)) {
      update(a0, i);
      update(a1, i + L);
      update(a2, i + 2 * L);
      update(a3, i + 3 * L);
    }
  }
  for (; i + L <= n; i += L) update(load(i), i);
  // The last L elements once more (lane j sees n - L + j after every index it saw before): no
  // scalar tail, and an element seen twice leaves the answer as it was.
  if (i < n) update(load(n - L), n - L);
  T best = init;
  for (int j = 0; j < L; ++j) best = (kMax ? m[j] > best : m[j] < best) ? m[j] : best;
  if (best == init) return 0;
  int64_t at = INT64_MAX;
  for (int j = 0; j < L; ++j) at = m[j] == best && idx[j] < at ? idx[j] : at;
  return at;
}

}  // namespace

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
