#pragma once
// The reductions' pairwise trees: the operations (Sum, Prod, Max, Min, Any, All), a contiguous run
// reduced like NumPy's sum, and a tile of columns reduced over its rows. Included by the kernels
// (reduction_impl.h) and by the per-ISA copies of the float/double leaves (reduction_isa_leaves.cc),
// so everything here is file-local: the linker keeps one instantiation of an external name, and an
// AVX-512 copy must not serve a baseline caller.
//
// The tree, for a run of n elements: below 8, a left-to-right loop; up to 128 (a leaf), 8
// accumulators r[j] += p[i + j] over the 8-element steps, combined as ((r0 r1)(r2 r3))((r4 r5)(r6 r7)),
// then the tail left to right; above, halves cut at a multiple of 8 (n / 2 rounded down), reduced
// recursively and combined. Float error grows with log(n) rather than n.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/cpu/reduction_kernels.h"

namespace ef {
namespace {

// Integer arithmetic wraps like TF (signed overflow is undefined in C++, so go through unsigned;
// types narrower than int promote to int, so use uint32 for them to avoid overflow there).
template <typename A>
using WrapT = std::conditional_t<(sizeof(A) < 4), uint32_t, std::make_unsigned_t<A>>;

template <typename A>
inline bool nan_value(A v) {
  if constexpr (std::is_floating_point_v<A>) return std::isnan(v);
  else return false;
}

// Each op also applies to GCC vectors of float/double (vop), lane by lane as op does.
struct SumOp {
  template <typename A> static A init() { return A(0); }
  template <typename A> static A op(A a, A b) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<WrapT<A>>(a) + static_cast<WrapT<A>>(b));
    else
      return a + b;
  }
  template <typename V> static V vop(V a, V b) { return a + b; }
};
struct ProdOp {
  template <typename A> static A init() { return A(1); }
  template <typename A> static A op(A a, A b) {
    if constexpr (std::is_integral_v<A> && !std::is_same_v<A, bool>)
      return static_cast<A>(static_cast<WrapT<A>>(a) * static_cast<WrapT<A>>(b));
    else
      return a * b;
  }
  template <typename V> static V vop(V a, V b) { return a * b; }
};
// Max/Min propagate NaN, as TF's do.
struct MaxOp {
  template <typename A> static A init() { return lowest_value<A>(); }
  template <typename A> static A op(A a, A b) { return (a > b || nan_value(a)) ? a : b; }
  template <typename V> static V vop(V a, V b) { return ((a > b) | (a != a)) ? a : b; }
  // vop where neither is NaN: one maxps (b on ties, as vop).
  template <typename V> static V vop_no_nan(V a, V b) { return a > b ? a : b; }
};
struct MinOp {
  template <typename A> static A init() { return highest_value<A>(); }
  template <typename A> static A op(A a, A b) { return (a < b || nan_value(a)) ? a : b; }
  template <typename V> static V vop(V a, V b) { return ((a < b) | (a != a)) ? a : b; }
  template <typename V> static V vop_no_nan(V a, V b) { return a < b ? a : b; }
};
template <class Red, class V, class = void>
struct HasVopNoNan : std::false_type {};
template <class Red, class V>
struct HasVopNoNan<Red, V, std::void_t<decltype(Red::vop_no_nan(V{}, V{}))>> : std::true_type {};
struct AnyOp {
  template <typename A> static A init() { return false; }
  template <typename A> static A op(A a, A b) { return a || b; }
};
struct AllOp {
  template <typename A> static A init() { return true; }
  template <typename A> static A op(A a, A b) { return a && b; }
};

constexpr int64_t kLeaf = 128;  // the tree's leaves: at most this many elements

// The tree's split of a run longer than a leaf: the first half's length.
inline int64_t pairwise_half(int64_t n) {
  const int64_t h = n / 2;
  return h - h % 8;
}

