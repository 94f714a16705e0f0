// float pow over whole vectors for the per-ISA copies (elementwise_isa_blocks.cc), in place of a C
// library call per element (NumPy's AVX-512 power is SVML's, 3-4x glibc's powf). Every copy runs
// the same double operations, so they agree bit for bit (FMA only moves the double result by an ulp
// of a double, which its rounding to float absorbs); SSE2's two-double registers make the SSE2 copy
// 2x slower than powf, which is the price of the same bits on every machine.
//
// x^y = exp(y ln x) in double lanes: ln |x| = k ln2 + ln m with |x| = 2^k m, m in [sqrt(1/2), sqrt(2)),
// and ln m = 2 atanh(s) = 2s + 2s^3 Q(s^2), s = (m - 1) / (m + 1), |s| <= 0.172 (Q: a near-minimax
// cubic, relative error 4.8e-12); t = y ln|x| clamped to [-200, 200] (beyond, the float result is 0
// or inf whatever t is); exp(t) = 2^n exp(r), r = t - n ln2 (ln2 in two parts, n ln2_hi exact),
// |r| <= ln2 / 2, exp(r) = 1 + r + r^2 q(r) (q: a near-minimax quintic, relative error 5.2e-11). The
// double result, within 6e-10 of x^y relatively, is rounded to float once: the float result is
// within 0.503 ulp (exact powers such as 3^2 come out exact), and double has the range for every
// float x^y before it rounds (overflow to inf, gradual underflow). x < 0 with an integer y is
// (-1)^y |x|^y.
//
// Computed here: x a normal float (finite, nonzero, not subnormal), y finite, y an integer where
// x < 0. The other lanes (zeros, infinities, NaN, subnormals, a negative base to a fractional
// power) go to powf, lane by lane, in the same pass; y = 2 is x * x (correctly rounded). Each
// element's bits depend on it alone, wherever a block starts. File-local, like the rest of each copy.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace ef {
namespace {

#if defined(__SSE2__)
struct PowF32 {
#if defined(__AVX512F__)
  static constexpr int kBytes = 64;
#elif defined(__AVX__)
  static constexpr int kBytes = 32;
#else
  static constexpr int kBytes = 16;
#endif
  typedef float VF __attribute__((vector_size(kBytes)));
  typedef int32_t VI __attribute__((vector_size(kBytes)));
  typedef uint32_t VU __attribute__((vector_size(kBytes)));
  typedef double VD __attribute__((vector_size(kBytes)));
  typedef int64_t VL __attribute__((vector_size(kBytes)));
  static constexpr int kLanes = kBytes / 4;

  // Each half of a float or int32 vector widened to double, and two double vectors narrowed to
  // one float vector (GCC's __builtin_convertvector splits these into many small steps).
#if defined(__AVX512F__)
  static VD lo(VF v) { return (VD)_mm512_cvtps_pd(_mm512_castps512_ps256((__m512)v)); }
  static VD hi(VF v) { return (VD)_mm512_cvtps_pd((__m256)_mm512_extractf64x4_pd((__m512d)v, 1)); }
  static VD lo(VI v) { return (VD)_mm512_cvtepi32_pd(_mm512_castsi512_si256((__m512i)v)); }
  static VD hi(VI v) { return (VD)_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64((__m512i)v, 1)); }
  static VF join(VD a, VD b) {
    const __m256 l = _mm512_cvtpd_ps((__m512d)a), h = _mm512_cvtpd_ps((__m512d)b);
    return (VF)_mm512_insertf64x4(_mm512_castpd256_pd512((__m256d)l), (__m256d)h, 1);
  }
#elif defined(__AVX__)
  static VD lo(VF v) { return (VD)_mm256_cvtps_pd(_mm256_castps256_ps128((__m256)v)); }
  static VD hi(VF v) { return (VD)_mm256_cvtps_pd(_mm256_extractf128_ps((__m256)v, 1)); }
  static VD lo(VI v) { return (VD)_mm256_cvtepi32_pd(_mm256_castsi256_si128((__m256i)v)); }
  static VD hi(VI v) { return (VD)_mm256_cvtepi32_pd(_mm256_extractf128_si256((__m256i)v, 1)); }
  static VF join(VD a, VD b) {
    return (VF)_mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps((__m256d)a)), _mm256_cvtpd_ps((__m256d)b), 1);
  }
#else
  static VD lo(VF v) { return (VD)_mm_cvtps_pd((__m128)v); }
  static VD hi(VF v) { return (VD)_mm_cvtps_pd(_mm_movehl_ps((__m128)v, (__m128)v)); }
  static VD lo(VI v) { return (VD)_mm_cvtepi32_pd((__m128i)v); }
  static VD hi(VI v) { return (VD)_mm_cvtepi32_pd(_mm_shuffle_epi32((__m128i)v, 0xee)); }
  static VF join(VD a, VD b) { return (VF)_mm_movelh_ps(_mm_cvtpd_ps((__m128d)a), _mm_cvtpd_ps((__m128d)b)); }
