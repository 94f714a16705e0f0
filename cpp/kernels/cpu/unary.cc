// CPU kernels for unary elementwise ops (the table in ops/unary_op_table.h, the functors in
// unary_functors.h). float/double go through Eigen's vectorized array
// functions (TF's kernels use the same ones), half and bfloat16 are computed in float chunks, integer ops
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
#include "kernels/cpu/unary_functors.h"
#include "ops/math_unary_ops.h"
#include "ops/op_util.h"
#include "ops/unary_op_table.h"

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
    case DType::kUInt16: f(Tag<uint16_t>{}); break;
    case DType::kUInt32: f(Tag<uint32_t>{}); break;
    case DType::kUInt64: f(Tag<uint64_t>{}); break;
    case DType::kBFloat16: f(Tag<bfloat16>{}); break;
    case DType::kComplex128: f(Tag<complex128>{}); break;
    default: throw_error(Code::kInternal, "unexpected dtype ", dtype_name(t));
  }
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
    // A branch-free scan first (it vectorizes; the fixing loop does not): most blocks need none.
    int outside = 0;
    for (int64_t i = 0; i < n; ++i) outside |= Op::in_range(in[i]) ? 0 : 1;
    if (!outside) return;
    for (int64_t i = 0; i < n; ++i)
      if (!Op::in_range(in[i])) out[i] = Op::scalar(in[i]);
  }
}

// One contiguous block of Op on one thread, for float/double and integer types: the eager
// kernel runs it per chunk and the fused elementwise kernel per cache-sized block (`in` and
// `out` must not alias: the fixup pass rereads the inputs).
template <class Op, class T>
void unary_block(const T* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if constexpr (HasBlend<Op>::value || HasFixup<Op>::value) {
      if (in == out) {  // a forwarded output: the fixup pass needs the input, stage it in chunks
        T x[kHalfChunk];
        for (int64_t b = 0; b < n; b += kHalfChunk) {
          const int64_t m = std::min(kHalfChunk, n - b);
          std::copy(in + b, in + b + m, x);
          ArrayMap<T>(out + b, m) = Op::array(ConstArrayMap<T>(x, m));
          fixup<Op>(x, out + b, m);
        }
        return;
      }
    }
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
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    for_range(
        n,
        [&](int64_t s, int64_t e) {
          float x[kHalfChunk], y[kHalfChunk];
          for (int64_t b = s; b < e; b += kHalfChunk) {
            const int64_t m = std::min(kHalfChunk, e - b);
            for (int64_t i = 0; i < m; ++i) x[i] = static_cast<float>(in[b + i]);
            ArrayMap<float>(y, m) = Op::array(ConstArrayMap<float>(x, m));
            fixup<Op>(x, y, m);
            for (int64_t i = 0; i < m; ++i) out[b + i] = static_cast<T>(y[i]);
          }
        },
        grain);
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    for_range(n, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) out[i] = Op::complex(in[i]);
    }, kHeavyGrain);
  } else {
    for_range(n, [&](int64_t s, int64_t e) { unary_block<Op, T>(in + s, out + s, e - s); });
  }
}

// Registers Op's block functions and scalar steps for the fused kernel's dtypes that the eager
// kernel supports.
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
    if constexpr ((Types.kernels & dtype_bit(DTypeOf<T>::value)) != 0) {
      register_unary_block<T>(name, unary_block<Op, T>);
      register_scalar_steps(name, 1, DTypeOf<T>::value, {unary_step<OneElement, T>, nullptr});
    }
  }
  // The scalar step's math: the block function on one element, as the eager kernel runs a
  // one-element tensor. Not inlined with n = 1: GCC would warn about the unreachable vector path.
  template <class T>
  [[gnu::noipa]] static void block(const T* x, T* y, int64_t n) {
    unary_block<Op, T>(x, y, n);
  }
  struct OneElement {
    template <class T>
    T operator()(T x) const {
      T y;
      block<T>(&x, &y, 1);
      return y;
    }
  };
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

namespace ut = unary_types;
using namespace unary_functors;  // NOLINT: the table names functors as their ops

// ---- bool-valued and mixed-type ops ----

// IsNan, IsInf, IsFinite: float inputs, bool outputs (half and bfloat16 test as float).
struct IsNanFn { template <class C> bool operator()(C f) const { return std::isnan(f); } };
struct IsInfFn { template <class C> bool operator()(C f) const { return std::isinf(f); } };
struct IsFiniteFn { template <class C> bool operator()(C f) const { return std::isfinite(f); } };

template <class Test>
void float_predicate_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), ut::kFloat);
  TensorImpl* out = c.allocate_output(0, DType::kBool, x.shape());
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
      using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
      unary_loop<T, bool>(x, *out, [](T v) { return Test()(static_cast<C>(v)); });
    }
  });
}

// The kernel's and the scalar loop interpreter's math.
struct LogicalNotFn {
  bool operator()(bool v) const { return !v; }
};

void logical_not_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_same_dtype(c.op, DType::kBool, x.dtype(), 0);
  TensorImpl* out = c.allocate_output(0, DType::kBool, x.shape());
  unary_loop<bool, bool>(x, *out, [](bool v) { return LogicalNotFn()(v); });
}

void complex_abs_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), ut::kComplexAbs);
  if (x.dtype() == DType::kComplex128) {
    TensorImpl* out = c.allocate_output(0, DType::kFloat64, x.shape());
    unary_loop<complex128, double>(x, *out, [](complex128 z) { return std::abs(z); });
    return;
  }
  TensorImpl* out = c.allocate_output(0, DType::kFloat32, x.shape());
  unary_loop<complex64, float>(x, *out, [](complex64 z) { return std::abs(z); });
}

#define EF_UNARY_KERNEL(NAME, INPUT, TYPES)                                  \
  EF_REGISTER_CPU_KERNEL(#NAME, (unary_kernel<NAME, ut::TYPES>)); \
  EF_REGISTER_UNARY_BLOCK(#NAME, NAME, ut::TYPES);
EF_UNARY_OPS(EF_UNARY_KERNEL)
#undef EF_UNARY_KERNEL

EF_REGISTER_CPU_KERNEL("IsNan", float_predicate_kernel<IsNanFn>);
EF_REGISTER_CPU_KERNEL("IsInf", float_predicate_kernel<IsInfFn>);
EF_REGISTER_CPU_KERNEL("IsFinite", float_predicate_kernel<IsFiniteFn>);
EF_REGISTER_CPU_KERNEL("LogicalNot", logical_not_kernel);
EF_REGISTER_CPU_KERNEL("ComplexAbs", complex_abs_kernel);

// LogicalNot for the scalar loop interpreter (kernels/cpu/scalar_loop.cc).
struct LogicalNotSteps {
  LogicalNotSteps() {
    register_scalar_steps("LogicalNot", 1, DType::kBool, {unary_step<LogicalNotFn, bool>, unary_branch_step<LogicalNotFn, bool>});
  }
};
static LogicalNotSteps ef_logical_not_steps;

}  // namespace
}  // namespace ef
