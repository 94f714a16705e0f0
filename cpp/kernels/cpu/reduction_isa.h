// The float/double reduction leaves compiled once per x86 ISA (reduction_isa_leaves.cc, the trees
// of reduction_leaves.h and the argmax pass of reduction_kernels.h), in the variant that
// elementwise_isa.h picks for the elementwise blocks: GCC fixes a generic vector's width when it
// compiles, so a baseline build (SSE2) would reduce 4 float lanes at a time on any CPU. Every
// variant follows the same tree, lane for lane: the same bits.
#pragma once
#include <cstdint>
#include <type_traits>

namespace ef {

enum IsaReduceOp : int { kIsaReduceSum, kIsaReduceProd, kIsaReduceMax, kIsaReduceMin, kIsaReduceOpCount };

template <class T>
struct IsaReduceLeaves {
  // The op over p[0..n) along the pairwise tree.
  T (*contig[kIsaReduceOpCount])(const T* p, int64_t n);
  // acc[j] = the op over r < rows of p[r * stride + j], j < w <= 256.
  void (*cols[kIsaReduceOpCount])(const T* p, int64_t rows, int64_t stride, int64_t w, T* acc);
  // The first index of the min ([0]) or max ([1]) of p[0..n), n >= 64; NaN never wins, 0 when
  // nothing beats -inf (max) or +inf (min).
  int64_t (*first_extreme[2])(const T* p, int64_t n);
};

// One compiled variant's leaves (named like its IsaBlocks).
struct IsaReductions {
  const char* name;
  IsaReduceLeaves<float> f32;
  IsaReduceLeaves<double> f64;
};

// The variant in use: elementwise_isa() names it, set_elementwise_isa() switches it with the
// elementwise blocks.
const IsaReductions& isa_reductions();

template <class T>
const IsaReduceLeaves<T>& isa_reduce_leaves() {
  if constexpr (std::is_same_v<T, float>) {
    return isa_reductions().f32;
  } else {
    return isa_reductions().f64;
  }
}

}  // namespace ef
