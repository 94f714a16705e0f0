// StringFormat template splitting (see format_template.h).
#include "ops/format_template.h"

namespace ef {

std::vector<std::string> split_format_template(const std::string& tmpl, const std::string& placeholder) {
  std::vector<std::string> pieces;
  if (placeholder.empty()) {
    for (char c : tmpl) pieces.emplace_back(1, c);
    if (pieces.empty()) pieces.emplace_back();
    return pieces;
  }
  size_t start = 0;
  for (size_t at; (at = tmpl.find(placeholder, start)) != std::string::npos; start = at + placeholder.size())
    pieces.push_back(tmpl.substr(start, at - start));
  pieces.push_back(tmpl.substr(start));
  return pieces;
}

}  // namespace ef
