// Arithmetic and comparisons of the 16-bit float storage types (half, bfloat16): each op computes
// in float and rounds back, and negation flips the sign bit. A type opts in by specialising
// is_storage_float; it provides from_bits and explicit conversions to and from float.
#pragma once
#include <cstdint>
#include <type_traits>

namespace ef {

template <class T>
struct is_storage_float : std::false_type {};

template <class T, class R = T>
using if_storage_float = std::enable_if_t<is_storage_float<T>::value, R>;

template <class T>
inline if_storage_float<T> operator+(T a, T b) { return T(float(a) + float(b)); }
template <class T>
inline if_storage_float<T> operator-(T a, T b) { return T(float(a) - float(b)); }
template <class T>
inline if_storage_float<T> operator*(T a, T b) { return T(float(a) * float(b)); }
template <class T>
inline if_storage_float<T> operator/(T a, T b) { return T(float(a) / float(b)); }
template <class T>
inline if_storage_float<T> operator-(T a) { return T::from_bits(static_cast<uint16_t>(a.bits ^ 0x8000u)); }

template <class T>
inline if_storage_float<T, T&> operator+=(T& a, T b) { return a = a + b; }
template <class T>
inline if_storage_float<T, T&> operator-=(T& a, T b) { return a = a - b; }
template <class T>
inline if_storage_float<T, T&> operator*=(T& a, T b) { return a = a * b; }
template <class T>
inline if_storage_float<T, T&> operator/=(T& a, T b) { return a = a / b; }

template <class T>
inline if_storage_float<T, bool> operator==(T a, T b) { return float(a) == float(b); }
template <class T>
inline if_storage_float<T, bool> operator!=(T a, T b) { return float(a) != float(b); }
template <class T>
inline if_storage_float<T, bool> operator<(T a, T b) { return float(a) < float(b); }
template <class T>
inline if_storage_float<T, bool> operator<=(T a, T b) { return float(a) <= float(b); }
template <class T>
inline if_storage_float<T, bool> operator>(T a, T b) { return float(a) > float(b); }
template <class T>
inline if_storage_float<T, bool> operator>=(T a, T b) { return float(a) >= float(b); }

}  // namespace ef
