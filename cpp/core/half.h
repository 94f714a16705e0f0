// half: IEEE 754 binary16 storage with float arithmetic (TF's float16). Conversions round to
// nearest even; NaN stays NaN (quiet), overflow gives inf. F16C instructions are used when the
// build targets them. Kept free of Eigen so that core headers stay cheap to compile.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/storage_float.h"
#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace ef {

namespace half_impl {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint16_t from_float(float f) {
#if defined(__F16C__)
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
#else
  uint32_t u = float_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  u &= 0x7fffffffu;
  if (u >= 0x47800000u) return static_cast<uint16_t>(sign | (u > 0x7f800000u ? 0x7e00u : 0x7c00u));  // >= 2^16
  if (u < 0x38800000u) {
    // Below the smallest normal half (2^-14): adding 0.5 lines the 10 result bits up at the bottom
    // of the float's mantissa, and the addition itself rounds to nearest even.
    const float aligned = bits_float(u) + 0.5f;
    return static_cast<uint16_t>(sign | (float_bits(aligned) - 0x3f000000u));
  }
  const uint32_t odd = (u >> 13) & 1u;
  u += 0xc8000fffu + odd;  // rebias the exponent (-112 << 23) and round half to even
  return static_cast<uint16_t>(sign | (u >> 13));
#endif
}

inline float to_float(uint16_t h) {
#if defined(__F16C__)
  return _cvtsh_ss(h);
#else
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24, exact in float
    const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return bits_float(float_bits(v) | sign);
  }
  if (exp == 31) return bits_float(sign | 0x7f800000u | (mant << 13));
  return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
#endif
}

}  // namespace half_impl

struct half {
  uint16_t bits;

  half() = default;
  explicit half(float f) : bits(half_impl::from_float(f)) {}
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>>>
  explicit half(T v) : half(static_cast<float>(v)) {}

  static half from_bits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return half_impl::to_float(bits); }
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>>>
  explicit operator T() const {
    return static_cast<T>(static_cast<float>(*this));
  }
};

template <>
struct is_storage_float<half> : std::true_type {};
static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>, "half is 16 bits of storage");

inline bool isnan(half h) { return (h.bits & 0x7fffu) > 0x7c00u; }
inline bool isinf(half h) { return (h.bits & 0x7fffu) == 0x7c00u; }

}  // namespace ef

namespace std {
template <>
class numeric_limits<ef::half> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static ef::half min() { return ef::half::from_bits(0x0400); }
  static ef::half lowest() { return ef::half::from_bits(0xfbff); }
  static ef::half max() { return ef::half::from_bits(0x7bff); }
  static ef::half epsilon() { return ef::half::from_bits(0x1400); }
  static ef::half infinity() { return ef::half::from_bits(0x7c00); }
  static ef::half quiet_NaN() { return ef::half::from_bits(0x7e00); }
  static ef::half denorm_min() { return ef::half::from_bits(0x0001); }
};
}  // namespace std
