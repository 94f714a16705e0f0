// Unicode case mapping of UTF-8 strings (StringUpper / StringLower with encoding "utf-8"): full
// mappings (one character may become several, "ß" -> "SS") and the final-sigma rule.
#pragma once
#include <string>

namespace ef {

std::string utf8_to_upper(const std::string& s);
std::string utf8_to_lower(const std::string& s);

}  // namespace ef
