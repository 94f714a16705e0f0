// The machinery of the broadcasting binary kernels (binary*.cc): the output, the dtype dispatch,
// one kernel for any functor, and registration of a functor's fusion block functions.
#pragma once
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
