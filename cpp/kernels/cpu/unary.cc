// CPU kernels for unary elementwise ops. float/double go through Eigen's vectorized array
// functions (TF's kernels use the same ones), half is computed in float chunks, integer ops
// wrap like two's complement (abs/neg of INT_MIN stay INT_MIN) and never hit signed overflow.

// GCC 12 false positive (GCC bug 105593): the `__m512 __Y = __Y;` idiom of avx512fintrin.h,
// inlined through Eigen's AVX-512 packet math, reports "__Y may be used uninitialized".
// The pragma must precede every include so it covers those headers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include <algorithm>
#include <cmath>
#include <limits>
#include <complex>
#include <type_traits>

#include <Eigen/Core>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/predicate_blocks.h"
#include "ops/math_unary_ops.h"
#include "ops/op_util.h"

namespace ef {
namespace {

template <class T>
struct Tag {
  using type = T;
};

// Calls f(Tag<T>{}) with T the C++ type of `t` (numeric dtypes and bool).
template <class F>
void visit_dtype(DType t, F&& f) {
  switch (t) {
    case DType::kFloat16: f(Tag<half>{}); break;
    case DType::kFloat32: f(Tag<float>{}); break;
    case DType::kFloat64: f(Tag<double>{}); break;
    case DType::kInt8: f(Tag<int8_t>{}); break;
    case DType::kUInt8: f(Tag<uint8_t>{}); break;
    case DType::kInt16: f(Tag<int16_t>{}); break;
    case DType::kInt32: f(Tag<int32_t>{}); break;
    case DType::kInt64: f(Tag<int64_t>{}); break;
    case DType::kBool: f(Tag<bool>{}); break;
    case DType::kComplex64: f(Tag<complex64>{}); break;
    default: throw_error(Code::kInternal, "unexpected dtype ", dtype_name(t));
  }
}

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

template <class T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

constexpr int64_t kHeavyGrain = int64_t(1) << 12;  // transcendental functions cost ~10x more
constexpr int64_t kHalfChunk = 512;                 // half -> float staging buffers (stack)

// Eigen's vectorized exp and sqrt (3.4, fast-math) lose the edges of their range (exp(88.7f)
// is inf, exp(-inf) is not 0, sqrt(inf) is NaN). Ops built on them declare the inputs where
// Eigen is exact (in_range) and a scalar C-library formula used for all others (scalar).
template <class Op, class = void>
struct HasFixup : std::false_type {};
template <class Op>
struct HasFixup<Op, std::void_t<decltype(&Op::template in_range<float>)>> : std::true_type {};

// Optional second pass y = blend(x, y): a branch-free select that GCC vectorizes (Eigen 3.4's
// select() runs one scalar at a time).
template <class Op, class = void>
struct HasBlend : std::false_type {};
template <class Op>
struct HasBlend<Op, std::void_t<decltype(&Op::template blend<float>)>> : std::true_type {};

template <class Op, class S>
void fixup(const S* in, S* out, int64_t n) {
  if constexpr (HasBlend<Op>::value) {
    for (int64_t i = 0; i < n; ++i) out[i] = Op::blend(in[i], out[i]);
  }
  if constexpr (HasFixup<Op>::value) {
    for (int64_t i = 0; i < n; ++i)
      if (!Op::in_range(in[i])) out[i] = Op::scalar(in[i]);
  }
}

// |x| below which exp(x) and exp(-x) stay normal numbers.
template <class S>
constexpr S kExpSafe = sizeof(S) == 4 ? S(87) : S(708);

template <class S>
bool exp_safe(S x) {
  return std::abs(x) <= kExpSafe<S>;
}

// One contiguous block of Op on one thread, for float/double and integer types: the eager
// kernel runs it per chunk and the fused elementwise kernel per cache-sized block (`in` and
// `out` must not alias: the fixup pass rereads the inputs).
template <class Op, class T>
void unary_block(const T* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    ArrayMap<T>(out, n) = Op::array(ConstArrayMap<T>(in, n));
    fixup<Op>(in, out, n);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = Op::template integer<T>(in[i]);
  }
}

// Runs Op over [0, n) for one dtype. Each Op provides array(a) for float/double Eigen arrays
// and, where its dtype set needs them, integer(x) and complex(z).
template <class Op, class T>
void apply_unary(const T* in, T* out, int64_t n) {
  constexpr int64_t grain = Op::kHeavy ? kHeavyGrain : kElementwiseGrain;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    for_range(
        n, [&](int64_t s, int64_t e) { unary_block<Op, T>(in + s, out + s, e - s); }, grain);
  } else if constexpr (std::is_same_v<T, half>) {
    for_range(
        n,
        [&](int64_t s, int64_t e) {
          float x[kHalfChunk], y[kHalfChunk];
          for (int64_t b = s; b < e; b += kHalfChunk) {
            const int64_t m = std::min(kHalfChunk, e - b);
            for (int64_t i = 0; i < m; ++i) x[i] = static_cast<float>(in[b + i]);
            ArrayMap<float>(y, m) = Op::array(ConstArrayMap<float>(x, m));
            fixup<Op>(x, y, m);
            for (int64_t i = 0; i < m; ++i) out[b + i] = static_cast<half>(y[i]);
          }
        },
        grain);
  } else if constexpr (std::is_same_v<T, complex64>) {
    for_range(n, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) out[i] = Op::complex(in[i]);
    }, kHeavyGrain);
  } else {
    for_range(n, [&](int64_t s, int64_t e) { unary_block<Op, T>(in + s, out + s, e - s); });
  }
}

