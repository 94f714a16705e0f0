// CPU kernels for binary elementwise ops: the table's arithmetic ops (ops/binary_op_table.h, math
// in binary_functors.h; binary_division.cc and binary_math.cc expand its other lists) through one
// broadcasting kernel, plus AddV2 (strings too) and Pow (integer exponents are checked).
// Comparisons and logical ops: binary_compare.cc. Float ops propagate NaN like TF.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/binary_kernel.h"
#include "kernels/cpu/wrapping.h"
#include "ops/binary_op_table.h"

namespace ef {
namespace {

using namespace binary_kernel;  // NOLINT: the kernels' shared machinery


template <typename T>
inline T int_pow(T base, T exp) {
  WideUnsigned<T> result = 1, b = static_cast<WideUnsigned<T>>(static_cast<Unsigned<T>>(base));
  for (auto e = static_cast<Unsigned<T>>(exp); e; e >>= 1) {
    if (e & 1) result *= b;
    b *= b;
  }
  return static_cast<T>(result);
}

using add_op = binary_functors::AddV2;
void add_kernel(KernelContext& c) {
  TensorImpl* out = prepare(c, kTypesNumeric | kBitsRare | kTypesString);
  if (out->dtype() == DType::kString) {
    binary_loop<std::string, std::string, std::string>(
        *c.input(0), *c.input(1), *out, [](const std::string& a, const std::string& b) { return a + b; });
    return;
  }
  EF_DISPATCH_ALL_NUMERIC(out->dtype(), EF_UNSUPPORTED(c), binary_op_loop<add_op, T>(*c.input(0), *c.input(1), *out));
}

// Float pow (integer pow checks its exponents first, so it is not a block function). float32 runs
// the variant's vector pow (elementwise_isa.h) everywhere, one element at a time where the loop is
// strided or one element is all there is: the same bits in eager kernels, fused chains and the scalar
// loop interpreter.
struct float_pow_op {
  static constexpr int kIsaFloatMath = kIsaFloatMathIndexPow;
  template <class T>
  T operator()(T a, T b) const {
    if constexpr (std::is_same_v<T, float>) return isa_float_math<kIsaFloatMathIndexPow>(a, b);
    else return std::pow(a, b);
  }
};

template <typename T>
void pow_typed(KernelContext& c, TensorImpl* out) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (std::is_signed_v<T>) {
      const TensorImpl& y = *c.input(1);
      for (int64_t i = 0; i < y.num_elements(); ++i)
        if (y.data<T>()[i] < 0) throw_error(Code::kInvalidArgument, "Integers to negative integer powers are not allowed");
    }
    binary_loop<T, T, T>(*c.input(0), *c.input(1), *out, [](T a, T b) -> T { return int_pow(a, b); });
  } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    binary_loop<T, T, T>(*c.input(0), *c.input(1), *out, [](T a, T b) -> T { return T(std::pow(float(a), float(b))); });
  } else if constexpr (std::is_same_v<T, float>) {
    binary_loop_runs<T, T, T>(*c.input(0), *c.input(1), *out, FloatMathRuns<kIsaFloatMathIndexPow>{});
  } else {
    binary_loop<T, T, T>(*c.input(0), *c.input(1), *out, [](T a, T b) -> T { return float_pow_op()(a, b); });
  }
}

constexpr unsigned kPowTypes = kTypesNumeric | kBitsBFloat16 | kBitsComplex128;
void pow_kernel(KernelContext& c) {
  TensorImpl* out = prepare(c, kPowTypes);
  EF_DISPATCH_ALL_NUMERIC(out->dtype(), EF_UNSUPPORTED(c), {
    if constexpr ((kPowTypes & dtype_bit(DTypeOf<T>::value)) != 0) pow_typed<T>(c, out);
  });
}

EF_REGISTER_CPU_KERNEL("AddV2", add_kernel);
EF_REGISTER_CPU_KERNEL("Pow", pow_kernel);

// ---- block functions for elementwise fusion (graph/passes/fusion.cc) ----

EF_REGISTER_BINARY_BLOCK("AddV2", add_op, kBlockAll);
EF_REGISTER_BINARY_BLOCK("Pow", float_pow_op, kBlockFloats);

EF_BINARY_ARITH_OPS(EF_TABLE_BINARY_KERNEL)


}  // namespace
}  // namespace ef
