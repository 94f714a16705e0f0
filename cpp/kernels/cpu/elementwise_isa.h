// The elementwise ops' float/double block functions compiled once per x86 ISA
// (elementwise_isa_blocks.cc) and chosen at run time by the CPU's features: Eigen picks its packet
// math when it is compiled, and GCC its vector width, so a baseline build (SSE2: 4 float lanes)
// would never use AVX-512's 16. The unary ops' eager kernels, the fused elementwise kernel's steps
// and the scalar loop interpreter all call the variant in use, so they agree bit for bit. The binary
// ops' copies serve the fused kernel only (their eager kernels broadcast; each op is one correctly
// rounded operation, the same bits on every ISA).
#pragma once
#include <string>
#include <type_traits>

#include "kernels/cpu/elementwise_blocks.h"
#include "ops/unary_op_table.h"

// The binary ops with copies: the fused chains' arithmetic (functors of binary_functors.h).
#define EF_ISA_BINARY_OPS(X) X(AddV2) X(Sub) X(Mul) X(RealDiv) X(Maximum) X(Minimum) X(SquaredDifference)

namespace ef {

// Each unary op's position in EF_UNARY_OPS, each binary op's in EF_ISA_BINARY_OPS.
enum UnaryOpIndex : int {
#define EF_UNARY_INDEX(NAME, INPUT, TYPES) kUnaryIndex##NAME,
  EF_UNARY_OPS(EF_UNARY_INDEX)
#undef EF_UNARY_INDEX
  kUnaryOpCount
};
enum IsaBinaryOpIndex : int {
#define EF_BINARY_INDEX(NAME) kIsaBinaryIndex##NAME,
  EF_ISA_BINARY_OPS(EF_BINARY_INDEX)
#undef EF_BINARY_INDEX
  kIsaBinaryOpCount
};

// One compiled variant: per op, its block functions over n contiguous elements on one thread (`in`
// may equal `out`). Null where a unary op has no float form, and in the non-baseline variants for
// the ops whose math is a C-library call per element (the baseline's copy serves them).
struct IsaBlocks {
  const char* name;
  UnaryBlockFn<float> f32[kUnaryOpCount];
  UnaryBlockFn<double> f64[kUnaryOpCount];
  BinaryBlockFn<float> binary_f32[kIsaBinaryOpCount];
  BinaryBlockFn<double> binary_f64[kIsaBinaryOpCount];
};

// The variant in use (every entry set where the baseline's is).
const IsaBlocks& isa_blocks();

// Its name: "avx512", "avx2" or "baseline" (the build's own target: SSE2 in pip builds, the build
// machine's CPU in dev builds, which compile no other). set_elementwise_isa("auto") picks the best
// the CPU and build have; one they lack is an InvalidArgument error. Tests compare the variants.
std::string elementwise_isa();
void set_elementwise_isa(const std::string& name);

// Binary op I's block function in the variant in use (T: float or double).
template <int I, class T>
void isa_binary_block(const T* a, const T* b, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    isa_blocks().binary_f32[I](a, b, out, n);
  } else {
    isa_blocks().binary_f64[I](a, b, out, n);
  }
}

}  // namespace ef
