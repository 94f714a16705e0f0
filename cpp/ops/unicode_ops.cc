// Op definitions of the Unicode ops: UnicodeDecode(WithOffsets) (strings -> row_splits and code
// points of a flat ragged tensor), UnicodeEncode (the reverse), UnicodeTranscode and UnicodeScript
// (elementwise).
#include "ops/array_shapes.h"
#include "ops/types.h"

namespace ef {
namespace {

void infer_unicode_decode(InferContext& c) {
  const Shape& in = c.shapes[0];
  int64_t rows = -1;
  if (in.fully_defined()) rows = in.num_elements() + 1;
  c.set_output(0, c.attrs.get<DType>("Tsplits", DType::kInt64), Shape({rows}));
  c.set_output(1, DType::kInt32, Shape({-1}));
  if (c.op.name == "UnicodeDecodeWithOffsets") c.set_output(2, DType::kInt64, Shape({-1}));
}

void infer_unicode_encode(InferContext& c) {
  const Shape &values = c.shapes[0], &splits = c.shapes[1];
  EF_INVALID(!values.rank_known() || values.rank() == 1, "Shape must be rank 1 but is rank ", values.rank());
  EF_INVALID(!splits.rank_known() || splits.rank() == 1, "Shape must be rank 1 but is rank ", splits.rank());
  c.set_output(0, DType::kString, Shape({splits.rank_known() && splits[0] >= 0 ? splits[0] - 1 : -1}));
}

void infer_unicode_transcode(InferContext& c) { c.set_output(0, DType::kString, c.shapes[0]); }

OpDef decode(const char* name) {
  return make_op(name, {"input"},
                 {"input_encoding", "errors", "replacement_char", "replace_control_characters", "Tsplits"},
                 infer_unicode_decode)
      .with_types({"string"}, {{"Tsplits", kListIndex}});
}

// errors: "replace" (default, replacement_char: default U+FFFD), "ignore" or "strict".
EF_REGISTER_OP(decode("UnicodeDecode"));
EF_REGISTER_OP(decode("UnicodeDecodeWithOffsets"));
// output_encoding: "UTF-8", "UTF-16-BE" or "UTF-32-BE".
EF_REGISTER_OP(make_op("UnicodeEncode", {"input_values", "input_splits"},
                       {"errors", "output_encoding", "replacement_char", "Tsplits"}, infer_unicode_encode)
                   .with_types({"int32", "Tsplits"}, {{"Tsplits", kListIndex}}));
EF_REGISTER_OP([] {
  OpDef d = make_op("UnicodeTranscode", {"input"},
                    {"input_encoding", "output_encoding", "errors", "replacement_char", "replace_control_characters"},
                    infer_unicode_transcode)
                .with_types({"string"}, {});
  d.elementwise = true;
  return d;
}());
// ICU's UScriptCode of each int32 code point (kernels/cpu/unicode_script.cc).
EF_REGISTER_OP([] {
  OpDef d = make_op("UnicodeScript", {"input"}, {}, [](InferContext& c) { c.set_output(0, DType::kInt32, c.shapes[0]); })
                .with_types({"int32"}, {});
  d.elementwise = true;
  return d;
}());

}  // namespace
}  // namespace ef