// Widening integer sums (int8/int16 Mean in int64) in a plain loop: GCC 12's vectorizer
// miscompiles the 8-accumulator widening form below (int8 [100]*25 summed to a wrong value).
template <class Red, typename In, typename A>
__attribute__((optimize("no-tree-vectorize"))) A reduce_widening(const In* p, int64_t n) {
  A a = Red::template init<A>();
  for (int64_t i = 0; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
  return a;
}

// A leaf's 8 accumulators combined.
template <class Red, typename A>
inline A combine8(const A* r) {
  return Red::op(Red::op(Red::op(r[0], r[1]), Red::op(r[2], r[3])), Red::op(Red::op(r[4], r[5]), Red::op(r[6], r[7])));
}

// Sum and Prod with each leaf's 8 accumulators in GCC vectors, combined by shuffles: GCC's own
// vectorization of the scalar form kept them on the stack (float), or got them wrong (GCC 12 -O3, int32
// rows of 24..31 elements). A vector is no wider than a register of the ISA (a generic vector wider
// than the registers is expanded element by element) nor than a leaf. Every lane sees the same
// operations in the same order as the scalar tree: the same bits. Integers wrap: their lanes compute in
// the unsigned type. The leaves run one after another in memory order: the out-of-order core overlaps
// their chains, and the hardware prefetchers follow (interleaving leaves side by side, eight streams
// 512 bytes apart, reads memory at a third of the bandwidth on Zen 4).
template <class Red, typename T>
struct VectorTree {
  static constexpr int kBytes = kVectorBytes < int(8 * sizeof(T)) ? kVectorBytes : int(8 * sizeof(T));
  static constexpr int L = kBytes / sizeof(T);  // lanes per vector
  static constexpr int kVecs = 8 / L;           // vectors per leaf
  using E = typename std::conditional_t<std::is_integral_v<T>, std::make_unsigned<T>, std::common_type<T>>::type;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef E V __attribute__((vector_size(kBytes)));
  typedef I M __attribute__((vector_size(kBytes)));

  static V load(const T* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
  }

  template <size_t... J>
  static constexpr M lanes_from(std::index_sequence<J...>, int first) {
    return M{static_cast<I>(2 * J + first)...};
  }
  // The tree's next level over the 2L lanes of a and b: op(lane 2k, lane 2k + 1) in lane k.
  static V pair(V a, V b) {
    constexpr M kEven = lanes_from(std::make_index_sequence<L>(), 0);
    constexpr M kOdd = lanes_from(std::make_index_sequence<L>(), 1);
    return Red::vop(__builtin_shuffle(a, b, kEven), __builtin_shuffle(a, b, kOdd));
  }

  // A leaf's 8 accumulators combined as combine8 does: pairs of vectors, then of one vector's lanes
  // with themselves; lane 0 holds the result.
  static T combine_leaf(V* r) {
#pragma GCC unroll 4
    for (int w = kVecs / 2; w >= 1; w /= 2)
#pragma GCC unroll 4
      for (int k = 0; k < w; ++k) r[k] = pair(r[2 * k], r[2 * k + 1]);
    V v = r[0];
#pragma GCC unroll 4
    for (int w = L; w > 1; w /= 2) v = pair(v, v);
    return static_cast<T>(v[0]);
  }

  // One leaf, 8 <= n <= kLeaf.
  static T leaf(const T* p, int64_t n) {
    V r[kVecs];
#pragma GCC unroll 8
    for (int q = 0; q < kVecs; ++q) r[q] = load(p + q * L);
    const int64_t steps = (n - 8) / 8;
    for (int64_t k = 1; k <= steps; ++k)
#pragma GCC unroll 8
      for (int q = 0; q < kVecs; ++q) r[q] = Red::vop(r[q], load(p + 8 * k + q * L));
    T a = combine_leaf(r);
    for (int64_t i = 8 + 8 * steps; i < n; ++i) a = Red::op(a, p[i]);
    return a;
  }

  // p[0..n), n >= 8.
  static T reduce(const T* p, int64_t n) {
    if (n <= kLeaf) return leaf(p, n);
    const int64_t h = pairwise_half(n);
    const T a = reduce(p, h);  // the first half first (C++ leaves the order of arguments open)
    return Red::op(a, reduce(p + h, n - h));
  }
};

// Reduces p[0..n) along the tree.
template <class Red, typename In, typename A>
A pairwise_contig(const In* p, int64_t n) {
  if constexpr (std::is_integral_v<In> && std::is_same_v<A, int64_t> && (sizeof(In) < sizeof(A))) {
    return reduce_widening<Red, In, A>(p, n);
  }
  if constexpr ((std::is_same_v<Red, MaxOp> || std::is_same_v<Red, MinOp>) && std::is_same_v<In, A> &&
                std::is_arithmetic_v<A>) {
    if (n >= 32) {  // vectorized, with NaN propagated from a flag
      bool nan = false;
      const A best = extreme_value<std::is_same_v<Red, MaxOp>>(p, n, Red::template init<A>(), &nan);
      if constexpr (std::is_floating_point_v<A>) {
        if (nan) return std::numeric_limits<A>::quiet_NaN();
      }
      return best;
    }
  }
  if (n < 8) {
    if (n == 0) return Red::template init<A>();
    A a = static_cast<A>(p[0]);
    for (int64_t i = 1; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
    return a;
  }
  if constexpr (std::is_same_v<In, A> && std::is_arithmetic_v<A> && !std::is_same_v<A, bool> &&
                (std::is_same_v<Red, SumOp> || std::is_same_v<Red, ProdOp>)) {
    return VectorTree<Red, A>::reduce(p, n);
  }
  if (n <= kLeaf) {
    A r[8];
    for (int j = 0; j < 8; ++j) r[j] = static_cast<A>(p[j]);
    int64_t i = 8;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) r[j] = Red::op(r[j], static_cast<A>(p[i + j]));
    A a = combine8<Red>(r);
    for (; i < n; ++i) a = Red::op(a, static_cast<A>(p[i]));
    return a;
  }
  const int64_t h = pairwise_half(n);
  const A a = pairwise_contig<Red, In, A>(p, h);  // (C++ leaves the order of arguments open)
  return Red::op(a, pairwise_contig<Red, In, A>(p + h, n - h));
}

constexpr int64_t kColTile = 256;  // columns reduced together (accumulators stay in L1)

// acc[j] = op over r < R of p[r * stride + j] for j < w, R <= kLeaf, from the first row down, for
// float/double Sum/Prod/Max/Min: eight vectors of columns stay in registers over all the rows (one load
// per vector and row, not a load and a store of the accumulator too).
template <class Red, typename T>
void column_leaf_vectors(const T* p, int64_t R, int64_t stride, int64_t w, T* acc) {
  constexpr int L = kVectorBytes / sizeof(T), kChunk = 8;
  typedef T V __attribute__((vector_size(kVectorBytes)));
  auto load = [](const T* q) {
    V v;
    std::memcpy(&v, q, sizeof(V));
    return v;
  };
  int64_t j = 0;
  for (; j + kChunk * L <= w; j += kChunk * L) {
    V r[kChunk];
#pragma GCC unroll 8
    for (int c = 0; c < kChunk; ++c) r[c] = load(p + j + c * L);
    if constexpr (HasVopNoNan<Red, V>::value) {
      // Max/Min: one maxps or minps a vector (NaN propagation costs three more ops and mask
      // registers), with x * 0 summed alongside: NaN only where an input is NaN or infinite, and
      // then the leaf runs again with NaN-propagating ops.
      V u[kChunk];
#pragma GCC unroll 8
      for (int c = 0; c < kChunk; ++c) u[c] = r[c] * T(0);
      for (int64_t row = 1; row < R; ++row)
#pragma GCC unroll 8
        for (int c = 0; c < kChunk; ++c) {
          const V x = load(p + row * stride + j + c * L);
          r[c] = Red::vop_no_nan(r[c], x);
          u[c] = x * T(0) + u[c];
        }
      V any = u[0];
#pragma GCC unroll 8
      for (int c = 1; c < kChunk; ++c) any = any + u[c];
      bool finite = true;
      for (int l = 0; l < L; ++l) finite &= any[l] == any[l];
      if (finite) {
        std::memcpy(acc + j, r, sizeof(r));
        continue;
      }
#pragma GCC unroll 8
      for (int c = 0; c < kChunk; ++c) r[c] = load(p + j + c * L);
    }
    for (int64_t row = 1; row < R; ++row)
#pragma GCC unroll 8
      for (int c = 0; c < kChunk; ++c) r[c] = Red::vop(r[c], load(p + row * stride + j + c * L));
    std::memcpy(acc + j, r, sizeof(r));
  }
  for (; j + L <= w; j += L) {
    V r = load(p + j);
    for (int64_t row = 1; row < R; ++row) r = Red::vop(r, load(p + row * stride + j));
    std::memcpy(acc + j, &r, sizeof(r));
  }
  for (; j < w; ++j) {
    T a = p[j];
    for (int64_t row = 1; row < R; ++row) a = Red::op(a, p[row * stride + j]);
    acc[j] = a;
  }
}

// acc[j] = reduce over r < R of p[r * stride + j], j < w <= kColTile; pairwise over rows (halves
// of R / 2 rows above kLeaf rows).
template <class Red, typename In, typename A>
void pairwise_cols(const In* p, int64_t R, int64_t stride, int64_t w, A* acc) {
  if (R <= kLeaf) {
    if (R == 0) {
      for (int64_t j = 0; j < w; ++j) acc[j] = Red::template init<A>();
      return;
    }
    if constexpr (std::is_same_v<In, A> && std::is_floating_point_v<A> && !std::is_same_v<Red, AnyOp> &&
                  !std::is_same_v<Red, AllOp>) {
      return column_leaf_vectors<Red>(p, R, stride, w, acc);
    }
    for (int64_t j = 0; j < w; ++j) acc[j] = static_cast<A>(p[j]);
    for (int64_t r = 1; r < R; ++r) {
      const In* row = p + r * stride;
      for (int64_t j = 0; j < w; ++j) acc[j] = Red::op(acc[j], static_cast<A>(row[j]));
    }
    return;
  }
  const int64_t h = R / 2;
  pairwise_cols<Red, In, A>(p, h, stride, w, acc);
  A tmp[kColTile];
  pairwise_cols<Red, In, A>(p + h * stride, R - h, stride, w, tmp);
  for (int64_t j = 0; j < w; ++j) acc[j] = Red::op(acc[j], tmp[j]);
}

}  // namespace
}  // namespace ef
