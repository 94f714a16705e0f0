// Encoding names and code point encoders (see unicode_codec.h).
#include "kernels/cpu/unicode_codec.h"

#include <cctype>

namespace ef {

bool parse_text_encoding(const std::string& name, TextEncoding* out) {
  std::string n;
  for (char ch : name) n += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  struct Alias { const char* name; TextEncoding enc; };
  static const Alias kAliases[] = {
      {"UTF-8", TextEncoding::kUtf8},        {"UTF8", TextEncoding::kUtf8},
      {"UTF-16-BE", TextEncoding::kUtf16BE}, {"UTF-16BE", TextEncoding::kUtf16BE},
      {"UTF-16-LE", TextEncoding::kUtf16LE}, {"UTF-16LE", TextEncoding::kUtf16LE},
      {"UTF-16", TextEncoding::kUtf16},      {"UTF16", TextEncoding::kUtf16},
      {"UTF-32-BE", TextEncoding::kUtf32BE}, {"UTF-32BE", TextEncoding::kUtf32BE},
      {"UTF-32-LE", TextEncoding::kUtf32LE}, {"UTF-32LE", TextEncoding::kUtf32LE},
      {"UTF-32", TextEncoding::kUtf32},      {"UTF32", TextEncoding::kUtf32},
      {"ISO-8859-1", TextEncoding::kLatin1}, {"LATIN1", TextEncoding::kLatin1},
      {"LATIN-1", TextEncoding::kLatin1},    {"ISO_8859-1", TextEncoding::kLatin1},
  };
  for (const Alias& a : kAliases)
    if (n == a.name) {
      *out = a.enc;
      return true;
    }
  return false;
}

void encode_code_point(TextEncoding enc, int32_t cp, std::string& out) {
  const uint32_t u = static_cast<uint32_t>(cp);
  switch (enc) {
    case TextEncoding::kUtf16BE:
      if (u >= 0x10000) {
        const uint32_t v = u - 0x10000, hi = 0xD800 + (v >> 10), lo = 0xDC00 + (v & 0x3FF);
        out += {static_cast<char>(hi >> 8), static_cast<char>(hi & 0xFF), static_cast<char>(lo >> 8),
                static_cast<char>(lo & 0xFF)};
      } else {
        out += {static_cast<char>(u >> 8), static_cast<char>(u & 0xFF)};
      }
      return;
    case TextEncoding::kUtf32BE:
      out += {static_cast<char>(u >> 24), static_cast<char>((u >> 16) & 0xFF), static_cast<char>((u >> 8) & 0xFF),
              static_cast<char>(u & 0xFF)};
      return;
    default:  // UTF-8
      if (u < 0x80) {
        out += static_cast<char>(u);
      } else if (u < 0x800) {
        out += {static_cast<char>(0xC0 | (u >> 6)), static_cast<char>(0x80 | (u & 0x3F))};
      } else if (u < 0x10000) {
        out += {static_cast<char>(0xE0 | (u >> 12)), static_cast<char>(0x80 | ((u >> 6) & 0x3F)),
                static_cast<char>(0x80 | (u & 0x3F))};
      } else {
        out += {static_cast<char>(0xF0 | (u >> 18)), static_cast<char>(0x80 | ((u >> 12) & 0x3F)),
                static_cast<char>(0x80 | ((u >> 6) & 0x3F)), static_cast<char>(0x80 | (u & 0x3F))};
      }
  }
}

}  // namespace ef
