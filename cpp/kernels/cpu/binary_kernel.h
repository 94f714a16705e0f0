// The machinery of the broadcasting binary kernels (binary*.cc): the output, the dtype dispatch,
// one kernel for any functor, and registration of a functor's fusion block functions.
#pragma once
#include <cmath>
#include <type_traits>

#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/compare_functors.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "kernels/cpu/elementwise_isa.h"
#include "ops/op_util.h"

namespace ef {
namespace binary_kernel {

template <typename T>
void check_int_divisor(const TensorImpl& y) {
  if constexpr (std::is_integral_v<T>) {
    const T* p = y.data<T>();
    for (int64_t i = 0; i < y.num_elements(); ++i)
      if (p[i] == 0) throw_error(Code::kInvalidArgument, "Integer division by zero");
  }
}

// Allocates the broadcast output and checks dtypes; returns the output.
inline TensorImpl* prepare(KernelContext& c, unsigned types, DType out_dtype = DType::kInvalid) {
  const TensorImpl& x = *c.input(0);
  const TensorImpl& y = *c.input(1);
  check_same_dtype(c.op, x.dtype(), y.dtype(), 1);
  check_type(c.op, x.dtype(), types);
  Shape s = (x.shape() == y.shape()) ? x.shape() : broadcast_shapes(x.shape(), y.shape());
  return c.allocate_output(0, out_dtype == DType::kInvalid ? x.dtype() : out_dtype, s);
}

#define EF_UNSUPPORTED(c) check_type(c.op, c.input(0)->dtype(), 0)

// out[i] = F(a[i], b[i]): the per-element expression of the eager kernel (binary_loop applies
// the same functor, also when one operand is a broadcast scalar).
template <class F, class T>
void binary_block(const T* a, const T* b, T* out, int64_t n) {
  const F f;
  for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
}

// kFloats: float32/float64 only (integer division and pow can fail, so they are not fused).
enum BlockTypes { kBlockFloats = 1, kBlockInts = 2, kBlockAll = 3 };

template <class F, class = void>
struct IntDivisor : std::false_type {};
template <class F>
struct IntDivisor<F, std::void_t<decltype(F::kIntDivisor)>> : std::bool_constant<F::kIntDivisor> {};

// Where F's block functions are compiled per ISA (elementwise_isa.h): its position in its list
// (kIndex; -1: none), the output type for T, and the variant's blocks of its list for T.
template <class F>
struct IsaOp {
  static constexpr int kIndex = -1;
  template <class T>
  using Out = T;
};
// F = NS::NAME at INDEX of the list whose blocks are IsaTypedBlocks' MEMBER, OUT its output type.
#define EF_ISA_OP(NS, NAME, INDEX, OUT, MEMBER)                                          \
  template <>                                                                          \
  struct IsaOp<NS::NAME> {                                                             \
    static constexpr int kIndex = INDEX;                                               \
    template <class T>                                                                 \
    using Out = OUT;                                                                   \
    template <class T>                                                                 \
    static const auto& blocks() { return isa_typed_blocks<T>().MEMBER; }               \
  };
#define EF_ISA_BINARY_OP(NAME) EF_ISA_OP(binary_functors, NAME, kIsaBinaryIndex##NAME, T, binary)
#define EF_ISA_COMPARE_OP(NAME) EF_ISA_OP(compare_functors, NAME, kIsaCompareIndex##NAME, bool, compare)
EF_ISA_BINARY_OPS(EF_ISA_BINARY_OP)
EF_ISA_COMPARE_OPS(EF_ISA_COMPARE_OP)
#undef EF_ISA_COMPARE_OP
#undef EF_ISA_BINARY_OP
#undef EF_ISA_OP

// The inner loops of binary_loop through the per-ISA copies of F's blocks; runs shorter than a few
// vectors (a broadcast's narrow rows, where an indirect call per row costs as much as the row) stay
// inline.
template <class F, class T, class O = typename IsaOp<F>::template Out<T>>
struct IsaBinaryRuns : BinaryRuns<T, T, O, F> {
  using Inline = BinaryRuns<T, T, O, F>;
  static constexpr int kOp = IsaOp<F>::kIndex;
  static constexpr int64_t kInline = 64;
  const std::remove_reference_t<decltype(IsaOp<F>::template blocks<T>())>& blocks = IsaOp<F>::template blocks<T>();
  void both(const T* a, const T* b, O* out, int64_t n) const {
    if (n < kInline) return Inline::both(a, b, out, n);
    blocks.both[kOp](a, b, out, n);
  }
  void scalar_left(T a, const T* b, O* out, int64_t n) const {
    if (n < kInline) return Inline::scalar_left(a, b, out, n);
    blocks.scalar_left[kOp](a, b, out, n);
  }
  void scalar_right(const T* a, T b, O* out, int64_t n) const {
    if (n < kInline) return Inline::scalar_right(a, b, out, n);
    blocks.scalar_right[kOp](a, b, out, n);
  }
};

// Functors whose float32 math has copies (EF_ISA_FLOAT_MATH_OPS) name its index as kIsaFloatMath.
template <class F, class = void>
struct IsaFloatMath : std::integral_constant<int, -1> {};
template <class F>
struct IsaFloatMath<F, std::void_t<decltype(F::kIsaFloatMath)>> : std::integral_constant<int, F::kIsaFloatMath> {};

template <int I>
void isa_float_math_block(const float* a, const float* b, float* out, int64_t n) {
  isa_blocks().f32_math.both[I](a, b, out, n);
}

// binary_loop's inner loops through the variant's float math blocks; strided runs take one element
// at a time (the same bits).
template <int I>
struct FloatMathRuns {
  const IsaBinaryForms<float, float, kIsaFloatMathOpCount>& forms = isa_blocks().f32_math;
  void both(const float* a, const float* b, float* out, int64_t n) const { forms.both[I](a, b, out, n); }
  void scalar_left(float a, const float* b, float* out, int64_t n) const { forms.scalar_left[I](a, b, out, n); }
  void scalar_right(const float* a, float b, float* out, int64_t n) const { forms.scalar_right[I](a, b, out, n); }
  void strided(const float* a, int64_t sa, const float* b, int64_t sb, float* out, int64_t n) const {
    for (int64_t i = 0; i < n; ++i) forms.both[I](a + i * sa, b + i * sb, out + i, 1);
  }
};

// Integer FloorDiv / FloorMod by one divisor (`x // 7`, `x % 7`): an integer division per element is
// 10-20 cycles, so where the quotient is exact in double (|a|, |b| < 2^53: the correctly rounded
// a / b truncates to the true quotient, being at least 1 / |b| from the next integer) it is
// double(a) / double(b), truncated, then moved to the floor by the remainder's sign: a loop GCC
// vectorizes. b = -1 keeps the integer path (INT_MIN / -1 wraps).
template <class F>
constexpr bool kFloorDivision =
    std::is_same_v<F, binary_functors::FloorDiv> || std::is_same_v<F, binary_functors::FloorMod>;

template <class F, class T>
struct FloorDivisionRuns : BinaryRuns<T, T, T, F> {
  using Inline = BinaryRuns<T, T, T, F>;
  static constexpr int64_t kExact = int64_t(1) << 53;
  void scalar_right(const T* a, T b, T* out, int64_t n) const {
    bool exact = b != T(-1);
    if constexpr (sizeof(T) > 4) {
      exact &= b > -kExact && b < kExact;
      T lo = 0, hi = 0;  // a branch-free scan (it vectorizes); most inputs are far inside the range
      for (int64_t i = 0; i < n; ++i) {
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
      }
      exact &= lo > -kExact && hi < kExact;
    }
    if (!exact) return Inline::scalar_right(a, b, out, n);
    using U = std::make_unsigned_t<std::conditional_t<(sizeof(T) < 4), int32_t, T>>;  // q b may overflow T
    const double d = static_cast<double>(b);
    for (int64_t i = 0; i < n; ++i) {  // `out` may be `a` itself (a forwarded input)
      const T t = static_cast<T>(static_cast<double>(a[i]) / d);  // the quotient truncated
      const T r = static_cast<T>(U(a[i]) - U(t) * U(b));
      const bool down = r != 0 && (r < 0) != (b < 0);  // the floor is one lower
      if constexpr (std::is_same_v<F, binary_functors::FloorDiv>) out[i] = static_cast<T>(t - T(down));
      else out[i] = static_cast<T>(r + (down ? b : T(0)));
    }
  }
};

#ifdef EF_ISA_COPIES
constexpr bool kIsaCopies = true;
#else
constexpr bool kIsaCopies = false;  // the baseline copy alone: the same code as the inline loops
#endif

// out = F(x, y) with broadcasting: through the per-ISA copies where the build, F and T have them.
template <class F, class T>
void binary_op_loop(const TensorImpl& x, const TensorImpl& y, TensorImpl& out) {
  using O = typename IsaOp<F>::template Out<T>;
  if constexpr (kIsaCopies && IsaOp<F>::kIndex >= 0 && kIsaBinaryType<T> &&
                !(std::is_integral_v<T> && IntDivisor<F>::value)) {
    binary_loop_runs<T, T, O>(x, y, out, IsaBinaryRuns<F, T>{});
  } else if constexpr (kFloorDivision<F> && std::is_signed_v<T> && std::is_integral_v<T>) {
    binary_loop_runs<T, T, T>(x, y, out, FloorDivisionRuns<F, T>{});
  } else {
    binary_loop<T, T, O>(x, y, out, [](T a, T b) -> O { return F()(a, b); });
  }
}

// One kernel for every op of the table: F's math over the dtypes in Types.
template <class F, unsigned Types>
void table_kernel(KernelContext& c) {
  TensorImpl* out = prepare(c, Types);
  EF_DISPATCH_ALL_NUMERIC(out->dtype(), EF_UNSUPPORTED(c), {
    if constexpr ((Types & dtype_bit(DTypeOf<T>::value)) != 0) {
      if constexpr (F::kIntDivisor) check_int_divisor<T>(*c.input(1));
      binary_op_loop<F, T>(*c.input(0), *c.input(1), *out);
    } else {
      EF_UNSUPPORTED(c);
    }
  });
}

// Registers F's block functions and scalar steps (the scalar loop interpreter's instructions).
// Integer division has no block function (it can fail) but has scalar steps that check the divisor.
template <class F, int Types>
struct BinaryBlockRegistrar {
  explicit BinaryBlockRegistrar(const char* name) {
    if constexpr ((Types & kBlockFloats) != 0) {
      add<float>(name);
      add<double>(name);
    }
    if constexpr ((Types & kBlockInts) != 0) {
      add<int32_t>(name);
      add<int64_t>(name);
    } else if constexpr (IntDivisor<F>::value) {
      register_scalar_steps(name, 2, DType::kInt32, {binary_divisor_step<F, int32_t>, nullptr});
      register_scalar_steps(name, 2, DType::kInt64, {binary_divisor_step<F, int64_t>, nullptr});
    }
  }
  template <class T>
  static void add(const char* name) {
    if constexpr (IsaOp<F>::kIndex >= 0) {
      register_binary_block<T>(name, isa_binary_block<IsaOp<F>::kIndex, T>);
    } else if constexpr (IsaFloatMath<F>::value >= 0 && std::is_same_v<T, float>) {
      register_binary_block<T>(name, isa_float_math_block<IsaFloatMath<F>::value>);
    } else {
      register_binary_block<T>(name, binary_block<F, T>);
    }
    register_scalar_steps(name, 2, DTypeOf<T>::value, {binary_step<F, T>, nullptr});
  }
};
#define EF_REGISTER_BINARY_BLOCK(NAME, F, TYPES) \
  static ::ef::binary_kernel::BinaryBlockRegistrar<F, TYPES> EF_CONCAT(ef_binary_block_, __COUNTER__)(NAME)

}  // namespace binary_kernel
}  // namespace ef

// Registers the kernel and block functions of the table's op NAME (binary_functors.h's NAME).
#define EF_TABLE_BINARY_KERNEL(NAME, X, Y, TYPES, LIST, BLOCKS)                                     \
  EF_REGISTER_CPU_KERNEL(#NAME, (::ef::binary_kernel::table_kernel<::ef::binary_functors::NAME, TYPES>)); \
  EF_REGISTER_BINARY_BLOCK(#NAME, ::ef::binary_functors::NAME, ::ef::binary_kernel::BLOCKS);
