// The unary ops' float/double block functions, compiled once per x86 ISA (unary_isa_blocks.cc) and
// chosen at run time by the CPU's features: Eigen picks its packet math when it is compiled, so a
// baseline build (SSE2: 4 float lanes) would never use AVX-512's 16. The eager kernels, the fused
// elementwise kernel and the scalar loop interpreter all call the variant in use, so they agree.
#pragma once
#include <string>

#include "kernels/cpu/elementwise_blocks.h"
#include "ops/unary_op_table.h"

namespace ef {

// Each unary op's position in EF_UNARY_OPS.
enum UnaryOpIndex : int {
#define EF_UNARY_INDEX(NAME, INPUT, TYPES) kUnaryIndex##NAME,
  EF_UNARY_OPS(EF_UNARY_INDEX)
#undef EF_UNARY_INDEX
  kUnaryOpCount
};

// One compiled variant: per op, its block functions over n contiguous elements on one thread (`in`
// may equal `out`). Null where the op has no float form, and in the non-baseline variants for the
// ops whose math is a C-library call per element (the baseline's copy serves them).
struct UnaryIsa {
  const char* name;
  UnaryBlockFn<float> f32[kUnaryOpCount];
  UnaryBlockFn<double> f64[kUnaryOpCount];
};

// The variant in use (every entry set where the baseline's is).
const UnaryIsa& unary_isa();

// Its name: "avx512", "avx2" or "baseline" (the build's own target: SSE2 in pip builds, the build
// machine's CPU in dev builds, which compile no other). set_elementwise_isa("auto") picks the best
// the CPU and build have; one they lack is an InvalidArgument error. Tests compare the variants.
std::string elementwise_isa();
void set_elementwise_isa(const std::string& name);

}  // namespace ef
