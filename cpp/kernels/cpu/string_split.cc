// CPU kernels of StringSplit and StringSplitV2: each string's tokens as the parts of a SparseTensor
// (indices [n, 2] as (row, column), values, dense_shape [rows, longest row]).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"

namespace ef {
namespace {

bool is_ascii_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

// Python's str.split semantics as TF's StringSplitV2 has them: sep "" splits on whitespace runs
// (no empty tokens); otherwise each sep delimits, empty tokens included. After maxsplit splits the
// rest of the string (whitespace included) is one token.
void split_v2(std::string_view text, std::string_view sep, int64_t maxsplit, std::vector<std::string_view>& out) {
  if (maxsplit == 0) {
    out.push_back(text);
    return;
  }
  int64_t splits = 0;
  if (sep.empty()) {
    size_t i = 0;
    const size_t n = text.size();
    while (i < n && is_ascii_space(text[i])) ++i;
    while (i < n) {
      size_t j = i;
      while (j < n && !is_ascii_space(text[j])) ++j;
      out.push_back(text.substr(i, j - i));
      i = j;
      while (i < n && is_ascii_space(text[i])) ++i;
      if (maxsplit > 0 && ++splits == maxsplit) {
        out.push_back(text.substr(i));
        return;
      }
    }
    return;
  }
  size_t start = 0;
  for (;;) {
    const size_t p = text.find(sep, start);
    if (p == std::string_view::npos) break;
    out.push_back(text.substr(start, p - start));
    start = p + sep.size();
    if (maxsplit > 0 && ++splits == maxsplit) break;
  }
  out.push_back(text.substr(start));
}

// StringSplit (v1): every byte of the delimiter separates; "" splits into single bytes. An empty
// string has no tokens.
void split_v1(std::string_view text, std::string_view delims, bool skip_empty, std::vector<std::string_view>& out) {
  if (text.empty()) return;
  if (delims.empty()) {
    for (size_t i = 0; i < text.size(); ++i) out.push_back(text.substr(i, 1));
    return;
  }
  bool is_delim[256] = {};
  for (unsigned char ch : delims) is_delim[ch] = true;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !is_delim[static_cast<unsigned char>(text[i])]) continue;
    if (!skip_empty || i > start) out.push_back(text.substr(start, i - start));
    start = i + 1;
  }
}

// Rows split in parallel chunks: a first pass counts each row's tokens, a second writes them at their
// offsets (splitting is cheap next to making the output strings).
template <typename Split>
void split_kernel(KernelContext& c, const char* sep_name, Split split) {
  const TensorImpl &in = *c.input(0), &sep_t = *c.input(1);
  EF_INVALID(in.rank() == 1, "input must be a vector, got shape: ", in.shape().to_list_string());
  EF_INVALID(sep_t.rank() == 0, sep_name, " must be a scalar, got shape: ", sep_t.shape().to_list_string());
  const std::string& sep = sep_t.data<std::string>()[0];
  const int64_t rows = in.num_elements();
  const std::string* strs = in.data<std::string>();
  constexpr int64_t kGrain = 2048;
  std::vector<int64_t> row_start(rows + 1, 0);
  for_range(rows, [&](int64_t s, int64_t e) {
    std::vector<std::string_view> tokens;
    for (int64_t r = s; r < e; ++r) {
      tokens.clear();
      split(strs[r], sep, tokens);
      row_start[r + 1] = static_cast<int64_t>(tokens.size());
    }
  }, kGrain);
  int64_t longest = 0;
  for (int64_t r = 0; r < rows; ++r) {
    longest = std::max(longest, row_start[r + 1]);
    row_start[r + 1] += row_start[r];
  }
  const int64_t n = row_start[rows];
  int64_t* idx = c.allocate_output(0, DType::kInt64, Shape({n, 2}))->data<int64_t>();
  std::string* vals = c.allocate_output(1, DType::kString, Shape({n}))->data<std::string>();
  int64_t* shape = c.allocate_output(2, DType::kInt64, Shape({2}))->data<int64_t>();
  shape[0] = rows;
  shape[1] = longest;
  for_range(rows, [&](int64_t s, int64_t e) {
    std::vector<std::string_view> tokens;
    for (int64_t r = s; r < e; ++r) {
      tokens.clear();
      split(strs[r], sep, tokens);
      int64_t k = row_start[r];
      for (size_t col = 0; col < tokens.size(); ++col, ++k) {
        idx[2 * k] = r;
        idx[2 * k + 1] = static_cast<int64_t>(col);
        vals[k].assign(tokens[col].data(), tokens[col].size());
      }
    }
  }, kGrain);
}

void string_split_v2_kernel(KernelContext& c) {
  const int64_t maxsplit = c.attrs.get<int64_t>("maxsplit", -1);
  split_kernel(c, "sep", [maxsplit](std::string_view s, std::string_view sep, std::vector<std::string_view>& out) {
    split_v2(s, sep, maxsplit, out);
  });
}

void string_split_kernel(KernelContext& c) {
  const bool skip_empty = c.attrs.get<bool>("skip_empty", true);
  split_kernel(c, "delimiter", [skip_empty](std::string_view s, std::string_view d,
                                            std::vector<std::string_view>& out) { split_v1(s, d, skip_empty, out); });
}

EF_REGISTER_CPU_KERNEL("StringSplit", string_split_kernel);
EF_REGISTER_CPU_KERNEL("StringSplitV2", string_split_v2_kernel);

}  // namespace
}  // namespace ef
