// StringFormat's template: inference counts its placeholders, the kernel fills them.
#pragma once
#include <string>
#include <vector>

namespace ef {

// Splits a StringFormat template at each placeholder, as TF does: the result has one more piece
// than there are placeholders; an empty placeholder splits between every character.
std::vector<std::string> split_format_template(const std::string& tmpl, const std::string& placeholder);

}  // namespace ef
