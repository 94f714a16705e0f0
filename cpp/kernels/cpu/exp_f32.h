// float exp over whole vectors for the per-ISA copies (elementwise_isa_blocks.cc), in place of
// Eigen 3.4's: below AVX-512 Eigen scales by 2^m with its generic ldexp (four multiplies and clamps
// per vector: Exp and Sigmoid twice as slow per element on AVX2 as on AVX-512), and its AVX-512 exp
// is up to 4.4 ulp off (TF's kernels: 1.25). This one builds 2^m from the exponent bits.
//
// Valid where exp_safe(x) (|x| <= 87: the result and 2^m are normal numbers); the callers fix up the
// other lanes with the C library's exp. Error: the reduction r = x - m ln2 (ln2 in two parts; m
// ln2_hi is exact for |m| <= 2^15) and Taylor's series to degree 7 on |r| <= ln2 / 2 (truncation
// under 0.1 ulp); within 1 ulp of the correctly rounded result. File-local, like the rest of each
// copy: every variant compiles its own.
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/cpu/vector_width.h"

namespace ef {
namespace {

template <int Bytes>
struct ExpF32 {
  typedef float VF __attribute__((vector_size(Bytes)));
  typedef uint32_t VU __attribute__((vector_size(Bytes)));
  static constexpr int kLanes = Bytes / 4;

  static VF run(VF x) {
    // Adding 1.5 * 2^23 rounds x log2(e) to the nearest integer m, which the sum's low mantissa
    // bits then hold.
    const VF magic = VF{} + 12582912.0f;
    const VF t = x * 1.44269504088896341f + magic;
    const VF m = t - magic;
    // Unsigned: lanes outside the domain wrap (the caller replaces them) instead of overflowing.
    const VU e = (((VU)t - (VU)magic) + 127u) << 23;  // a vector cast keeps the bits
    VF r = x - m * 0.693359375f;
    r = r + m * 2.12194440e-4f;
    VF p = VF{} + 1.0f / 5040;
    p = p * r + 1.0f / 720;
    p = p * r + 1.0f / 120;
    p = p * r + 1.0f / 24;
    p = p * r + 1.0f / 6;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * (VF)e;
  }
};

// out[i] = exp(arg(in[i])) for n floats (arg: on a vector); lanes where exp_safe(arg(x)) fails hold garbage (the
// caller's fixup pass replaces them). The tail goes through a padded vector: every element gets
// the same bits wherever a block starts.
template <int Bytes, class Arg>
void exp_f32_block(const float* in, float* out, int64_t n, Arg arg) {
  using E = ExpF32<Bytes>;
  typename E::VF v;
  int64_t i = 0;
  for (; i + E::kLanes <= n; i += E::kLanes) {
    std::memcpy(&v, in + i, sizeof(v));
    v = E::run(arg(v));
    std::memcpy(out + i, &v, sizeof(v));
  }
  if (i < n) {
    v = typename E::VF{};
    std::memcpy(&v, in + i, sizeof(float) * static_cast<size_t>(n - i));
    v = E::run(arg(v));
    std::memcpy(out + i, &v, sizeof(float) * static_cast<size_t>(n - i));
  }
}

}  // namespace
}  // namespace ef
