// Dtype sets: one bit per DType (TF's DataType numbering), for op type signatures and checks.
#pragma once
#include <cstdint>
#include <string>

#include "core/dtype.h"

namespace ef {

constexpr uint32_t dtype_bit(DType t) { return uint32_t(1) << static_cast<int>(t); }

constexpr uint32_t kBitsFloat = dtype_bit(DType::kFloat16) | dtype_bit(DType::kFloat32) | dtype_bit(DType::kFloat64);
constexpr uint32_t kBitsSignedInt =
    dtype_bit(DType::kInt8) | dtype_bit(DType::kInt16) | dtype_bit(DType::kInt32) | dtype_bit(DType::kInt64);
constexpr uint32_t kBitsInt = kBitsSignedInt | dtype_bit(DType::kUInt8);
constexpr uint32_t kBitsComplex = dtype_bit(DType::kComplex64);
// The dtypes TF registers few kernels for (core/dtype.h EF_CASES_RARE): kernel sets name them
// one by one where TF has kernels; the sets above leave them out.
constexpr uint32_t kBitsWideUInt = dtype_bit(DType::kUInt16) | dtype_bit(DType::kUInt32) | dtype_bit(DType::kUInt64);
constexpr uint32_t kBitsBFloat16 = dtype_bit(DType::kBFloat16);
constexpr uint32_t kBitsComplex128 = dtype_bit(DType::kComplex128);
constexpr uint32_t kBitsRare = kBitsWideUInt | kBitsBFloat16 | kBitsComplex128;
constexpr uint32_t kBitsIndex = dtype_bit(DType::kInt32) | dtype_bit(DType::kInt64);
// Handles: scalar references to state (resource) or opaque values (variant). Their tensors
// carry no element data, so only ops written for them may see them.
constexpr uint32_t kBitsHandle = dtype_bit(DType::kResource) | dtype_bit(DType::kVariant);

// Named sets for "T" attrs, as in TF's op definitions.
enum TypeSet : uint32_t {
  kTypesFloat = kBitsFloat,
  kTypesInt = kBitsInt,
  kTypesBool = dtype_bit(DType::kBool),
  kTypesString = dtype_bit(DType::kString),
  kTypesComplex = kBitsComplex,
  kTypesReal = kTypesFloat | kTypesInt,
  kTypesNumeric = kTypesReal | kTypesComplex,
  // Every value dtype (TF's "type" attr, no handles): kernels that only move elements take them all.
  kTypesAll = kTypesNumeric | kBitsRare | kTypesBool | kTypesString,
};

inline bool dtype_in(DType t, uint32_t types) {
  const int v = static_cast<int>(t);
  return v > 0 && v < 32 && (types & (uint32_t(1) << v)) != 0;
}

// TF's allowed lists shared by many ops' index-like inputs (Tidx, Tshape, Tperm, ...).
constexpr const char* kListIndex = "int32, int64";
constexpr const char* kListIndex16 = "int16, int32, int64";
// TF's "numbertypes" (Sum, Mean, Cumsum, ...), in the order its errors print them.
constexpr const char* kListNumber =
    "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, quint16, "
    "uint16, complex128, half, uint32, uint64";
// TF's "realnumbertypes" (Max, Min).
constexpr const char* kListRealNumber =
    "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64, qint8, quint8, qint32, "
    "qint16, quint16";
constexpr const char* kListFloatOnly = "half, bfloat16, float, double";

// "half, float, double, int32": the set as TF's messages list dtypes.
std::string type_list_string(uint32_t types);
// The bits of a TF allowed-values list ("bfloat16, half, float, ..."); names of dtypes eagerflow
// lacks (bfloat16, qint8, uint16, ...) are skipped.
uint32_t parse_type_list(const char* list);
// The DType a TF spelling names ("float", "float32", "resource"); kInvalid when none.
DType dtype_from_tf_name(const std::string& name);
// "DT_FLOAT": TF's enum spelling, as its kernel-lookup errors print dtypes.
std::string dtype_enum_name(DType t);

}  // namespace ef
