// Unicode case mapping (see unicode_case.h) from the generated tables in unicode_case_table.inc:
// single-character mappings as runs, multi-character ones as strings, and the Cased and
// Case_Ignorable properties for the final-sigma rule. Invalid UTF-8 becomes U+FFFD, as ICU's does.
#include "kernels/cpu/unicode_case.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "kernels/cpu/unicode_codec.h"

namespace ef {
namespace {

struct CaseRun { int32_t first, last, delta, stride; };
struct CaseSpecial { int32_t cp; const char* utf8; };
struct CodeRange { int32_t first, last; };

#include "kernels/cpu/unicode_case_table.inc"

struct CaseMap {
  std::unordered_map<int32_t, int32_t> simple;
  std::unordered_map<int32_t, const char*> special;
};

template <size_t R, size_t S>
CaseMap build(const CaseRun (&runs)[R], const CaseSpecial (&specials)[S]) {
  CaseMap m;
  for (const CaseRun& r : runs)
    for (int32_t c = r.first; c <= r.last; c += r.stride) m.simple[c] = c + r.delta;
  for (const CaseSpecial& s : specials) m.special[s.cp] = s.utf8;
  return m;
}

template <size_t N>
bool in_ranges(const CodeRange (&ranges)[N], int32_t cp) {
  const CodeRange* it = std::upper_bound(ranges, ranges + N, cp, [](int32_t c, const CodeRange& r) { return c < r.first; });
  return it != ranges && cp <= (it - 1)->last;
}

std::vector<int32_t> code_points(const std::string& s) {
  std::vector<int32_t> cps;
  cps.reserve(s.size());
  decode_text(TextEncoding::kUtf8, s, [&](int32_t cp, size_t) { cps.push_back(cp < 0 ? 0xFFFD : cp); });
  return cps;
}

// Python's (and ICU's) rule: a capital sigma is final when a cased letter precedes it and none
// follows it, skipping case-ignorable characters on both sides.
bool final_sigma(const std::vector<int32_t>& cps, size_t i) {
  size_t j = i;
  while (j > 0 && in_ranges(kCaseIgnorable, cps[j - 1])) --j;
  if (j == 0 || !in_ranges(kCased, cps[j - 1])) return false;
  size_t k = i + 1;
  while (k < cps.size() && in_ranges(kCaseIgnorable, cps[k])) ++k;
  return k == cps.size() || !in_ranges(kCased, cps[k]);
}

std::string convert(const std::string& s, const CaseMap& m, bool lower) {
  std::string out;
  out.reserve(s.size());
  const std::vector<int32_t> cps = code_points(s);
  for (size_t i = 0; i < cps.size(); ++i) {
    const int32_t cp = cps[i];
    if (lower && cp == 0x3A3) {
      encode_code_point(TextEncoding::kUtf8, final_sigma(cps, i) ? 0x3C2 : 0x3C3, out);
      continue;
    }
    if (auto sp = m.special.find(cp); sp != m.special.end()) {
      out += sp->second;
      continue;
    }
    auto it = m.simple.find(cp);
    encode_code_point(TextEncoding::kUtf8, it == m.simple.end() ? cp : it->second, out);
  }
  return out;
}

}  // namespace

std::string utf8_to_upper(const std::string& s) {
  static const CaseMap m = build(kUpperRuns, kUpperSpecial);
  return convert(s, m, false);
}

std::string utf8_to_lower(const std::string& s) {
  static const CaseMap m = build(kLowerRuns, kLowerSpecial);
  return convert(s, m, true);
}

}  // namespace ef
