// Unicode case mapping (see unicode_case.h).
#include "kernels/cpu/unicode_case.h"

#include "core/errors.h"

namespace ef {

std::string utf8_to_upper(const std::string& s) {
  throw_error(Code::kUnimplemented, "StringUpper with encoding utf-8 is not implemented");
}
std::string utf8_to_lower(const std::string& s) {
  throw_error(Code::kUnimplemented, "StringLower with encoding utf-8 is not implemented");
}

}  // namespace ef