#endif

  // The lanes this computes (-1) and those left to powf (0); `odd`: y an odd integer (1).
  static VI computed(VU xb, VU yb, VU& odd) {
    const VU ax = xb & 0x7fffffffu, ay = yb & 0x7fffffffu;
    const VU big = (VU)(ay >= 0x4b800000u);  // |y| >= 2^24: an even integer
    const VF yc = (VF)(ay & ~big);
    const VI yi = __builtin_convertvector(yc, VI);  // |y| truncated (exact below 2^24)
    const VI integer = (VI)big | (__builtin_convertvector(yi, VF) == yc);
    odd = (VU)(yi & 1) & ~big;
    const VI normal_x = (VI)(ax >= 0x00800000u) & (VI)(ax < 0x7f800000u);
    const VI finite_y = (VI)(ay < 0x7f800000u);
    const VI positive = (VI)(xb < 0x80000000u);
    return normal_x & finite_y & (positive | integer);
  }

  // exp(y ln(2^k m)) in double lanes.
  static VD pow_m(VD m, VD k, VD y) {
    const VD s = (m - 1.0) / (m + 1.0);
    const VD s2 = s * s;
    VD q = VD{} + 0.11791081357443962;
    q = q * s2 + 0.14268653923207872;
    q = q * s2 + 0.2000016760205214;
    q = q * s2 + 0.3333333282269018;
    const VD two_s = s + s;
    VD t = y * (k * 0.69314718055994530942 + (two_s + two_s * (q * s2)));
    t = t > -200.0 ? t : -200.0;  // the forms of maxpd and minpd
    t = t < 200.0 ? t : 200.0;
    // t = n ln2 + r: adding 1.5 * 2^52 rounds n to an integer, which the sum's low bits then hold.
    const VD magic = VD{} + 6755399441055744.0;
    const VD tn = t * 1.4426950408889634074 + magic;
    const VD n = tn - magic;
    VD r = t - n * 6.93147180369123816490e-01;  // ln2's high 32 bits: exact for |n| < 2^21
    r = r - n * 1.90821492927058770002e-10;
    VD p = VD{} + 0.00019790371989065526;
    p = p * r + 0.0013944651144218543;
    p = p * r + 0.008333496986029146;
    p = p * r + 0.04166629505158494;
    p = p * r + 0.16666665869422723;
    p = p * r + 0.5000000067657578;
    p = (r * r) * p + r + 1.0;
    const VL scale = (((VL)tn - (VL)magic) + 1023) << 52;  // the bits of 2^n
    return p * (VD)scale;
  }

  // |x|^y, signed by (-1)^y for x < 0, in the lanes `done` marks.
  static VF run(VF x, VF y, VI& done) {
    const VU xb = (VU)x, yb = (VU)y;
    VU odd;
    done = computed(xb, yb, odd);
    const VU ax = xb & 0x7fffffffu;
    // |x| = 2^k m: subtracting sqrt(1/2)'s bits leaves k in the exponent field.
    const VI k = (VI)(ax - 0x3f3504f3u) >> 23;
    const VF m = (VF)(ax - ((VU)k << 23));
    const VF z = join(pow_m(lo(m), lo(k), lo(y)), pow_m(hi(m), hi(k), hi(y)));
    return (VF)((VU)z | ((odd & (xb >> 31)) << 31));
  }

  static bool any_left(VI done) {
    uint64_t w[kBytes / 8], acc = 0;
    std::memcpy(w, &done, sizeof(w));
    for (int i = 0; i < kBytes / 8; ++i) acc |= ~w[i];
    return acc != 0;
  }


  // z = pow(x, y) in every lane: run's, powf's where it computes none, and x * x where y is 2 (the
  // correctly rounded square, for every x: `x ** 2` is the common case).
  static VF step(VF x, VF y) {
    VI done;
    VF z = run(x, y, done);
    if (__builtin_expect(any_left(done), 0)) fix(x, y, done, z);
    return y == 2.0f ? x * x : z;
  }
  __attribute__((noinline)) static void fix(VF x, VF y, VI done, VF& z) {
    for (int l = 0; l < kLanes; ++l)
      if (!done[l]) z[l] = std::pow(x[l], y[l]);
  }
};

// out[i] = pow(a[i], b[i]) for n elements; ScalarA / ScalarB: that operand is one value (a[0], b[0])
// for every element. `out` may be `a` or `b`. The tail goes through a vector padded with 1^1.
template <bool ScalarA, bool ScalarB>
void pow_f32_block(const float* a, const float* b, float* out, int64_t n) {
  using VF = PowF32::VF;
  constexpr int L = PowF32::kLanes;
  if (ScalarB && b[0] == 2.0f) {  // step's square, without the rest
    for (int64_t i = 0; i < n; ++i) out[i] = a[ScalarA ? 0 : i] * a[ScalarA ? 0 : i];
    return;
  }
  VF x = VF{} + a[0], y = VF{} + b[0], z;
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    if (!ScalarA) std::memcpy(&x, a + i, sizeof(x));
    if (!ScalarB) std::memcpy(&y, b + i, sizeof(y));
    z = PowF32::step(x, y);
    std::memcpy(out + i, &z, sizeof(z));
  }
  if (i < n) {
    const size_t rest = sizeof(float) * static_cast<size_t>(n - i);
    if (!ScalarA) x = VF{} + 1.0f, std::memcpy(&x, a + i, rest);
    if (!ScalarB) y = VF{} + 1.0f, std::memcpy(&y, b + i, rest);
    z = PowF32::step(x, y);
    std::memcpy(out + i, &z, rest);
  }
}
#else
template <bool ScalarA, bool ScalarB>
void pow_f32_block(const float* a, const float* b, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float x = a[ScalarA ? 0 : i], y = b[ScalarB ? 0 : i];
    out[i] = y == 2.0f ? x * x : std::pow(x, y);
  }
}
#endif

}  // namespace
}  // namespace ef
