// Dtype set spelling: TF's dtype names in allowed-value lists and DT_* enum names.
#include "ops/types.h"

#include <cctype>
#include <string>

#include "ops/registry.h"

namespace ef {

namespace {
// Every DType eagerflow has, in the order TF lists number types.
constexpr DType kAllDTypes[] = {DType::kBFloat16, DType::kFloat16, DType::kFloat32, DType::kFloat64, DType::kUInt8,
                                DType::kUInt16, DType::kUInt32, DType::kUInt64, DType::kInt8, DType::kInt16,
                                DType::kInt32, DType::kInt64, DType::kComplex64, DType::kComplex128, DType::kBool,
                                DType::kString, DType::kResource, DType::kVariant};
}  // namespace

std::string type_list_string(uint32_t types) {
  std::string out;
  for (DType t : kAllDTypes)
    if (types & dtype_bit(t)) out += (out.empty() ? "" : ", ") + std::string(tf_type_string(t));
  return out;
}

DType dtype_from_tf_name(const std::string& name) {
  for (DType t : kAllDTypes)
    if (name == tf_type_string(t) || name == dtype_name(t)) return t;
  return DType::kInvalid;
}

uint32_t parse_type_list(const char* list) {
  uint32_t bits = 0;
  std::string item;
  for (const char* p = list;; ++p) {
    if (*p == ',' || *p == '\0') {
      DType t = dtype_from_tf_name(item);
      if (t != DType::kInvalid) bits |= dtype_bit(t);
      item.clear();
      if (*p == '\0') break;
    } else if (*p != ' ') {
      item += *p;
    }
  }
  return bits;
}

std::string dtype_enum_name(DType t) {
  std::string s = "DT_";
  for (const char* p = tf_type_string(t); *p; ++p) s += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
  return s;
}

}  // namespace ef
