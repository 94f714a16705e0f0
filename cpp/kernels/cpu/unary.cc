// CPU kernels for unary elementwise ops (the table in ops/unary_op_table.h, the functors in
// unary_functors.h). float/double run the block functions of the CPU's ISA variant (elementwise_isa.h:
// Eigen's vectorized array functions, as TF's kernels use), half and bfloat16 are computed in float
// chunks, integer ops wrap like two's complement (abs/neg of INT_MIN stay INT_MIN) and never hit
// signed overflow.

#include <algorithm>
#include <cmath>
#include <limits>
#include <complex>
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/unary_functors.h"
#include "kernels/cpu/elementwise_isa.h"
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

constexpr int64_t kHeavyGrain = int64_t(1) << 12;  // transcendental functions cost ~10x more
constexpr int64_t kHalfChunk = 512;                 // half -> float staging buffers (stack)

// One contiguous block of op I (functor Op) on one thread: the eager kernel runs it per chunk, the
// fused elementwise kernel per cache-sized block and the scalar loop interpreter per element.
template <class Op, int I, class T>
void unary_block(const T* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    isa_blocks().f32[I](in, out, n);
  } else if constexpr (std::is_same_v<T, double>) {
    isa_blocks().f64[I](in, out, n);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = Op::template integer<T>(in[i]);
  }
}

// Runs op I over [0, n) for one dtype. Each Op provides array(a) for float/double Eigen arrays
// and, where its dtype set needs them, integer(x) and complex(z).
template <class Op, int I, class T>
void apply_unary(const T* in, T* out, int64_t n) {
  constexpr int64_t grain = Op::kHeavy ? kHeavyGrain : kElementwiseGrain;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    for_range(
        n, [&](int64_t s, int64_t e) { unary_block<Op, I, T>(in + s, out + s, e - s); }, grain);
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    for_range(
        n,
        [&](int64_t s, int64_t e) {
          float x[kHalfChunk], y[kHalfChunk];
          for (int64_t b = s; b < e; b += kHalfChunk) {
            const int64_t m = std::min(kHalfChunk, e - b);
            for (int64_t i = 0; i < m; ++i) x[i] = static_cast<float>(in[b + i]);
            unary_block<Op, I, float>(x, y, m);
            for (int64_t i = 0; i < m; ++i) out[b + i] = static_cast<T>(y[i]);
          }
        },
        grain);
  } else if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    for_range(n, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) out[i] = Op::complex(in[i]);
    }, kHeavyGrain);
  } else {
    for_range(n, [&](int64_t s, int64_t e) { unary_block<Op, I, T>(in + s, out + s, e - s); });
  }
}

// Registers Op's block functions and scalar steps for the fused kernel's dtypes that the eager
// kernel supports.
template <class Op, int I, const UnaryTypes& Types>
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
      register_unary_block<T>(name, unary_block<Op, I, T>);
      register_scalar_steps(name, 1, DTypeOf<T>::value, {unary_step<OneElement, T>, nullptr});
    }
  }
  // The scalar step's math: the block function on one element, as the eager kernel runs a
  // one-element tensor.
  struct OneElement {
    template <class T>
    T operator()(T x) const {
      T y;
      unary_block<Op, I, T>(&x, &y, 1);
      return y;
    }
  };
};
#define EF_REGISTER_UNARY_BLOCK(NAME, OP, TYPES) \
  static UnaryBlockRegistrar<OP, kUnaryIndex##OP, TYPES> EF_CONCAT(ef_unary_block_, __COUNTER__)(NAME)

template <class Op, int I, const UnaryTypes& Types>
void unary_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_unary_type(c.op, x.dtype(), Types);
  TensorImpl* out = c.allocate_output(0, x.dtype(), x.shape());
  const int64_t n = x.num_elements();
  if (n == 0) return;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr ((Types.kernels & dtype_bit(DTypeOf<T>::value)) != 0) apply_unary<Op, I, T>(x.data<T>(), out->data<T>(), n);
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
  EF_REGISTER_CPU_KERNEL(#NAME, (unary_kernel<NAME, kUnaryIndex##NAME, ut::TYPES>)); \
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