// Registers Op's block functions for the fused kernel's dtypes that the eager kernel supports.
template <class Op, const UnaryTypes& Types>
struct UnaryBlockRegistrar {
  explicit UnaryBlockRegistrar(const char* name) {
    add<float>(name);
    add<double>(name);
    add<int32_t>(name);
    add<int64_t>(name);
  }
  template <class T>
  static void add(const char* name) {
    if constexpr ((Types.kernels & dtype_bit(DTypeOf<T>::value)) != 0) register_unary_block<T>(name, unary_block<Op, T>);
  }
};
#define EF_REGISTER_UNARY_BLOCK(NAME, OP, TYPES) \
  static UnaryBlockRegistrar<OP, TYPES> EF_CONCAT(ef_unary_block_, __COUNTER__)(NAME)

template <class Op, const UnaryTypes& Types>
void unary_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), Types);
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  const int64_t n = x.num_elements();
  if (n == 0) return;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((Types.kernels & dtype_bit(DTypeOf<T>::value)) != 0) apply_unary<Op, T>(x.data<T>(), out->data<T>(), n);
  });
}

// ---- the ops ----

struct Neg {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return -a; }
  template <class T> static T integer(T x) { return wrap_neg(x); }
  static complex64 complex(complex64 z) { return -z; }
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
  static complex64 complex(complex64 z) { return z == complex64(0) ? z : z / std::abs(z); }
};
struct Exp {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.exp(); }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return std::exp(x); }
  static complex64 complex(complex64 z) { return std::exp(z); }
};
// Complex expm1/log1p keep their precision for small |z| (exp(z) - 1 would cancel).
struct Expm1 {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.expm1(); }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return std::expm1(x); }
  static complex64 complex(complex64 z) {
    const float x = z.real(), y = z.imag(), h = std::sin(y / 2);
    return {std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y)};
  }
};
struct Log {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.log(); }
  static complex64 complex(complex64 z) { return std::log(z); }
};
struct Log1p {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.log1p(); }
  static complex64 complex(complex64 z) {
    const float x = z.real(), y = z.imag();
    return {0.5f * std::log1p(2 * x + x * x + y * y), std::atan2(y, 1 + x)};
  }
};
struct Sqrt {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.sqrt(); }
  // Zeros, denormals and infinities go to the C library; negatives and NaN give NaN either way.
  template <class S> static bool in_range(S x) {
    return !(std::abs(x) < std::numeric_limits<S>::min() || std::abs(x) > std::numeric_limits<S>::max());
  }
  template <class S> static S scalar(S x) { return std::sqrt(x); }
  static complex64 complex(complex64 z) { return std::sqrt(z); }
};
struct Rsqrt {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.rsqrt(); }
  template <class S> static bool in_range(S x) { return Sqrt::in_range(x); }
  template <class S> static S scalar(S x) { return S(1) / std::sqrt(x); }
  static complex64 complex(complex64 z) { return complex64(1) / std::sqrt(z); }
};
struct Square {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.square(); }
  template <class T> static T integer(T x) {
    const auto u = static_cast<WideUnsigned<T>>(x);
    return static_cast<T>(u * u);
  }
  static complex64 complex(complex64 z) { return z * z; }
};
struct Reciprocal {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.inverse(); }
  static complex64 complex(complex64 z) { return complex64(1) / z; }
};
struct Tanh {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.tanh(); }
  static complex64 complex(complex64 z) { return std::tanh(z); }
};
struct Sigmoid {
  static constexpr bool kHeavy = true;
  // exp(-|x|) never overflows; the x < 0 branch keeps small results' relative precision.
  template <class A> static auto array(const A& a) { return (-a.abs()).exp(); }
  template <class S> static S blend(S x, S e) {
    const S r = S(1) / (S(1) + e);
    return x >= S(0) ? r : e * r;
  }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) {
    const S e = std::exp(-std::abs(x));
    return x >= S(0) ? S(1) / (S(1) + e) : e / (S(1) + e);
  }
  static complex64 complex(complex64 z) { return complex64(1) / (complex64(1) + std::exp(-z)); }
};
struct Sin {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.sin(); }
  static complex64 complex(complex64 z) { return std::sin(z); }
};
struct Cos {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.cos(); }
  static complex64 complex(complex64 z) { return std::cos(z); }
};
struct Tan {
  static constexpr bool kHeavy = true;
  template <class A> static auto array(const A& a) { return a.tan(); }
  static complex64 complex(complex64 z) { return std::tan(z); }
};
struct Floor {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.floor(); }
};
struct Ceil {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.ceil(); }
};
// rint rounds half to even (the default FP rounding mode), as TF's Round does.
struct Round {
  static constexpr bool kHeavy = false;
  template <class A> static auto array(const A& a) { return a.rint(); }
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
  template <class S> static S blend(S x, S y) { return x < S(0) ? y : x; }
  template <class S> static bool in_range(S x) { return exp_safe(x); }
  template <class S> static S scalar(S x) { return x < S(0) ? std::expm1(x) : x; }
};
struct Selu {
  static constexpr bool kHeavy = true;
  static constexpr double kScale = 1.0507009873554804934193349852946, kAlpha = 1.6732632423543772848170429916717;
  template <class A> static auto array(const A& a) {
    using S = typename A::Scalar;
    return a.expm1() * S(kScale * kAlpha);
  }
  template <class S> static S blend(S x, S y) { return x < S(0) ? y : S(kScale) * x; }
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
struct Invert {
  static constexpr bool kHeavy = false;
  template <class T> static T integer(T x) { return static_cast<T>(~x); }
};

namespace ut = unary_types;

// ---- bool-valued and mixed-type ops ----

template <int Kind>  // 0: IsNan, 1: IsInf, 2: IsFinite
void float_predicate_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), ut::kFloat);
  TensorImpl* out = c.allocate_output(0, DType::kBool, x.shape());
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half>) {
      using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
      unary_loop<T, bool>(x, *out, [](T v) {
        const C f = static_cast<C>(v);
        if constexpr (Kind == 0) return std::isnan(f);
        else if constexpr (Kind == 1) return std::isinf(f);
        else return std::isfinite(f);
      });
    }
  });
}

