// The elementwise ops' block functions (unary float/double: Eigen's vectorized array functions, as
// TF's kernels use, and exp_f32.h's exp and expm1; binary float/double/int32/int64: the arithmetic of the fused
// chains and eager kernels, and the comparisons; float pow, pow_f32.h), compiled once per ISA: CMakeLists.txt
// builds this file with EF_ISA naming the variant and that ISA's -m flags, and elementwise_isa.cc
// picks one at run time.
//
// Nothing this file defines may be shared between variants: the linker keeps one copy of each
// inline function or template instantiation, so an AVX-512 copy could serve the baseline's calls on a
// CPU without AVX-512. Eigen's namespace is therefore renamed per variant, the unary functors (and
// every template instantiated with them) are file-local, the binary and comparison functors' one-line
// operators (and wrapping.h's helpers) are inlined (integer division, whose helpers are not, has no
// copies), and cmake/check_isa_object.py fails the build when a non-baseline object exports any
// other symbol or runs code at load time (before the CPU check). Compiled with -fno-trapping-math,
// so the fixup passes' selects vectorize without AVX-512's masks.

// GCC 12 false positive (GCC bug 105593): the `__m512 __Y = __Y;` idiom of avx512fintrin.h,
// inlined through Eigen's AVX-512 packet math, reports "__Y may be used uninitialized".
// The pragma must precede every include so it covers those headers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif

#include "kernels/cpu/isa_copy.h"
#define Eigen EF_ISA_NAME(Eigen)

#include <cstdint>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/compare_functors.h"
#include "kernels/cpu/elementwise_isa.h"
#include "kernels/cpu/exp_f32.h"
#include "kernels/cpu/pow_f32.h"
#include "kernels/cpu/unary_functors.h"

