// The broadcasting binary elementwise ops with one output of the inputs' dtype, one line each:
// X(Name, input names, dtypes with a kernel, TF's allowed list for "T", dtypes fused kernels may run).
// math_binary_ops.cc makes each op's definition from it and kernels/cpu/binary.cc its CPU kernel
// and fusion block functions; the per-element math is the functor struct `Name` in
// kernels/cpu/binary_functors.h; three lists, so the kernels compile in three files (binary.cc,
// binary_division.cc, binary_math.cc). Block sets: integer division can fail, so only float blocks.
// (AddV2 on strings and integer Pow have kernels of their own.)
#pragma once
#include "ops/types.h"

namespace ef {
// Real numbers of every dtype (uint16/32/64 and bfloat16 too): the comparisons' kernel set.
constexpr unsigned kTypesOrdered = kTypesReal | kBitsWideUInt | kBitsBFloat16;
}  // namespace ef

#define EF_TF_LIST_MUL \
  "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, int64, complex64, complex128"
#define EF_TF_LIST_MINMAX "bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64, uint64"
#define EF_TF_LIST_BITWISE "int8, int16, int32, int64, uint8, uint16, uint32, uint64"
#define EF_TF_LIST_FLOAT_COMPLEX "half, bfloat16, float, double, complex64, complex128"

#define EF_BINARY_ARITH_OPS(X) \
  X(Sub, "x", "y", kTypesNumeric | kBitsRare,                                                                                         \
    "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, complex64, complex128, uint32, "  \
    "uint64",                                                                                                   \
    kBlockAll) \
  X(Mul, "x", "y", kTypesNumeric | kBitsRare, EF_TF_LIST_MUL, kBlockAll) \
  X(Maximum, "x", "y", kTypesReal | kBitsWideUInt | kBitsBFloat16, EF_TF_LIST_MINMAX, kBlockAll) \
  X(Minimum, "x", "y", kTypesReal | kBitsWideUInt | kBitsBFloat16, EF_TF_LIST_MINMAX, kBlockAll) \
  X(SquaredDifference, "x", "y", kTypesNumeric | kBitsBFloat16 | kBitsComplex128, "bfloat16, half, float, double, int32, int64, complex64, complex128",     \
    kBlockAll)

#define EF_BINARY_DIVISION_OPS(X) \
  X(RealDiv, "x", "y", kTypesNumeric | kBitsBFloat16 | kBitsComplex128, EF_TF_LIST_MUL, kBlockFloats) \
  X(FloorDiv, "x", "y", kTypesReal | kBitsWideUInt | kBitsBFloat16, EF_TF_LIST_MUL, kBlockFloats) \
  X(FloorMod, "x", "y", kTypesReal | kBitsWideUInt | kBitsBFloat16, "int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float, double", \
    kBlockFloats) \
  X(TruncateDiv, "x", "y", kTypesNumeric | kBitsWideUInt | kBitsBFloat16, EF_TF_LIST_MUL, kBlockFloats) \
  X(TruncateMod, "x", "y", kTypesReal, "int32, int64, bfloat16, half, float, double", kBlockFloats) \
  X(DivNoNan, "x", "y", kTypesFloat | kTypesComplex | kBitsBFloat16 | kBitsComplex128, "half, float, bfloat16, double, complex64, complex128", kBlockFloats) \
  X(MulNoNan, "x", "y", kTypesFloat | kTypesComplex | kBitsBFloat16 | kBitsComplex128, "bfloat16, half, float, double, complex64, complex128", kBlockFloats)

#define EF_BINARY_MATH_OPS(X)                                                                                   \
  X(Atan2, "y", "x", kTypesFloat | kBitsBFloat16, "bfloat16, half, float, double", kBlockFloats)                                          \
  X(Xlogy, "x", "y", kTypesFloat | kTypesComplex | kBitsBFloat16 | kBitsComplex128, EF_TF_LIST_FLOAT_COMPLEX, kBlockFloats)                                 \
  X(Xdivy, "x", "y", kTypesFloat | kTypesComplex | kBitsBFloat16 | kBitsComplex128, EF_TF_LIST_FLOAT_COMPLEX, kBlockFloats)                                 \
  X(NextAfter, "x1", "x2", kTypesFloat, "double, float", kBlockFloats)                                                      \
  X(Zeta, "x", "q", kTypesFloat, "float, double", kBlockFloats)                                                           \
  X(Polygamma, "a", "x", kTypesFloat, "float, double", kBlockFloats)                                                      \
  X(BitwiseAnd, "x", "y", kTypesInt | kBitsWideUInt, EF_TF_LIST_BITWISE, kBlockInts)                                                      \
  X(BitwiseOr, "x", "y", kTypesInt | kBitsWideUInt, EF_TF_LIST_BITWISE, kBlockInts)                                                       \
  X(BitwiseXor, "x", "y", kTypesInt | kBitsWideUInt, EF_TF_LIST_BITWISE, kBlockInts)                                                      \
  X(LeftShift, "x", "y", kTypesInt | kBitsWideUInt, EF_TF_LIST_BITWISE, kBlockInts)                                                       \
  X(RightShift, "x", "y", kTypesInt | kBitsWideUInt, EF_TF_LIST_BITWISE, kBlockInts)

#define EF_BINARY_OPS(X) EF_BINARY_ARITH_OPS(X) EF_BINARY_DIVISION_OPS(X) EF_BINARY_MATH_OPS(X)

// Comparisons, with a bool output: X(Name, dtypes with a kernel, TF's allowed list for "T" or
// nullptr for any type). kernels/cpu/binary_compare.cc makes each op's CPU kernel and its scalar
// loop predicates from the functor `Name` there. Strings compare too.
#define EF_TF_LIST_COMPARE "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64"
#define EF_COMPARE_OPS(X)                   \
  X(Less, kTypesOrdered, EF_TF_LIST_COMPARE)         \
  X(LessEqual, kTypesOrdered, EF_TF_LIST_COMPARE)    \
  X(Greater, kTypesOrdered, EF_TF_LIST_COMPARE)      \
  X(GreaterEqual, kTypesOrdered, EF_TF_LIST_COMPARE) \
  X(Equal, kTypesAll, nullptr)                    \
  X(NotEqual, kTypesAll, nullptr)

// The logical binary ops: bool inputs and output, no "T" attr.
#define EF_LOGICAL_OPS(X) X(LogicalAnd) X(LogicalOr)