void logical_not_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_same_dtype(c.op, DType::kBool, x.dtype(), 0);
  TensorImpl* out = c.allocate_output(0, DType::kBool, x.shape());
  unary_loop<bool, bool>(x, *out, [](bool v) { return !v; });
}

void complex_abs_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), ut::kComplexAbs);
  TensorImpl* out = c.allocate_output(0, DType::kFloat32, x.shape());
  unary_loop<complex64, float>(x, *out, [](complex64 z) { return std::abs(z); });
}

EF_REGISTER_CPU_KERNEL("Neg", (unary_kernel<Neg, ut::kNeg>));
EF_REGISTER_CPU_KERNEL("Abs", (unary_kernel<Abs, ut::kAbs>));
EF_REGISTER_CPU_KERNEL("Sign", (unary_kernel<Sign, ut::kNeg>));
EF_REGISTER_CPU_KERNEL("Exp", (unary_kernel<Exp, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Expm1", (unary_kernel<Expm1, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Log", (unary_kernel<Log, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Log1p", (unary_kernel<Log1p, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Sqrt", (unary_kernel<Sqrt, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Rsqrt", (unary_kernel<Rsqrt, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Square", (unary_kernel<Square, ut::kSquare>));
EF_REGISTER_CPU_KERNEL("Reciprocal", (unary_kernel<Reciprocal, ut::kReciprocal>));
EF_REGISTER_CPU_KERNEL("Tanh", (unary_kernel<Tanh, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Sigmoid", (unary_kernel<Sigmoid, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Sin", (unary_kernel<Sin, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Cos", (unary_kernel<Cos, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Tan", (unary_kernel<Tan, ut::kFloatComplex>));
EF_REGISTER_CPU_KERNEL("Floor", (unary_kernel<Floor, ut::kFloat>));
EF_REGISTER_CPU_KERNEL("Ceil", (unary_kernel<Ceil, ut::kFloat>));
EF_REGISTER_CPU_KERNEL("Round", (unary_kernel<Round, ut::kRound>));
EF_REGISTER_CPU_KERNEL("Relu", (unary_kernel<Relu, ut::kRelu>));
EF_REGISTER_CPU_KERNEL("Relu6", (unary_kernel<Relu6, ut::kRelu6>));
EF_REGISTER_CPU_KERNEL("Elu", (unary_kernel<Elu, ut::kEluFamily>));
EF_REGISTER_CPU_KERNEL("Selu", (unary_kernel<Selu, ut::kEluFamily>));
EF_REGISTER_CPU_KERNEL("Softplus", (unary_kernel<Softplus, ut::kEluFamily>));
EF_REGISTER_CPU_KERNEL("Invert", (unary_kernel<Invert, ut::kInvert>));
EF_REGISTER_CPU_KERNEL("IsNan", float_predicate_kernel<0>);
EF_REGISTER_CPU_KERNEL("IsInf", float_predicate_kernel<1>);
EF_REGISTER_CPU_KERNEL("IsFinite", float_predicate_kernel<2>);
EF_REGISTER_CPU_KERNEL("LogicalNot", logical_not_kernel);
EF_REGISTER_CPU_KERNEL("ComplexAbs", complex_abs_kernel);

// Block functions for elementwise fusion (graph/passes/fusion.cc).
EF_REGISTER_UNARY_BLOCK("Neg", Neg, ut::kNeg);
EF_REGISTER_UNARY_BLOCK("Abs", Abs, ut::kAbs);
EF_REGISTER_UNARY_BLOCK("Sign", Sign, ut::kNeg);
EF_REGISTER_UNARY_BLOCK("Exp", Exp, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Expm1", Expm1, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Log", Log, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Log1p", Log1p, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Sqrt", Sqrt, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Rsqrt", Rsqrt, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Square", Square, ut::kSquare);
EF_REGISTER_UNARY_BLOCK("Reciprocal", Reciprocal, ut::kReciprocal);
EF_REGISTER_UNARY_BLOCK("Tanh", Tanh, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Sigmoid", Sigmoid, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Sin", Sin, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Cos", Cos, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Tan", Tan, ut::kFloatComplex);
EF_REGISTER_UNARY_BLOCK("Floor", Floor, ut::kFloat);
EF_REGISTER_UNARY_BLOCK("Ceil", Ceil, ut::kFloat);
EF_REGISTER_UNARY_BLOCK("Round", Round, ut::kRound);
EF_REGISTER_UNARY_BLOCK("Relu", Relu, ut::kRelu);
EF_REGISTER_UNARY_BLOCK("Relu6", Relu6, ut::kRelu6);
EF_REGISTER_UNARY_BLOCK("Elu", Elu, ut::kEluFamily);
EF_REGISTER_UNARY_BLOCK("Selu", Selu, ut::kEluFamily);
EF_REGISTER_UNARY_BLOCK("Softplus", Softplus, ut::kEluFamily);
EF_REGISTER_UNARY_BLOCK("Invert", Invert, ut::kInvert);

// LogicalNot for the scalar loop interpreter (kernels/cpu/scalar_loop.cc).
bool logical_not_predicate(const void* a, const void*) { return !*static_cast<const bool*>(a); }
struct LogicalNotPredicate {
  LogicalNotPredicate() { register_predicate("LogicalNot", DType::kBool, logical_not_predicate); }
};
static LogicalNotPredicate ef_logical_not_predicate;

}  // namespace
}  // namespace ef
