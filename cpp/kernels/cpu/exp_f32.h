// float exp (and expm1, below) over whole vectors for the per-ISA copies (elementwise_isa_blocks.cc),
// in place of Eigen 3.4's: below AVX-512 Eigen scales by 2^m with its generic ldexp (four multiplies and clamps
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

  // x = m ln2 + r: m = x log2(e) rounded to an integer, e = the bits of 2^m. Adding 1.5 * 2^23
  // rounds to the integer, which the sum's low mantissa bits then hold.
  static void split(VF x, VF& m, VU& e) {
    const VF magic = VF{} + 12582912.0f;
    const VF t = x * 1.44269504088896341f + magic;
    m = t - magic;
    // Unsigned: lanes outside the domain wrap (the caller replaces them) instead of overflowing.
    e = (((VU)t - (VU)magic) + 127u) << 23;  // a vector cast keeps the bits
  }
  // (exp(r) - 1 - r) / r^2 by Taylor's series: 1/2 + r/6 + ... + r^5/5040.
  static VF tail(VF r) {
    VF q = VF{} + 1.0f / 5040;
    q = q * r + 1.0f / 720;
    q = q * r + 1.0f / 120;
    q = q * r + 1.0f / 24;
    q = q * r + 1.0f / 6;
    return q * r + 0.5f;
  }

  static VF run(VF x) {
    VF m;
    VU e;
    split(x, m, e);
    VF r = x - m * 0.693359375f;
    r = r + m * 2.12194440e-4f;
    VF p = tail(r);
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * (VF)e;
  }
};

// expm1 over whole vectors, valid where exp_safe(x) as ExpF32 (Eigen 3.4's expm1 is an exp and a log
// per element, Kahan's formula: 5-7x the cost of exp). With x = m ln2 + r: expm1(x) = 2^m expm1(r) +
// (2^m - 1), expm1(r) = r + r^2 tail(r) (Taylor's series to degree 7: truncation under 0.1 ulp), and
// 2^m - 1 exact for the |m| <= 24 where it is not absorbed. m = 0 (|x| < ln2 / 2) returns
// expm1(r) itself: no cancellation near 0. Under 1 ulp with FMA (0.97 measured), within 1.5 on SSE2;
// the sign of x is kept on the result (expm1(-0) is -0).
template <int Bytes>
struct Expm1F32 {
  using VF = typename ExpF32<Bytes>::VF;
  using VU = typename ExpF32<Bytes>::VU;
  static constexpr int kLanes = Bytes / 4;
  static VF run(VF x) {
    using E = ExpF32<Bytes>;
    VF m;
    VU e;
    E::split(x, m, e);
    const VF r_hi = x - m * 0.693359375f;  // exact
    const VF r_lo = m * 2.12194440e-4f;
    const VF r = r_hi + r_lo;
    const VF s = (VF)e;
    const VF rest = r_lo + (r * r) * E::tail(r);
    // m > 0: 2^m r_hi + (2^m - 1) in one rounding, then the small rest (r's rounding, scaled up by
    // 2^m, never enters). m <= 0: 2^m expm1(r) + (2^m - 1), where the scaling shrinks that error.
    const VF up = (s * r_hi + (s - 1.0f)) + s * rest;
    const VF down = s * (r_hi + rest) + (s - 1.0f);
    const VF y = m > 0.0f ? up : down;
    return (VF)((VU)y | ((VU)x & 0x80000000u));
  }
};

// out[i] = F::run(arg(in[i])) for n floats (F: ExpF32 or Expm1F32 of one width; arg: on a vector);
// lanes where exp_safe(arg(x)) fails hold garbage (the caller's fixup pass replaces them). The
// tail goes through a padded vector: every element gets the same bits wherever a block starts.
template <class F, class Arg>
void f32_block(const float* in, float* out, int64_t n, Arg arg) {
  typename F::VF v;
  int64_t i = 0;
  for (; i + F::kLanes <= n; i += F::kLanes) {
    std::memcpy(&v, in + i, sizeof(v));
    v = F::run(arg(v));
    std::memcpy(out + i, &v, sizeof(v));
  }
  if (i < n) {
    v = typename F::VF{};
    std::memcpy(&v, in + i, sizeof(float) * static_cast<size_t>(n - i));
    v = F::run(arg(v));
    std::memcpy(out + i, &v, sizeof(float) * static_cast<size_t>(n - i));
  }
}

template <int Bytes, class Arg>
void exp_f32_block(const float* in, float* out, int64_t n, Arg arg) {
  f32_block<ExpF32<Bytes>>(in, out, n, arg);
}

template <int Bytes, class Arg>
void expm1_f32_block(const float* in, float* out, int64_t n, Arg arg) {
  f32_block<Expm1F32<Bytes>>(in, out, n, arg);
}

}  // namespace
}  // namespace ef
