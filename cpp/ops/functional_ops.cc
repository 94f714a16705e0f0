// Functional (control-flow) ops: If/StatelessIf, While/StatelessWhile and
// PartitionedCall/StatefulPartitionedCall. Each holds function attrs (graph/function.h); the
// stateful variants are used when a function contains stateful ops, so they keep program order.
#include "ops/registry.h"

namespace ef {
namespace {

// Outputs typed by a dtype-list attr (`Tout` or `T`) with shapes from `output_shapes` when given.
void infer_from_attrs(InferContext& c, const char* types_attr) {
  auto dtypes = c.attrs.get<std::vector<DType>>(types_attr, {});
  auto shapes = c.attrs.get<std::vector<Shape>>("output_shapes", {});
  for (size_t i = 0; i < dtypes.size(); ++i)
    c.set_output(i, dtypes[i], i < shapes.size() ? shapes[i] : Shape::unknown_rank());
}

void infer_tout(InferContext& c) { infer_from_attrs(c, "Tout"); }
void infer_t(InferContext& c) { infer_from_attrs(c, "T"); }

OpDef functional(const char* name, std::vector<std::string> inputs, std::vector<std::string> attrs, InferFn infer,
                 bool stateful) {
  OpDef d = make_op(name, std::move(inputs), std::move(attrs), infer);
  d.stateful = stateful;
  d.runs_functions = true;
  // Tin / T are list(type) attrs: the called functions' placeholders check the inputs.
  return std::move(d).with_types(std::vector<std::string>(d.inputs.size(), ""), {});
}

}  // namespace

EF_REGISTER_OP(functional("If", {"cond", "input*"}, {"Tcond", "Tin", "Tout", "then_branch", "else_branch", "output_shapes"},
                          infer_tout, true));
EF_REGISTER_OP(functional("StatelessIf", {"cond", "input*"},
                          {"Tcond", "Tin", "Tout", "then_branch", "else_branch", "output_shapes"}, infer_tout, false));
EF_REGISTER_OP(functional("While", {"input*"}, {"T", "cond", "body", "output_shapes", "parallel_iterations"}, infer_t,
                          true));
EF_REGISTER_OP(functional("StatelessWhile", {"input*"}, {"T", "cond", "body", "output_shapes", "parallel_iterations"},
                          infer_t, false));
EF_REGISTER_OP(functional("PartitionedCall", {"args*"}, {"Tin", "Tout", "f"}, infer_tout, false));
EF_REGISTER_OP(functional("StatefulPartitionedCall", {"args*"}, {"Tin", "Tout", "f"}, infer_tout, true));

}  // namespace ef
