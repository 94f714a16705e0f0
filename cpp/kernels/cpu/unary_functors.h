// The per-element math of the unary elementwise ops (one struct per op of ops/unary_op_table.h,
// named as the op). Each provides what its dtype set needs: array(a) for float/double Eigen arrays
// (vectorized), integer(x) for integer types, complex(z) for complex64/complex128; kHeavy marks
// transcendental functions (a larger parallel grain). Optional: blend(x, y), a second
// branch-free pass; in_range(x) / scalar(x), the inputs where array() is exact and a C-library
// formula for the others; exp_arg(x), when array() is exp of it. Each functor works on whatever Eigen array type it is given: only the
// files that evaluate them include Eigen.
#pragma once
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "core/dtype.h"
#include "kernels/cpu/special_functions.h"

namespace ef {
namespace unary_functors {
// File-local, as is every template instantiated with a functor: the per-ISA copies of
// elementwise_isa_blocks.cc must not share one (the linker would keep one ISA's copy for all).
namespace {

template <class T>
constexpr bool kIsInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class T>
using Unsigned = std::make_unsigned_t<T>;
// At least as wide as unsigned int, so products of narrow types never promote to signed int.
template <class T>
using WideUnsigned = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;

template <class T>
T wrap_neg(T x) {
  return static_cast<T>(WideUnsigned<T>(0) - static_cast<WideUnsigned<T>>(x));
}

// |x| below which exp(x) and exp(-x) stay normal numbers.
template <class S>
constexpr S kExpSafe = sizeof(S) == 4 ? S(87) : S(708);

template <class S>
bool exp_safe(S x) {
  return std::abs(x) <= kExpSafe<S>;
}


struct Neg {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return -a; }
  template <class T> static T integer(T x) { return wrap_neg(x); }
  template <class Z> static Z complex(Z z) { return -z; }
};
struct Conj {
  static constexpr bool kHeavy = false;
  template <class Z> static Z complex(Z z) { return std::conj(z); }
};
struct Abs {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.abs(); }
  template <class T> static T integer(T x) { return x < 0 ? wrap_neg(x) : x; }
};
// sign(NaN) is NaN and sign(-0.0) is +0, as in TF.
struct Sign {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) {
    using S = typename A::Scalar;
    return a.unaryExpr([](S v) { return v > S(0) ? S(1) : v < S(0) ? S(-1) : v == v ? S(0) : v; });
  }
  template <class T> static T integer(T x) { return static_cast<T>((x > 0) - (x < 0)); }
  template <class Z> static Z complex(Z z) { return z == Z(0) ? z : z / std::abs(z); }
};
struct Exp {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.exp(); }
  // array() is exp(exp_arg(x)) (a scalar or a vector of them): the float blocks run exp_f32.h's
  // exp on it.
  template <class V> static V exp_arg(V x) { return x; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return std::exp(x); }
  template <class Z> static Z complex(Z z) { return std::exp(z); }
};
// Complex expm1/log1p keep their precision for small |z| (exp(z) - 1 would cancel).
struct Expm1 {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.expm1(); }
  // array() is expm1(expm1_arg(x)): the float blocks run exp_f32.h's expm1 on it.
  template <class V> static V expm1_arg(V x) { return x; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return std::expm1(x); }
  template <class Z> static Z complex(Z z) {
    const auto x = z.real(), y = z.imag(), h = std::sin(y / 2);
    return {std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y)};
  }
};
struct Log {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.log(); }
  template <class Z> static Z complex(Z z) { return std::log(z); }
};
struct Log1p {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.log1p(); }
  template <class Z> static Z complex(Z z) {
    const auto x = z.real(), y = z.imag();
    return {std::log1p(2 * x + x * x + y * y) / 2, std::atan2(y, 1 + x)};
  }
};
struct Sqrt {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.sqrt(); }
  // Zeros, denormals and infinities go to the C library; negatives and NaN give NaN either way.
  // `|` rather than `||`: no branch, so the kernels' scan over a block vectorizes.
  template <class S> static bool in_range(S x) {
    const S a = std::abs(x);
    return !((a < std::numeric_limits<S>::min()) | (a > std::numeric_limits<S>::max()));
  }
  template <class S> static S scalar(S x) { return std::sqrt(x); }
  template <class Z> static Z complex(Z z) { return std::sqrt(z); }
};
struct Rsqrt {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.rsqrt(); }
  template <class S> static bool in_range(S x) { return Sqrt::in_range(x); }
  template <class S> static S scalar(S x) { return S(1) / std::sqrt(x); }
  template <class Z> static Z complex(Z z) { return Z(1) / std::sqrt(z); }
};
struct Square {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.square(); }
  template <class T> static T integer(T x) {
    const auto u = static_cast<WideUnsigned<T>>(x);
    return static_cast<T>(u * u);
  }
  template <class Z> static Z complex(Z z) { return z * z; }
};
struct Reciprocal {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.inverse(); }
  template <class Z> static Z complex(Z z) { return Z(1) / z; }
};
struct Tanh {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.tanh(); }
  template <class Z> static Z complex(Z z) { return std::tanh(z); }
};
struct Sigmoid {
  static constexpr bool kHeavy = true;
  // exp(-|x|) never overflows; the x < 0 branch keeps small results' relative precision.
  template <class A> static auto array(const A& a) { return (-a.abs()).exp(); }
  template <class V> static V exp_arg(V x) { return x < 0 ? x : -x; }  // -|x| (+0 for -0: the same exp)
  template <class S> static S blend(S x, S e) {
    const S r = S(1) / (S(1) + e);
    return x >= S(0) ? r : e * r;
  }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) {
    const S e = std::exp(-std::abs(x));
    return x >= S(0) ? S(1) / (S(1) + e) : e / (S(1) + e);
  }
  template <class Z> static Z complex(Z z) { return Z(1) / (Z(1) + std::exp(-z)); }
};
struct Sin {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.sin(); }
  template <class Z> static Z complex(Z z) { return std::sin(z); }
};
struct Cos {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.cos(); }
  template <class Z> static Z complex(Z z) { return std::cos(z); }
};
struct Tan {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.tan(); }
  template <class Z> static Z complex(Z z) { return std::tan(z); }
};
// Rounding keeps x's sign (ceil(-0.5) is -0, as in TF): Eigen's SSE2 forms, without SSE4.1's
// roundps, return +0 there, so blend puts the sign back.
struct Floor {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.floor(); }
  template <class S> static S blend(S x, S y) { return std::copysign(y, x); }
};
struct Ceil {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.ceil(); }
  template <class S> static S blend(S x, S y) { return std::copysign(y, x); }
};
// rint rounds half to even (the default FP rounding mode), as TF's Round does.
struct Round {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.rint(); }
  template <class S> static S blend(S x, S y) { return std::copysign(y, x); }
  template <class T> static T integer(T x) { return x; }
};
// Relu keeps NaN and -0.0 (x < 0 is false for both), like TF.
struct Relu {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) {
    using S = typename A::Scalar;
    return a.unaryExpr([](S v) { return v < S(0) ? S(0) : v; });
  }
  template <class T> static T integer(T x) { return x < T(0) ? T(0) : x; }
};
struct Relu6 {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) {
    using S = typename A::Scalar;
    return a.unaryExpr([](S v) { return v < S(0) ? S(0) : v > S(6) ? S(6) : v; });
  }
  template <class T> static T integer(T x) { return x < T(0) ? T(0) : x > T(6) ? T(6) : x; }
};
struct Elu {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.expm1(); }
  template <class V> static V expm1_arg(V x) { return x; }
  template <class S> static S blend(S x, S y) { return x < S(0) ? y : x; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return x < S(0) ? std::expm1(x) : x; }
};
struct Selu {
  static constexpr bool kHeavy = true;
  static constexpr double kScale = 1.0507009873554804934193349852946, kAlpha = 1.6732632423543772848170429916717;
  template <class A> static auto array(const A& a) { return a.expm1(); }
  template <class V> static V expm1_arg(V x) { return x; }
  template <class S> static S blend(S x, S y) { return x < S(0) ? S(kScale * kAlpha) * y : S(kScale) * x; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return x < S(0) ? S(kScale * kAlpha) * std::expm1(x) : S(kScale) * x; }
};
// softplus(x) = max(x, 0) + log1p(exp(-|x|)): never overflows, exact for large |x|.
struct Softplus {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return (-a.abs()).exp().log1p(); }
  template <class S> static S blend(S x, S y) { return (x > S(0) ? x : S(0)) + y; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return (x > S(0) ? x : S(0)) + std::log1p(std::exp(-std::abs(x))); }
};
// Functions without a vectorized Eigen form: the C library's (or special_functions.h) per element
// (kScalarOnly: no ISA gains from copies of them);
// EF_COMPLEX adds the complex form for the ops that take complex inputs.
#define EF_SCALAR_UNARY(NAME, FN, ...)                                                  \
  struct NAME {                                                                         \
    static constexpr bool kHeavy = true;                                                \
    static constexpr bool kScalarOnly = true;                                           \
    template <class A> static auto array(const A& a) {                                  \
      using S = typename A::Scalar;                                                     \
      return a.unaryExpr([](S v) -> S { return FN(v); });                               \
    }                                                                                   \
    __VA_ARGS__                                                                         \
  };
