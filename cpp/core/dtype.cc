// DType names and properties.
#include "core/dtype.h"

namespace ef {

const char* dtype_name(DType t) {
  switch (t) {
    case DType::kFloat32: return "float32";
    case DType::kFloat64: return "float64";
    case DType::kInt32: return "int32";
    case DType::kUInt8: return "uint8";
    case DType::kInt16: return "int16";
    case DType::kInt8: return "int8";
    case DType::kString: return "string";
    case DType::kComplex64: return "complex64";
    case DType::kInt64: return "int64";
    case DType::kBool: return "bool";
    case DType::kFloat16: return "float16";
    case DType::kBFloat16: return "bfloat16";
    case DType::kUInt16: return "uint16";
    case DType::kUInt32: return "uint32";
    case DType::kUInt64: return "uint64";
    case DType::kComplex128: return "complex128";
    case DType::kResource: return "resource";
    case DType::kVariant: return "variant";
    default: return "invalid";
  }
}

size_t dtype_size(DType t) {
  switch (t) {
    case DType::kFloat32: return 4;
    case DType::kFloat64: return 8;
    case DType::kInt32: return 4;
    case DType::kUInt8: return 1;
    case DType::kInt16: return 2;
    case DType::kInt8: return 1;
    case DType::kString: return sizeof(std::string);
    case DType::kComplex64: return 8;
    case DType::kInt64: return 8;
    case DType::kBool: return 1;
    case DType::kFloat16: return 2;
    case DType::kBFloat16: return 2;
    case DType::kUInt16: return 2;
    case DType::kUInt32: return 4;
    case DType::kUInt64: return 8;
    case DType::kComplex128: return 16;
    default: return 0;
  }
}

bool dtype_is_floating(DType t) {
  return t == DType::kFloat16 || t == DType::kBFloat16 || t == DType::kFloat32 || t == DType::kFloat64;
}
bool dtype_is_integer(DType t) {
  return t == DType::kInt8 || t == DType::kUInt8 || t == DType::kInt16 || t == DType::kInt32 ||
         t == DType::kInt64 || t == DType::kUInt16 || t == DType::kUInt32 || t == DType::kUInt64;
}
bool dtype_is_complex(DType t) { return t == DType::kComplex64 || t == DType::kComplex128; }
bool dtype_is_numeric(DType t) { return dtype_is_floating(t) || dtype_is_integer(t) || dtype_is_complex(t); }
bool dtype_is_valid(int v) { return dtype_size(static_cast<DType>(v)) != 0; }

}  // namespace ef
