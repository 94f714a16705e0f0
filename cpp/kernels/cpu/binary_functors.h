// The per-element math of the binary ops of ops/binary_op_table.h, one struct per op named as the
// op: `T operator()(T a, T b)` for every dtype of the op's kernel set. Integer arithmetic wraps
// (wrapping.h) and follows Python's floor semantics; kIntDivisor: integer inputs are checked for
// zero divisors first (TF's "Integer division by zero").
#pragma once
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "core/dtype.h"
#include "kernels/cpu/special_functions.h"
#include "kernels/cpu/wrapping.h"

namespace ef {
namespace binary_functors {

template <typename T>
inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) return ef::isnan(v);
  else return false;
}

// half and bfloat16 are computed in float (and rounded to nearest even once).
template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;
template <typename T, class F>
inline T via(T a, T b, F f) {
  return static_cast<T>(f(static_cast<Compute<T>>(a), static_cast<Compute<T>>(b)));
}

template <typename T>
inline T floor_div(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(a));
      T q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return a / b;
    }
  } else {
    // floor(x / y) with the quotient rounded to T first, as TF computes it (1.f // 0.1f is 10).
    return via(a, b, [](auto x, auto y) { return std::floor(x / y); });
  }
}

template <typename T>
inline T floor_mod(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return 0;
      T r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    } else {
      return a % b;
    }
  } else {
    return via(a, b, [](auto x, auto y) {
      auto r = std::fmod(x, y);
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return r;
    });
  }
}

// Shifts: the count is clamped to [0, bits - 1] as TF does (1 << 40 is INT_MIN for int32,
// x >> -1 is x), so no shift is undefined.
template <typename T>
inline int shift_count(T b) {
  constexpr T kMax = T(sizeof(T) * 8 - 1);
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return 0;
  }
  return static_cast<int>(b > kMax ? kMax : b);
}

#define EF_BINARY_FUNCTOR(NAME, DIVISOR, EXPR)    \
  struct NAME {                                   \
    static constexpr bool kIntDivisor = DIVISOR;  \
    template <class T>                            \
    T operator()(T a, T b) const { return EXPR; } \
  };

// AddV2 of numbers (binary.cc adds strings itself).
EF_BINARY_FUNCTOR(AddV2, false, wrap_add(a, b))
EF_BINARY_FUNCTOR(Sub, false, wrap_sub(a, b))
EF_BINARY_FUNCTOR(Mul, false, wrap_mul(a, b))
// Integer RealDiv floors, as TF's integer division does.
EF_BINARY_FUNCTOR(RealDiv, true, [&] {
  if constexpr (std::is_integral_v<T>) return floor_div(a, b);
  else return static_cast<T>(a / b);
}())
EF_BINARY_FUNCTOR(FloorDiv, true, floor_div(a, b))
EF_BINARY_FUNCTOR(FloorMod, true, floor_mod(a, b))
// C's truncating division and remainder (INT_MIN / -1 wraps, % -1 is 0).
EF_BINARY_FUNCTOR(TruncateDiv, true, [&] {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      if (b == -1) return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(a));
    }
    return static_cast<T>(a / b);
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return a / b;
  } else {
    return via(a, b, [](auto x, auto y) { return std::trunc(x / y); });
  }
}())
EF_BINARY_FUNCTOR(TruncateMod, true, [&] {
  if constexpr (std::is_integral_v<T>) return b == -1 ? T(0) : static_cast<T>(a % b);
  else return via(a, b, [](auto x, auto y) { return std::fmod(x, y); });
}())
EF_BINARY_FUNCTOR(Maximum, false, (is_nan(a) || a > b) ? a : b)
EF_BINARY_FUNCTOR(Minimum, false, (is_nan(a) || a < b) ? a : b)
// Complex: (x - y) * conj(x - y), a real value stored as complex, as TF defines it.
EF_BINARY_FUNCTOR(SquaredDifference, false, [&] {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    const T d = a - b;
    return d * std::conj(d);
  } else {
    return wrap_mul(wrap_sub(a, b), wrap_sub(a, b));
  }
}())
EF_BINARY_FUNCTOR(Atan2, false, via(a, b, [](auto y, auto x) { return std::atan2(y, x); }))
// x / y and x * y, 0 where y is 0 (even when x is NaN or inf), as TF.
EF_BINARY_FUNCTOR(DivNoNan, false, b == T(0) ? T(0) : static_cast<T>(a / b))
EF_BINARY_FUNCTOR(MulNoNan, false, b == T(0) ? T(0) : static_cast<T>(a * b))
// x * log(y) and x / y, 0 where x is 0 (also when y is 0 or NaN), as TF.
EF_BINARY_FUNCTOR(Xlogy, false, a == T(0) ? T(0) : via(a, b, [](auto x, auto y) { return x * std::log(y); }))
EF_BINARY_FUNCTOR(Xdivy, false, a == T(0) ? T(0) : via(a, b, [](auto x, auto y) { return x / y; }))
struct NextAfter {
  static constexpr bool kIntDivisor = false;
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, half>) {
      // The next half, stepping the bits (half has no C library nextafter).
      if (is_nan(a) || is_nan(b)) return T(std::numeric_limits<float>::quiet_NaN());
      const float x = static_cast<float>(a);
      const float y = static_cast<float>(b);
      if (x == y) return b;
      if (x == 0) return half::from_bits(static_cast<uint16_t>(y > 0 ? 1 : 0x8001));
      const uint16_t bits = a.bits;
      return half::from_bits(static_cast<uint16_t>(((x < y) == (x > 0)) ? bits + 1 : bits - 1));
    } else {
      return std::nextafter(a, b);
    }
  }
};
EF_BINARY_FUNCTOR(Zeta, false, via(a, b, [](auto x, auto q) { return special::zeta(x, q); }))
EF_BINARY_FUNCTOR(Polygamma, false, via(a, b, [](auto n, auto x) { return special::polygamma(n, x); }))
EF_BINARY_FUNCTOR(BitwiseAnd, false, static_cast<T>(a & b))
EF_BINARY_FUNCTOR(BitwiseOr, false, static_cast<T>(a | b))
EF_BINARY_FUNCTOR(BitwiseXor, false, static_cast<T>(a ^ b))
EF_BINARY_FUNCTOR(LeftShift, false,
                  static_cast<T>(static_cast<WideUnsigned<T>>(static_cast<Unsigned<T>>(a)) << shift_count(b)))
EF_BINARY_FUNCTOR(RightShift, false, static_cast<T>(a >> shift_count(b)))
#undef EF_BINARY_FUNCTOR

}  // namespace binary_functors
}  // namespace ef