namespace ef {
namespace {

using namespace unary_functors;  // NOLINT: the table names functors as their ops

template <class T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

constexpr int64_t kStage = 512;  // staging buffer for in-place blocks (stack)

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

// Ops with a float form (array()).
template <class Op, class = void>
struct HasArray : std::false_type {};
template <class Op>
struct HasArray<Op, std::void_t<decltype(Op::array(std::declval<ConstArrayMap<float>>()))>> : std::true_type {};

// Ops whose math is a C-library call per element: only the baseline compiles them.
template <class Op, class = void>
struct ScalarOnly : std::false_type {};
template <class Op>
struct ScalarOnly<Op, std::void_t<decltype(Op::kScalarOnly)>> : std::bool_constant<Op::kScalarOnly> {};

// Ops whose array() is exp(Op::exp_arg(x)).
template <class Op, class = void>
struct HasExpArg : std::false_type {};
template <class Op>
struct HasExpArg<Op, std::void_t<decltype(&Op::template exp_arg<float>)>> : std::true_type {};

// Ops whose array() is expm1(Op::expm1_arg(x)).
template <class Op, class = void>
struct HasExpm1Arg : std::false_type {};
template <class Op>
struct HasExpm1Arg<Op, std::void_t<decltype(&Op::template expm1_arg<float>)>> : std::true_type {};

// out = Op::array(in), float exp and expm1 through exp_f32.h.
template <class Op, class T>
void array_pass(const T* in, T* out, int64_t n) {
  if constexpr (HasExpArg<Op>::value && std::is_same_v<T, float>) {
    exp_f32_block<kVectorBytes>(in, out, n, [](auto v) { return Op::exp_arg(v); });
  } else if constexpr (HasExpm1Arg<Op>::value && std::is_same_v<T, float>) {
    expm1_f32_block<kVectorBytes>(in, out, n, [](auto v) { return Op::expm1_arg(v); });
  } else {
    ArrayMap<T>(out, n) = Op::array(ConstArrayMap<T>(in, n));
  }
}

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

template <class Op, class T>
void unary_block(const T* in, T* out, int64_t n) {
  if constexpr (HasBlend<Op>::value || HasFixup<Op>::value) {
    if (in == out) {  // a forwarded output: the fixup pass needs the input, stage it in chunks
      T x[kStage];
      for (int64_t b = 0; b < n; b += kStage) {
        const int64_t m = n - b < kStage ? n - b : kStage;
        for (int64_t i = 0; i < m; ++i) x[i] = in[b + i];
        array_pass<Op>(x, out + b, m);
        fixup<Op>(x, out + b, m);
      }
      return;
    }
  }
  array_pass<Op>(in, out, n);
  fixup<Op>(in, out, n);
}

// The ops this variant compiles: those with a float form, the scalar-only ones in the baseline alone.
template <class Op>
constexpr bool kCopied = HasArray<Op>::value && (!ScalarOnly<Op>::value || EF_ISA_BASELINE);

template <class Op, class T>
constexpr UnaryBlockFn<T> entry() {
  if constexpr (kCopied<Op>) {
    return &unary_block<Op, T>;
  } else {
    return nullptr;
  }
}

// out[i] = F(a[i], b[i]) (and with a or b one scalar), as the eager kernels apply F (the loops of
// broadcast.h's BinaryRuns, here file-local so each copy compiles its own).
template <class F, class T, class O>
void binary_block(const T* a, const T* b, O* out, int64_t n) {
  const F f;
  for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
}
template <class F, class T, class O>
void binary_scalar_left(T a, const T* b, O* out, int64_t n) {
  const F f;
  for (int64_t i = 0; i < n; ++i) out[i] = f(a, b[i]);
}
template <class F, class T, class O>
void binary_scalar_right(const T* a, T b, O* out, int64_t n) {
  const F f;
  for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b);
}

// Integer division has no copies.
template <class F, class = void>
struct Divides : std::false_type {};
template <class F>
struct Divides<F, std::void_t<decltype(F::kIntDivisor)>> : std::bool_constant<F::kIntDivisor> {};

// One op's three forms, null where it has no copy.
template <class F, class T, class O, class Forms>
constexpr void set_forms(Forms& forms, int i) {
  if constexpr (!(std::is_integral_v<T> && Divides<F>::value)) {
    forms.both[i] = &binary_block<F, T, O>;
    forms.scalar_left[i] = &binary_scalar_left<F, T, O>;
    forms.scalar_right[i] = &binary_scalar_right<F, T, O>;
  }
}

template <class T>
constexpr IsaTypedBlocks<T> typed_blocks() {
  IsaTypedBlocks<T> t{};
#define EF_BINARY_ENTRY(NAME) \
  set_forms<binary_functors::NAME, T, T>(t.binary, kIsaBinaryIndex##NAME);
  EF_ISA_BINARY_OPS(EF_BINARY_ENTRY)
#undef EF_BINARY_ENTRY
#define EF_COMPARE_ENTRY(NAME) \
  set_forms<compare_functors::NAME, T, bool>(t.compare, kIsaCompareIndex##NAME);
  EF_ISA_COMPARE_OPS(EF_COMPARE_ENTRY)
#undef EF_COMPARE_ENTRY
  return t;
}

// The float math blocks (pow_f32.h), in the forms of IsaBinaryForms.
template <void (*Block)(const float*, const float*, float*, int64_t)>
void scalar_left_of(float a, const float* b, float* out, int64_t n) { Block(&a, b, out, n); }
template <void (*Block)(const float*, const float*, float*, int64_t)>
void scalar_right_of(const float* a, float b, float* out, int64_t n) { Block(a, &b, out, n); }

constexpr IsaBinaryForms<float, float, kIsaFloatMathOpCount> float_math_blocks() {
  IsaBinaryForms<float, float, kIsaFloatMathOpCount> t{};
  t.both[kIsaFloatMathIndexPow] = &pow_f32_block<false, false>;
  t.scalar_left[kIsaFloatMathIndexPow] = &scalar_left_of<pow_f32_block<true, false>>;
  t.scalar_right[kIsaFloatMathIndexPow] = &scalar_right_of<pow_f32_block<false, true>>;
  return t;
}

}  // namespace

// Constant-initialized: no code of this ISA runs before the CPU is checked.
extern const IsaBlocks EF_ISA_NAME(isa_blocks);
const IsaBlocks EF_ISA_NAME(isa_blocks) = {
    EF_ISA_STR(EF_ISA),
#define EF_UNARY_ENTRY(NAME, INPUT, TYPES) entry<NAME, float>(),
    {EF_UNARY_OPS(EF_UNARY_ENTRY)},
#undef EF_UNARY_ENTRY
#define EF_UNARY_ENTRY(NAME, INPUT, TYPES) entry<NAME, double>(),
    {EF_UNARY_OPS(EF_UNARY_ENTRY)},
#undef EF_UNARY_ENTRY
    typed_blocks<float>(),
    typed_blocks<double>(),
    typed_blocks<int32_t>(),
    typed_blocks<int64_t>(),
    float_math_blocks(),
};

}  // namespace ef
