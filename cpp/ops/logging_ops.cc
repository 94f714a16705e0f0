// Op definitions: StringFormat (tensors -> one formatted string) and PrintV2 (stateful print).
#include "ops/format_template.h"
#include "ops/op_util.h"

namespace ef {
namespace {

// StringFormat attrs: template (default "%s"), placeholder (default "%s"), summarize (default 3).
void infer_string_format(InferContext& c) {
  const std::string tmpl = c.attrs.get<std::string>("template", "%s");
  const std::string placeholder = c.attrs.get<std::string>("placeholder", "%s");
  const size_t n = split_format_template(tmpl, placeholder).size() - 1;
  if (n != c.dtypes.size())
    throw_error(Code::kInvalidArgument, "num placeholders in template and num inputs must match: ", n, " vs. ",
                c.dtypes.size());
  c.set_output(0, DType::kString, Shape());
}

void infer_print_v2(InferContext& c) {
  check_same_dtype(c.op, DType::kString, c.dtypes[0], 0);
  if (c.shapes[0].rank_known() && c.shapes[0].rank() != 0)
    throw_error(Code::kInvalidArgument, "Input is expected to be scalar, but got ", c.shapes[0].to_list_string());
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "StringFormat";
  d.inputs = {"inputs*"};
  d.attrs = {"template", "placeholder", "summarize"};
  d.infer = infer_string_format;
  return std::move(d).with_types({""}, {});
}());

// PrintV2 attrs: output_stream ("stderr" default, "stdout", "log(info)", "log(warning)",
// "log(error)", "file://<path>"), end (default "\n"). Stateful: never pruned, runs in order.
EF_REGISTER_OP([] {
  OpDef d;
  d.name = "PrintV2";
  d.inputs = {"input"};
  d.attrs = {"output_stream", "end"};
  d.infer = infer_print_v2;
  d.stateful = true;
  return std::move(d).with_types({"string"}, {});
}());

}  // namespace
}  // namespace ef