#define EF_COMPLEX(FN) template <class Z> static Z complex(Z z) { return FN(z); }
EF_SCALAR_UNARY(Asin, std::asin, EF_COMPLEX(std::asin))
EF_SCALAR_UNARY(Acos, std::acos, EF_COMPLEX(std::acos))
EF_SCALAR_UNARY(Atan, std::atan, EF_COMPLEX(std::atan))
EF_SCALAR_UNARY(Sinh, std::sinh, EF_COMPLEX(std::sinh))
EF_SCALAR_UNARY(Cosh, std::cosh, EF_COMPLEX(std::cosh))
EF_SCALAR_UNARY(Asinh, std::asinh, EF_COMPLEX(std::asinh))
EF_SCALAR_UNARY(Acosh, std::acosh, EF_COMPLEX(std::acosh))
EF_SCALAR_UNARY(Atanh, std::atanh, EF_COMPLEX(std::atanh))
EF_SCALAR_UNARY(Erf, std::erf)
EF_SCALAR_UNARY(Erfc, std::erfc)
EF_SCALAR_UNARY(Erfinv, special::erfinv)
EF_SCALAR_UNARY(Lgamma, special::lgamma)
EF_SCALAR_UNARY(Digamma, special::digamma)
#undef EF_COMPLEX
#undef EF_SCALAR_UNARY
struct Softsign {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) {
    using S = typename A::Scalar;
    return a / (a.abs() + S(1));
  }
};
struct Invert {
  static constexpr bool kHeavy = false;
  template <class T> static T integer(T x) { return static_cast<T>(~x); }
};

}  // namespace
}  // namespace unary_functors
}  // namespace ef
