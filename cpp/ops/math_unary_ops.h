// Dtype sets of the unary math ops, shared by their op definitions and CPU kernels.
#pragma once
#include <cstdint>

#include "ops/registry.h"

namespace ef {

// The dtypes an op's "T" attr accepts. TF's op definitions sometimes allow dtypes that have
// no CPU kernel (Reciprocal on int32): those raise NotFound, all others InvalidArgument with
// TF's own list of allowed values (which names types eagerflow lacks, like bfloat16).
struct UnaryTypes {
  uint32_t kernels;        // dtypes with a kernel
  uint32_t declared_only;  // accepted by TF's op definition, but no kernel
  const char* tf_allowed;  // the list TF prints in its error message
};

// Throws InvalidArgument / NotFound as TF does when `t` has no kernel for `op`.
void check_unary_type(const OpDef& op, DType t, const UnaryTypes& types);
// ClipByValue: each bound must be a scalar or have the input's shape (TF's message otherwise).
void check_clip_shapes(const Shape& t, const Shape& lo, const Shape& hi);

namespace unary_types {
constexpr const char* kListFloatComplex = "bfloat16, half, float, double, complex64, complex128";
constexpr const char* kListFloat = "bfloat16, half, float, double";
constexpr const char* kListSignedComplex =
    "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128";

// bfloat16 and complex128 where TF's CPU kernels take them; uint16/32/64 for the ops TF has
// integer kernels of (Square, Relu, Relu6, Invert, AddN, ClipByValue).
constexpr uint32_t kBitsFloatAll = kBitsFloat | kBitsBFloat16;
constexpr uint32_t kBitsComplexAll = kBitsComplex | kBitsComplex128;
constexpr uint32_t kBitsIntAll = kBitsInt | kBitsWideUInt;

inline constexpr UnaryTypes kNeg{kBitsFloatAll | kBitsSignedInt | kBitsComplexAll, 0, kListSignedComplex};
inline constexpr UnaryTypes kAbs{kBitsFloatAll | kBitsSignedInt, 0, "bfloat16, half, float, double, int8, int16, int32, int64"};
inline constexpr UnaryTypes kFloatComplex{kBitsFloatAll | kBitsComplexAll, 0, kListFloatComplex};
inline constexpr UnaryTypes kFloat{kBitsFloatAll, 0, kListFloat};
// TF has no bfloat16 CPU kernel of Erfinv, Lgamma, Digamma.
inline constexpr UnaryTypes kFloatNoBFloat16{kBitsFloat, 0, kListFloat};
inline constexpr UnaryTypes kSquare{kBitsFloatAll | kBitsIntAll | kBitsComplexAll, 0,
                                    "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32, "
                                    "uint64, complex64, complex128"};
inline constexpr UnaryTypes kReciprocal{kBitsFloatAll | kBitsComplexAll, kBitsSignedInt, kListSignedComplex};
// Round on integers is the identity (tf.math.round returns them unchanged, uint8 included).
inline constexpr UnaryTypes kRound{kBitsFloatAll | kBitsInt, kBitsComplexAll, kListSignedComplex};
inline constexpr UnaryTypes kRelu{kBitsFloatAll | kBitsIntAll, 0,
                                  "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
                                  "uint64, qint8"};
inline constexpr UnaryTypes kRelu6{kBitsFloatAll | kBitsIntAll, 0,
                                   "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
                                   "uint64"};
inline constexpr UnaryTypes kEluFamily{kBitsFloatAll, 0, "half, bfloat16, float, double"};
inline constexpr UnaryTypes kInvert{kBitsIntAll, 0, "int8, int16, int32, int64, uint8, uint16, uint32, uint64"};
inline constexpr UnaryTypes kComplexAbs{kBitsComplexAll, 0, "complex64, complex128"};
inline constexpr UnaryTypes kConj{kBitsComplexAll, 0, "complex64, complex128, variant"};
inline constexpr UnaryTypes kClipByValue{kBitsFloatAll | kBitsIntAll, kBitsComplexAll,
                                         "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
                                         "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64"};
inline constexpr UnaryTypes kAddN{kBitsFloatAll | kBitsIntAll | kBitsComplexAll, 0,
                                  "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
                                  "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, variant"};
}  // namespace unary_types

}  // namespace ef
