// Op definitions: StringJoin (inputs list, attrs separator, N) and StringLength (attr unit).
#include "ops/op_util.h"

namespace ef {
namespace {

// StringJoin: every input is a scalar or has the one common shape (no general broadcasting).
void infer_string_join(InferContext& c) {
  Shape out;
  bool have = false;
  for (size_t i = 0; i < c.dtypes.size(); ++i) {
    check_same_dtype(c.op, DType::kString, c.dtypes[i], static_cast<int>(i));
    if (c.shapes[i].rank() == 0) continue;
    if (!have) {
      out = c.shapes[i];
      have = true;
    } else if (out.fully_defined() && c.shapes[i].fully_defined() && out != c.shapes[i]) {
      throw_error(Code::kInvalidArgument, "Input shapes do not match: ", out.to_list_string(), " vs. ",
                  c.shapes[i].to_list_string());
    }
  }
  c.set_output(0, DType::kString, out);
}

void infer_string_length(InferContext& c) {
  check_same_dtype(c.op, DType::kString, c.dtypes[0], 0);
  c.set_output(0, DType::kInt32, c.shapes[0]);
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "StringJoin";
  d.inputs = {"inputs*"};
  d.attrs = {"separator", "N"};  // separator defaults to ""
  d.infer = infer_string_join;
  return std::move(d).with_types({"string"}, {});
}());

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "StringLength";
  d.inputs = {"input"};
  d.attrs = {"unit"};  // "BYTE" (default) or "UTF8_CHAR"
  d.infer = infer_string_length;
  d.elementwise = true;
  return std::move(d).with_types({"string"}, {});
}());

}  // namespace
}  // namespace ef
