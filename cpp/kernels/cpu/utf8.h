// UTF-8 character counting and offsets as TF's string kernels count them: a character is a byte
// that does not continue a multi-byte sequence, with the continuation bytes after it (so invalid
// UTF-8 still has a length).
#pragma once
#include <cstdint>
#include <string>

namespace ef {

inline bool utf8_continuation(unsigned char ch) { return (ch & 0xC0) == 0x80; }

inline int64_t utf8_length(const std::string& s) {
  int64_t n = 0;
  for (unsigned char ch : s) n += !utf8_continuation(ch);
  return n;
}

// The byte offset `chars` characters after byte offset `from` (the string's size if it ends first).
inline size_t utf8_offset(const std::string& s, size_t from, int64_t chars) {
  size_t i = from;
  for (; chars > 0 && i < s.size(); --chars) {
    ++i;
    while (i < s.size() && utf8_continuation(static_cast<unsigned char>(s[i]))) ++i;
  }
  return i;
}

}  // namespace ef
