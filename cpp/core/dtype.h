// DType: the element types of tensors, numbered like TensorFlow's DataType enum.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/bfloat16.h"
#include "core/half.h"

namespace ef {

enum class DType : int {
  kInvalid = 0,
  kFloat32 = 1,
  kFloat64 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 5,
  kInt8 = 6,
  kString = 7,
  kComplex64 = 8,
  kInt64 = 9,
  kBool = 10,
  kBFloat16 = 14,
  kUInt16 = 17,
  kComplex128 = 18,
  kFloat16 = 19,
  kResource = 20,  // variable handles (no element data)
  kVariant = 21,   // opaque values such as TensorLists (TensorArray in graphs)
  kUInt32 = 22,
  kUInt64 = 23,
};

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

const char* dtype_name(DType t);          // TF name: "float32", "int32", "string", ...
size_t dtype_size(DType t);               // bytes per element (sizeof(std::string) for strings)
bool dtype_is_floating(DType t);          // bfloat16, float16/32/64
bool dtype_is_integer(DType t);           // signed and unsigned ints (not bool)
bool dtype_is_complex(DType t);
bool dtype_is_numeric(DType t);           // not bool, not string
bool dtype_is_valid(int enum_value);

template <typename T> struct DTypeOf;
template <> struct DTypeOf<float> { static constexpr DType value = DType::kFloat32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::kFloat64; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::kInt32; };
template <> struct DTypeOf<uint8_t> { static constexpr DType value = DType::kUInt8; };
template <> struct DTypeOf<int16_t> { static constexpr DType value = DType::kInt16; };
template <> struct DTypeOf<int8_t> { static constexpr DType value = DType::kInt8; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::kInt64; };
template <> struct DTypeOf<bool> { static constexpr DType value = DType::kBool; };
template <> struct DTypeOf<half> { static constexpr DType value = DType::kFloat16; };
template <> struct DTypeOf<complex64> { static constexpr DType value = DType::kComplex64; };
template <> struct DTypeOf<uint16_t> { static constexpr DType value = DType::kUInt16; };
template <> struct DTypeOf<uint32_t> { static constexpr DType value = DType::kUInt32; };
template <> struct DTypeOf<uint64_t> { static constexpr DType value = DType::kUInt64; };
template <> struct DTypeOf<bfloat16> { static constexpr DType value = DType::kBFloat16; };
template <> struct DTypeOf<complex128> { static constexpr DType value = DType::kComplex128; };
template <> struct DTypeOf<std::string> { static constexpr DType value = DType::kString; };

}  // namespace ef

// Dispatch helpers: run BODY with `T` bound to the C++ type of DTYPE. The default branch
// receives the unsupported dtype (usually to raise an error naming the op).
#define EF_CASE(ENUM, TYPE, ...) \
  case ::ef::DType::ENUM: {      \
    using T = TYPE;              \
    __VA_ARGS__;                 \
    break;                       \
  }

#define EF_CASES_INT(...)                     \
  EF_CASE(kInt8, int8_t, __VA_ARGS__)         \
  EF_CASE(kUInt8, uint8_t, __VA_ARGS__)       \
  EF_CASE(kInt16, int16_t, __VA_ARGS__)       \
  EF_CASE(kInt32, int32_t, __VA_ARGS__)       \
  EF_CASE(kInt64, int64_t, __VA_ARGS__)

#define EF_CASES_FLOAT(...)                   \
  EF_CASE(kFloat16, ::ef::half, __VA_ARGS__)  \
  EF_CASE(kFloat32, float, __VA_ARGS__)       \
  EF_CASE(kFloat64, double, __VA_ARGS__)

#define EF_CASES_REAL(...) EF_CASES_INT(__VA_ARGS__) EF_CASES_FLOAT(__VA_ARGS__)

// Real numbers: ints and floats.
#define EF_DISPATCH_REAL(DTYPE, DEFAULT, ...) \
  switch (DTYPE) {                            \
    EF_CASES_REAL(__VA_ARGS__)                \
    default: DEFAULT;                         \
  }

#define EF_DISPATCH_FLOAT(DTYPE, DEFAULT, ...) \
  switch (DTYPE) {                             \
    EF_CASES_FLOAT(__VA_ARGS__)                \
    default: DEFAULT;                          \
  }

#define EF_DISPATCH_INT(DTYPE, DEFAULT, ...) \
  switch (DTYPE) {                           \
    EF_CASES_INT(__VA_ARGS__)                \
    default: DEFAULT;                        \
  }

// Numbers: real numbers and complex64.
#define EF_DISPATCH_NUMERIC(DTYPE, DEFAULT, ...)      \
  switch (DTYPE) {                                    \
    EF_CASES_REAL(__VA_ARGS__)                        \
    EF_CASE(kComplex64, ::ef::complex64, __VA_ARGS__) \
    default: DEFAULT;                                 \
  }

// The dtypes TF registers few kernels for: uint16/32/64, bfloat16, complex128. The common
// dispatches above leave them out, so kernels take them only where a case list names them.
#define EF_CASES_WIDE_UINT(...)               \
  EF_CASE(kUInt16, uint16_t, __VA_ARGS__)     \
  EF_CASE(kUInt32, uint32_t, __VA_ARGS__)     \
  EF_CASE(kUInt64, uint64_t, __VA_ARGS__)

#define EF_CASES_RARE(...)                                \
  EF_CASES_WIDE_UINT(__VA_ARGS__)                         \
  EF_CASE(kBFloat16, ::ef::bfloat16, __VA_ARGS__)         \
  EF_CASE(kComplex128, ::ef::complex128, __VA_ARGS__)

// Numbers of every dtype: for kernels that select their dtypes at compile time (if constexpr).
#define EF_DISPATCH_ALL_NUMERIC(DTYPE, DEFAULT, ...)  \
  switch (DTYPE) {                                    \
    EF_CASES_REAL(__VA_ARGS__)                        \
    EF_CASE(kComplex64, ::ef::complex64, __VA_ARGS__) \
    EF_CASES_RARE(__VA_ARGS__)                        \
    default: DEFAULT;                                 \
  }

// Every fixed-size type: numbers of every dtype and bool.
#define EF_DISPATCH_POD(DTYPE, DEFAULT, ...)           \
  switch (DTYPE) {                                     \
    EF_CASES_REAL(__VA_ARGS__)                         \
    EF_CASE(kBool, bool, __VA_ARGS__)                  \
    EF_CASE(kComplex64, ::ef::complex64, __VA_ARGS__)  \
    EF_CASES_RARE(__VA_ARGS__)                         \
    default: DEFAULT;                                  \
  }
