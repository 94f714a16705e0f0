// CPU kernels of UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode and UnicodeTranscode with
// TF's error policies: "replace" (replacement_char), "ignore", "strict" (InvalidArgumentError).
#include <string>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/unicode_codec.h"
#include "ops/array_shapes.h"

namespace ef {
namespace {

enum class OnError { kReplace, kIgnore, kStrict };

OnError error_policy(const KernelContext& c, const char* allowed) {
  const std::string e = c.attrs.get<std::string>("errors", "replace");
  if (e == "replace") return OnError::kReplace;
  if (e == "ignore") return OnError::kIgnore;
  if (e == "strict") return OnError::kStrict;
  throw_error(Code::kInvalidArgument, "Value for attr 'errors' of \"", e, "\" is not in the list of allowed values: ",
              allowed, "\n\t; NodeDef: {{node ", c.op.name, "}}");
}

int32_t replacement_char(const KernelContext& c) {
  const int64_t r = c.attrs.get<int64_t>("replacement_char", 0xFFFD);
  EF_INVALID(valid_code_point(r), "replacement_char out of unicode codepoint range");
  return static_cast<int32_t>(r);
}

TextEncoding input_encoding(const KernelContext& c) {
  const std::string name = c.attrs.get<std::string>("input_encoding", "");
  TextEncoding enc;
  EF_INVALID(parse_text_encoding(name, &enc), "Could not create converter for input encoding: ", name);
  return enc;
}

TextEncoding output_encoding(const KernelContext& c) {
  const std::string name = c.attrs.get<std::string>("output_encoding", "");
  if (name == "UTF-8") return TextEncoding::kUtf8;
  if (name == "UTF-16-BE") return TextEncoding::kUtf16BE;
  if (name == "UTF-32-BE") return TextEncoding::kUtf32BE;
  throw_error(Code::kInvalidArgument, "Value for attr 'output_encoding' of \"", name,
              "\" is not in the list of allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\"\n\t; NodeDef: {{node ",
              c.op.name, "}}");
}

// The decoding options every decoding op shares; apply() maps a decoded character to what is kept
// (-1: dropped).
struct DecodeOptions {
  TextEncoding enc;
  OnError on_error;
  int32_t replacement;
  bool replace_control;

  DecodeOptions(const KernelContext& c, const char* allowed_errors)
      : enc(input_encoding(c)), on_error(error_policy(c, allowed_errors)), replacement(replacement_char(c)),
        replace_control(c.attrs.get<bool>("replace_control_characters", false)) {}

  int32_t apply(int32_t cp) const {
    if (cp < 0) {
      EF_INVALID(on_error != OnError::kStrict, "Invalid formatting on input string");
      return on_error == OnError::kIgnore ? -1 : replacement;
    }
    return replace_control && cp < 0x20 ? replacement : cp;
  }
};

constexpr const char* kDecodeErrors = "\"strict\", \"replace\", \"ignore\"";

template <typename S>
void decode_kernel(KernelContext& c, bool offsets) {
  const TensorImpl& in = *c.input(0);
  const DecodeOptions opt(c, kDecodeErrors);
  const int64_t n = in.num_elements();
  const std::string* strs = in.data<std::string>();
  std::vector<int32_t> chars;
  std::vector<int64_t> starts;
  S* splits = c.allocate_output(0, c.attrs.get<DType>("Tsplits", DType::kInt64), Shape({n + 1}))->data<S>();
  splits[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    decode_text(opt.enc, strs[i], [&](int32_t cp, size_t start) {
      const int32_t kept = opt.apply(cp);
      if (kept < 0) return;
      chars.push_back(kept);
      if (offsets) starts.push_back(static_cast<int64_t>(start));
    });
    splits[i + 1] = static_cast<S>(chars.size());
  }
  const int64_t m = static_cast<int64_t>(chars.size());
  std::copy(chars.begin(), chars.end(), c.allocate_output(1, DType::kInt32, Shape({m}))->data<int32_t>());
  if (offsets) std::copy(starts.begin(), starts.end(), c.allocate_output(2, DType::kInt64, Shape({m}))->data<int64_t>());
}

template <bool kOffsets>
void unicode_decode_kernel(KernelContext& c) {
  if (c.attrs.get<DType>("Tsplits", DType::kInt64) == DType::kInt32) return decode_kernel<int32_t>(c, kOffsets);
  decode_kernel<int64_t>(c, kOffsets);
}

void unicode_encode_kernel(KernelContext& c) {
  const TensorImpl &values = *c.input(0), &splits_t = *c.input(1);
  const OnError on_error = error_policy(c, "\"ignore\", \"replace\", \"strict\"");
  const TextEncoding enc = output_encoding(c);
  const int32_t replacement = replacement_char(c);
  EF_INVALID(values.rank() == 1, "input_values must be a vector, got shape: ", values.shape().to_list_string());
  EF_INVALID(splits_t.rank() == 1, "input_splits must be a vector, got shape: ", splits_t.shape().to_list_string());
  const std::vector<int64_t> splits = index_values(c.op, splits_t, "Tsplits");
  const int64_t nvals = values.num_elements();
  EF_INVALID(!splits.empty(), "Input_splits should contain elements, but given input_values has ", nvals,
             " elements");
  EF_INVALID(splits[0] == 0, "First value in input_splits must be zero.");
  for (size_t i = 1; i < splits.size(); ++i) {
    EF_INVALID(splits[i] >= splits[i - 1], "Values in input_splits must be equal or in ascending order.");
    EF_INVALID(splits[i] <= nvals, "Values in input_splits must be less than or equal to input_tensor length.");
  }
  EF_INVALID(splits.back() == nvals, "Last value in input_splits must be equal to length of input_tensor.");
  const int32_t* cps = values.data<int32_t>();
  const int64_t rows = static_cast<int64_t>(splits.size()) - 1;
  std::string* out = c.allocate_output(0, DType::kString, Shape({rows}), false)->data<std::string>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = splits[r]; k < splits[r + 1]; ++k) {
      int32_t cp = cps[k];
      if (!valid_code_point(cp)) {
        EF_INVALID(on_error != OnError::kStrict, "Code point is out of range for Unicode, or is a surrogate.");
        if (on_error == OnError::kIgnore) continue;
        cp = replacement;
      }
      encode_code_point(enc, cp, out[r]);
    }
  }
}

void unicode_transcode_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const DecodeOptions opt(c, kDecodeErrors);
  const TextEncoding out_enc = output_encoding(c);
  TensorImpl* out = c.allocate_output(0, DType::kString, in.shape(), false);
  const std::string* pi = in.data<std::string>();
  std::string* po = out->data<std::string>();
  for (int64_t i = 0; i < in.num_elements(); ++i)
    decode_text(opt.enc, pi[i], [&](int32_t cp, size_t) {
      const int32_t kept = opt.apply(cp);
      if (kept >= 0) encode_code_point(out_enc, kept, po[i]);
    });
}

EF_REGISTER_CPU_KERNEL("UnicodeDecode", unicode_decode_kernel<false>);
EF_REGISTER_CPU_KERNEL("UnicodeDecodeWithOffsets", unicode_decode_kernel<true>);
EF_REGISTER_CPU_KERNEL("UnicodeEncode", unicode_encode_kernel);
EF_REGISTER_CPU_KERNEL("UnicodeTranscode", unicode_transcode_kernel);

}  // namespace
}  // namespace ef
