// bfloat16: the top 16 bits of an IEEE float32 (TF's bfloat16), with float arithmetic.
// Conversions from float round to nearest even, as Eigen's (so TF's) do; NaN stays a quiet NaN.
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "core/storage_float.h"

namespace ef {

struct bfloat16 {
  uint16_t bits;

  bfloat16() = default;
  explicit bfloat16(float f) : bits(from_float(f)) {}
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>>>
  explicit bfloat16(T v) : bfloat16(static_cast<float>(v)) {}

  static bfloat16 from_bits(uint16_t b) {
    bfloat16 h;
    h.bits = b;
    return h;
  }
  static uint16_t from_float(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
  }
  explicit operator float() const {
    const uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>>>
  explicit operator T() const {
    return static_cast<T>(static_cast<float>(*this));
  }
};

template <>
struct is_storage_float<bfloat16> : std::true_type {};
static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>, "bfloat16 is 16 bits of storage");

inline bool isnan(bfloat16 h) { return (h.bits & 0x7fffu) > 0x7f80u; }
inline bool isinf(bfloat16 h) { return (h.bits & 0x7fffu) == 0x7f80u; }

}  // namespace ef

namespace std {
template <>
class numeric_limits<ef::bfloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static ef::bfloat16 min() { return ef::bfloat16::from_bits(0x0080); }
  static ef::bfloat16 lowest() { return ef::bfloat16::from_bits(0xff7f); }
  static ef::bfloat16 max() { return ef::bfloat16::from_bits(0x7f7f); }
  static ef::bfloat16 epsilon() { return ef::bfloat16::from_bits(0x3c00); }
  static ef::bfloat16 infinity() { return ef::bfloat16::from_bits(0x7f80); }
  static ef::bfloat16 quiet_NaN() { return ef::bfloat16::from_bits(0x7fc0); }
  static ef::bfloat16 denorm_min() { return ef::bfloat16::from_bits(0x0001); }
};
}  // namespace std
