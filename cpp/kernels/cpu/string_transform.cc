// CPU kernels of the string-to-string elementwise ops: StringUpper, StringLower (ASCII, or full
// Unicode case mapping for encoding "utf-8"), StringStrip and Substr (bytes or UTF-8 characters).
#include <string>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/unicode_case.h"
#include "kernels/cpu/utf8.h"
#include "ops/op_util.h"

namespace ef {
namespace {

template <typename F>
void map_strings(KernelContext& c, F f) {
  const TensorImpl& in = *c.input(0);
  TensorImpl* out = c.allocate_output(0, DType::kString, in.shape(), false);
  const std::string* pi = in.data<std::string>();
  std::string* po = out->data<std::string>();
  for_range(in.num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) f(pi[i], po[i]);
  }, 4096);
}

template <bool kUpper>
void change_case_kernel(KernelContext& c) {
  const std::string encoding = c.attrs.get<std::string>("encoding", "");
  if (encoding.empty()) {
    return map_strings(c, [](const std::string& s, std::string& o) {
      o = s;
      for (char& ch : o) {
        if (kUpper && ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 32);
        if (!kUpper && ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch + 32);
      }
    });
  }
  EF_INVALID(encoding == "utf-8", "only utf-8 or '' (no encoding) is supported, received ", encoding);
  map_strings(c, [](const std::string& s, std::string& o) { o = kUpper ? utf8_to_upper(s) : utf8_to_lower(s); });
}

bool is_ascii_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

void string_strip_kernel(KernelContext& c) {
  map_strings(c, [](const std::string& s, std::string& o) {
    size_t b = 0, e = s.size();
    while (b < e && is_ascii_space(s[b])) ++b;
    while (e > b && is_ascii_space(s[e - 1])) --e;
    o.assign(s, b, e - b);
  });
}

// One Substr element: pos may count from the end (-size .. size is valid); a negative len takes the
// rest of the string.
template <bool kUtf8>
void substr_one(const std::string& s, int64_t pos, int64_t len, int64_t index, std::string& out) {
  const int64_t size = kUtf8 ? utf8_length(s) : static_cast<int64_t>(s.size());
  if (pos < -size || pos > size) {
    if (kUtf8) throw_error(Code::kInvalidArgument, "pos ", pos, " out of range for string at index ", index);
    throw_error(Code::kInvalidArgument, "pos ", pos, " out of range for string b'", s, "' at index ", index);
  }
  if (pos < 0) pos += size;
  if (len < 0 || len > size - pos) len = size - pos;
  if (!kUtf8) {
    out.assign(s, static_cast<size_t>(pos), static_cast<size_t>(len));
    return;
  }
  const size_t begin = utf8_offset(s, 0, pos);
  out.assign(s, begin, utf8_offset(s, begin, len) - begin);
}

template <typename I, bool kUtf8>
void substr_loop(KernelContext& c) {
  const TensorImpl &in = *c.input(0), &pos_t = *c.input(1), &len_t = *c.input(2);
  const Shape out_shape = in.shape() == pos_t.shape() ? in.shape() : broadcast_shapes(in.shape(), pos_t.shape());
  TensorImpl* out = c.allocate_output(0, DType::kString, out_shape, false);
  const std::vector<int64_t> sin = broadcast_strides(in.shape(), out_shape),
                             spos = broadcast_strides(pos_t.shape(), out_shape);
  const std::string* strs = in.data<std::string>();
  const I *pos = pos_t.data<I>(), *len = len_t.data<I>();
  std::string* po = out->data<std::string>();
  const int rank = out_shape.rank();
  std::vector<int64_t> at(rank, 0);
  int64_t ii = 0, pi = 0;
  const int64_t n = out->num_elements();
  for (int64_t k = 0; k < n; ++k) {
    substr_one<kUtf8>(strs[ii], pos[pi], len[pi], k, po[k]);
    for (int d = rank - 1; d >= 0; --d) {  // advance the multi-index
      ii += sin[d];
      pi += spos[d];
      if (++at[d] < out_shape[d]) break;
      ii -= sin[d] * at[d];
      pi -= spos[d] * at[d];
      at[d] = 0;
    }
  }
}

void substr_kernel(KernelContext& c) {
  const TensorImpl &pos = *c.input(1), &len = *c.input(2);
  EF_INVALID(pos.shape() == len.shape(), "pos and len should have the same shape, got: ",
             pos.shape().to_list_string(), " vs. ", len.shape().to_list_string());
  const std::string unit = c.attrs.get<std::string>("unit", "BYTE");
  EF_INVALID(unit == "BYTE" || unit == "UTF8_CHAR", "Value for attr 'unit' of \"", unit,
             "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"\n\t; NodeDef: {{node Substr}}");
  const bool utf8 = unit == "UTF8_CHAR";
  if (pos.dtype() == DType::kInt64) return utf8 ? substr_loop<int64_t, true>(c) : substr_loop<int64_t, false>(c);
  utf8 ? substr_loop<int32_t, true>(c) : substr_loop<int32_t, false>(c);
}

EF_REGISTER_CPU_KERNEL("StringUpper", change_case_kernel<true>);
EF_REGISTER_CPU_KERNEL("StringLower", change_case_kernel<false>);
EF_REGISTER_CPU_KERNEL("StringStrip", string_strip_kernel);
EF_REGISTER_CPU_KERNEL("Substr", substr_kernel);

}  // namespace
}  // namespace ef
