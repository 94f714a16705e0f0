// Op definitions: Softmax and LogSoftmax (over the last axis of logits).
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_softmax(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesFloat);
  if (c.shapes[0].rank() == 0)
    throw_error(Code::kInvalidArgument, "logits must have >= 1 dimension, got ", c.shapes[0].to_list_string());
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

OpDef softmax(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {"logits"};
  d.infer = infer_softmax;
  return std::move(d).with_types({"T"}, {{"T", kListFloatOnly}});
}

EF_REGISTER_OP(softmax("Softmax"));
EF_REGISTER_OP(softmax("LogSoftmax"));

}  // namespace
}  // namespace ef
