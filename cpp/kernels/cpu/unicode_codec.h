// Decoding and encoding of Unicode text for the Unicode ops: UTF-8 (an invalid sequence is its
// maximal valid prefix, one error each, as ICU and Python decode), UTF-16 and UTF-32 in either byte
// order (the unmarked forms read a byte-order mark, big-endian without one) and ISO-8859-1.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ef {

enum class TextEncoding { kUtf8, kUtf16BE, kUtf16LE, kUtf16, kUtf32BE, kUtf32LE, kUtf32, kLatin1 };

// Parses an encoding name as ICU names them (case-insensitive, a few aliases); false if unknown.
bool parse_text_encoding(const std::string& name, TextEncoding* out);

inline bool valid_code_point(int64_t cp) { return cp >= 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF); }

// Calls on_char(code_point, byte_start) for each character of s; code_point is -1 for an invalid
// sequence.
template <typename F>
void decode_text(TextEncoding enc, const std::string& s, F on_char) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  switch (enc) {
    case TextEncoding::kLatin1:
      for (; i < n; ++i) on_char(int32_t(p[i]), i);
      return;
    case TextEncoding::kUtf8:
      while (i < n) {
        const size_t start = i;
        const unsigned b0 = p[i++];
        if (b0 < 0x80) {
          on_char(int32_t(b0), start);
          continue;
        }
        int need;
        unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
        int32_t cp;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
          need = 1, cp = b0 & 0x1F;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
          need = 2, cp = b0 & 0x0F;
          if (b0 == 0xE0) lo = 0xA0;
          if (b0 == 0xED) hi = 0x9F;
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
          need = 3, cp = b0 & 0x07;
          if (b0 == 0xF0) lo = 0x90;
          if (b0 == 0xF4) hi = 0x8F;
        } else {
          on_char(-1, start);
          continue;
        }
        bool ok = true;
        for (int k = 0; k < need; ++k, lo = 0x80, hi = 0xBF) {
          if (i >= n || p[i] < lo || p[i] > hi) {
            ok = false;
            break;
          }
          cp = (cp << 6) | (p[i++] & 0x3F);
        }
        on_char(ok ? cp : -1, start);
      }
      return;
    case TextEncoding::kUtf16BE:
    case TextEncoding::kUtf16LE:
    case TextEncoding::kUtf16: {
      bool be = enc != TextEncoding::kUtf16LE;
      if (enc == TextEncoding::kUtf16 && n >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
        be = p[0] == 0xFE;
        i = 2;
      }
      auto unit = [&](size_t at) { return be ? (unsigned(p[at]) << 8) | p[at + 1] : (unsigned(p[at + 1]) << 8) | p[at]; };
      while (i + 1 < n) {
        const size_t start = i;
        const unsigned u = unit(i);
        i += 2;
        if (u >= 0xD800 && u <= 0xDBFF && i + 1 < n && unit(i) >= 0xDC00 && unit(i) <= 0xDFFF) {
          on_char(int32_t(0x10000 + ((u - 0xD800) << 10) + (unit(i) - 0xDC00)), start);
          i += 2;
        } else if (u >= 0xD800 && u <= 0xDBFF && i + 1 == n) {
          on_char(-1, start);  // a high surrogate and half a unit: one truncated sequence
          i = n;
        } else {
          on_char(u >= 0xD800 && u <= 0xDFFF ? -1 : int32_t(u), start);
        }
      }
      if (i < n) on_char(-1, i);
      return;
    }
    case TextEncoding::kUtf32BE:
    case TextEncoding::kUtf32LE:
    case TextEncoding::kUtf32: {
      bool be = enc != TextEncoding::kUtf32LE;
      if (enc == TextEncoding::kUtf32 && n >= 4) {
        if (p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF) i = 4;
        if (p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0) i = 4, be = false;
      }
      for (; i + 3 < n; i += 4) {
        const uint32_t u = be ? (uint32_t(p[i]) << 24) | (uint32_t(p[i + 1]) << 16) | (uint32_t(p[i + 2]) << 8) | p[i + 3]
                              : (uint32_t(p[i + 3]) << 24) | (uint32_t(p[i + 2]) << 16) | (uint32_t(p[i + 1]) << 8) | p[i];
        on_char(valid_code_point(u) ? int32_t(u) : -1, i);
      }
      if (i < n) on_char(-1, i);
      return;
    }
  }
}

// Appends a valid code point in an output encoding (UTF-8, UTF-16-BE or UTF-32-BE).
void encode_code_point(TextEncoding enc, int32_t cp, std::string& out);

}  // namespace ef
