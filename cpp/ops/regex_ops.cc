// Op definitions of the regex ops (RE2 syntax): RegexFullMatch / RegexReplace take the pattern (and
// rewrite) as scalar string tensors, their Static forms as attrs.
#include "ops/op_util.h"

namespace ef {
namespace {

void require_scalar(const InferContext& c, size_t i) {
  const Shape& s = c.shapes[i];
  EF_INVALID(!s.rank_known() || s.rank() == 0, "Shape must be rank 0 but is rank ", s.rank());
}

void infer_full_match(InferContext& c) {
  if (c.shapes.size() > 1) require_scalar(c, 1);
  c.set_output(0, DType::kBool, c.shapes[0]);
}

void infer_replace(InferContext& c) {
  for (size_t i = 1; i < c.shapes.size(); ++i) require_scalar(c, i);
  c.set_output(0, DType::kString, c.shapes[0]);
}

EF_REGISTER_OP(make_op("RegexFullMatch", {"input", "pattern"}, {}, infer_full_match)
                   .with_types({"string", "string"}, {}));
EF_REGISTER_OP(make_op("StaticRegexFullMatch", {"input"}, {"pattern"}, infer_full_match).with_types({"string"}, {}));
// replace_global (default true): every non-overlapping match, else the first only.
EF_REGISTER_OP(make_op("RegexReplace", {"input", "pattern", "rewrite"}, {"replace_global"}, infer_replace)
                   .with_types({"string", "string", "string"}, {}));
EF_REGISTER_OP(make_op("StaticRegexReplace", {"input"}, {"pattern", "rewrite", "replace_global"}, infer_replace)
                   .with_types({"string"}, {}));

}  // namespace
}  // namespace ef
