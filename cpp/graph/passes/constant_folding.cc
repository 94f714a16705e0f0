// Constant folding: a stateless node whose inputs are all Const is evaluated once, now, with its
// own kernel, and becomes a Const node (same name). Nodes whose kernel fails are left alone so
// the error surfaces when the graph runs, naming the node; huge outputs are not folded.
// GCC 12 false positive: setting a DType attr inlines std::variant's move of its Shape
// alternative and reports Shape's fields "may be used uninitialized" (graph.cc shows it too).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "eager/execute.h"
#include "graph/passes/passes.h"

namespace ef {
namespace {

bool foldable(const Node& nd, const std::vector<char>& fed) {
  const std::string& t = nd.op->name;
  // Functional ops are not folded: a loop over constants may be long, and runs when called.
  if (nd.op->stateful || nd.op->runs_functions || fed[nd.id] || t == "Const" || t == "Placeholder") return false;
  if (nd.inputs.empty() || !nd.control_inputs.empty() || nd.out_dtypes.size() != 1) return false;
  if (nd.out_dtypes[0] == DType::kResource) return false;
  const Shape& s = nd.out_shapes[0];
  if (s.fully_defined() && s.num_elements() > kMaxFoldElements) return false;
  for (const Endpoint& e : nd.inputs) {
    // A Const under tf.control_dependencies runs after its dependencies: so must what reads it.
    if (e.node->op->name != "Const" || !e.node->control_inputs.empty()) return false;
    // A resource handle names mutable state: what reads it must run every time.
    if (e.node->out_dtypes[e.index] == DType::kResource) return false;
  }
  return true;
}

}  // namespace

bool fold_constants(OptimizedGraph& og) {
  std::vector<char> fed = fed_mask(og);
  const OpDef& const_op = get_op("Const");
  bool changed = false;
  std::vector<Tensor> inputs;
  for (const auto& up : og.graph->nodes()) {  // id order: folded inputs are seen before their users
    Node& nd = *up;
    if (!foldable(nd, fed)) continue;
    inputs.clear();
    for (const Endpoint& e : nd.inputs) inputs.push_back(e.node->attrs.get<Tensor>("value"));
    std::vector<Tensor> out;
    try {
      out = run_kernel(*nd.op, select_kernel(*nd.op), inputs, nd.attrs);
    } catch (...) {
      continue;  // e.g. integer division by zero: raised when the graph runs
    }
    if (out.size() != 1 || !out[0] || out[0]->is_symbolic() || out[0]->dtype() != nd.out_dtypes[0] ||
        out[0]->num_elements() > kMaxFoldElements)
      continue;
    nd.op = &const_op;
    nd.inputs.clear();
    nd.attrs = Attrs();
    nd.attrs.set("value", out[0]);
    nd.attrs.set("dtype", nd.out_dtypes[0]);
    nd.out_shapes[0] = out[0]->shape();
    changed = true;
  }
  return changed;
}

}  // namespace ef
