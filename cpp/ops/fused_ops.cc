// Op definition of _FusedElementwise: a chain of elementwise ops over one shape, created by the
// fusion pass (graph/passes/fusion.cc), never by users. Its program lives in its attrs:
//   T: the dtype of every input and output;  shape: the fully known shape of the chain;
//   program: 3 ints per step (block op id, operand a, operand b or -1), operands numbering the
//            node's inputs first, then the steps' results;
//   outputs: the values the node outputs (results also used outside the chain);
//   ops: the op type of each step (for printing and tests).
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_fused(InferContext& c) {
  const DType t = c.attrs.get<DType>("T");
  const Shape s = c.attrs.get<Shape>("shape");
  const std::vector<int64_t> outs = c.attrs.get<std::vector<int64_t>>("outputs");
  for (size_t i = 0; i < outs.size(); ++i) c.set_output(i, t, s);
}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "_FusedElementwise";
  d.inputs = {"inputs*"};
  d.attrs = {"T", "shape", "program", "outputs", "ops"};
  d.infer = infer_fused;
  d.elementwise = true;  // reads its inputs only during the call; has no block function, so never fused again
  return std::move(d).with_types({"T"}, {{"T", nullptr, kTypesNumeric | kTypesBool}});
}());

}  // namespace
}  // namespace ef
