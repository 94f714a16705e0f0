// The elementwise ops' float/double block functions compiled once per x86 ISA
// (elementwise_isa_blocks.cc) and chosen at run time by the CPU's features: Eigen picks its packet
// math when it is compiled, and GCC its vector width, so a baseline build (SSE2: 4 float lanes)
// would never use AVX-512's 16. The unary ops' eager kernels, the fused elementwise kernel's steps
// and the scalar loop interpreter all call the variant in use, so they agree bit for bit. The binary
// arithmetic's copies (float, double, int32, int64) serve the fused kernel and, in builds with more
// than the baseline copy (EF_ISA_COPIES), the eager kernels' contiguous runs; the comparisons' copies
// serve the eager kernels only. Each op is one correctly rounded, wrapping or exact operation: the
// same bits on every ISA. (The avx512 copy's loops that GCC vectorizes itself use 256-bit vectors:
// EAGERFLOW_AVX512_SAFE in CMakeLists.txt.)
#pragma once
#include <string>
#include <type_traits>

#include "kernels/cpu/elementwise_blocks.h"
#include "ops/unary_op_table.h"

// The binary ops with copies: the fused chains' arithmetic (functors of binary_functors.h) and the
// comparisons (compare_functors.h; bool out). Integer division has none (no vector instruction
// divides integers): its entries are null.
#define EF_ISA_BINARY_OPS(X) X(AddV2) X(Sub) X(Mul) X(RealDiv) X(Maximum) X(Minimum) X(SquaredDifference)
#define EF_ISA_COMPARE_OPS(X) X(Less) X(LessEqual) X(Greater) X(GreaterEqual) X(Equal) X(NotEqual)
// The binary float math with copies (float32 only): vector code where the C library computes one
// element at a time (pow_f32.h: within 0.503 ulp, the same bits in every copy).
#define EF_ISA_FLOAT_MATH_OPS(X) X(Pow)

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
enum IsaCompareOpIndex : int {
#define EF_COMPARE_INDEX(NAME) kIsaCompareIndex##NAME,
  EF_ISA_COMPARE_OPS(EF_COMPARE_INDEX)
#undef EF_COMPARE_INDEX
  kIsaCompareOpCount
};
enum IsaFloatMathOpIndex : int {
#define EF_FLOAT_MATH_INDEX(NAME) kIsaFloatMathIndex##NAME,
  EF_ISA_FLOAT_MATH_OPS(EF_FLOAT_MATH_INDEX)
#undef EF_FLOAT_MATH_INDEX
  kIsaFloatMathOpCount
};

// Per op of a list of N binary ops over n contiguous elements: out[i] = F(a[i], b[i]), F(a, b[i])
// and F(a[i], b) (one operand a broadcast scalar).
template <class T, class O, int N>
struct IsaBinaryForms {
  void (*both[N])(const T* a, const T* b, O* out, int64_t n);
  void (*scalar_left[N])(T a, const T* b, O* out, int64_t n);
  void (*scalar_right[N])(const T* a, T b, O* out, int64_t n);
};
template <class T>
using IsaBinaryBlocks = IsaBinaryForms<T, T, kIsaBinaryOpCount>;
template <class T>
using IsaCompareBlocks = IsaBinaryForms<T, bool, kIsaCompareOpCount>;

// One compiled variant: per op, its block functions over n contiguous elements on one thread (`in`
// may equal `out`). Null where a unary op has no float form, and in the non-baseline variants for
// the ops whose math is a C-library call per element (the baseline's copy serves them).
// A variant's binary blocks for one dtype.
template <class T>
struct IsaTypedBlocks {
  IsaBinaryBlocks<T> binary;
  IsaCompareBlocks<T> compare;
};

struct IsaBlocks {
  const char* name;
  UnaryBlockFn<float> f32[kUnaryOpCount];
  UnaryBlockFn<double> f64[kUnaryOpCount];
  IsaTypedBlocks<float> t_f32;
  IsaTypedBlocks<double> t_f64;
  IsaTypedBlocks<int32_t> t_i32;
  IsaTypedBlocks<int64_t> t_i64;
  IsaBinaryForms<float, float, kIsaFloatMathOpCount> f32_math;
};

// The variant in use (every entry set where the baseline's is).
const IsaBlocks& isa_blocks();

// Its name: "avx512", "avx2" or "baseline" (the build's own target: SSE2 in pip builds, the build
// machine's CPU in dev builds, which compile no other). set_elementwise_isa("auto") picks the best
// the CPU and build have; one they lack is an InvalidArgument error. Tests compare the variants.
std::string elementwise_isa();
void set_elementwise_isa(const std::string& name);

// The dtypes with binary copies.
template <class T>
constexpr bool kIsaBinaryType = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

// The binary and comparison blocks of the variant in use for T (one of kIsaBinaryType).
template <class T>
const IsaTypedBlocks<T>& isa_typed_blocks() {
  const IsaBlocks& b = isa_blocks();
  if constexpr (std::is_same_v<T, float>) {
    return b.t_f32;
  } else if constexpr (std::is_same_v<T, double>) {
    return b.t_f64;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return b.t_i32;
  } else {
    return b.t_i64;
  }
}

// Binary op I's block function in the variant in use.
template <int I, class T>
void isa_binary_block(const T* a, const T* b, T* out, int64_t n) {
  isa_typed_blocks<T>().binary.both[I](a, b, out, n);
}

// Float math op I on one element pair, as the variant in use computes it in a block (the scalar
// steps and strided runs use it: the same bits as the eager kernel's contiguous runs).
template <int I>
float isa_float_math(float a, float b) {
  float out;
  isa_blocks().f32_math.both[I](&a, &b, &out, 1);
  return out;
}

}  // namespace ef
