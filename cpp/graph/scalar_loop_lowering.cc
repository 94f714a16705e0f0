// The graph walk of the scalar loop compiler: needed nodes in order, Consts, scalar edges. Which
// ops qualify, and how they run, is ScalarLoop::Builder's call.
#include "graph/scalar_loop_lowering.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ef {
namespace {

bool is_scalar(const Shape& s) { return s.rank_known() && s.rank() == 0; }

std::shared_ptr<ScalarLoop::Program> lower(const GraphFunction& f) {
  const Graph& g = *f.graph;
  if (f.stateful()) return nullptr;
  std::vector<char> needed = needed_nodes(g, f.inputs, f.outputs, {});
  ScalarLoop::Builder b;
  std::unordered_map<const Node*, int> reg;
  for (Node* in : f.inputs) {
    if (!is_scalar(in->out_shapes[0])) return nullptr;
    const int r = b.input(in->out_dtypes[0]);
    if (r < 0) return nullptr;
    reg[in] = r;
  }
  for (const auto& up : g.nodes()) {
    const Node* nd = up.get();
    if (!needed[nd->id] || reg.count(nd)) continue;
    if (nd->out_dtypes.size() != 1 || !is_scalar(nd->out_shapes[0])) return nullptr;
    const std::string& op = nd->op->name;
    const DType t = nd->out_dtypes[0];
    int out;
    if (op == "Const") {
      out = b.constant(*nd->attrs.get<Tensor>("value"), t);
    } else {
      if (op == "Placeholder") return nullptr;  // not an input of the function
      std::vector<int> args;
      for (const Endpoint& e : nd->inputs) {
        auto it = reg.find(e.node);
        if (it == reg.end() || e.index != 0) return nullptr;
        args.push_back(it->second);
      }
      const DType in_t = nd->inputs.empty() ? t : nd->inputs[0].node->out_dtypes[0];
      for (const Endpoint& e : nd->inputs)
        if (e.node->out_dtypes[0] != in_t) return nullptr;
      out = b.op(op, t, in_t, args);
    }
    if (out < 0) return nullptr;
    reg[nd] = out;
  }
  for (const Endpoint& e : f.outputs) {
    auto it = reg.find(e.node);
    if (it == reg.end() || e.index != 0) return nullptr;
    b.output(it->second, e.node->out_dtypes[0]);
  }
  return b.finish();
}

}  // namespace

std::shared_ptr<ScalarLoop> compile_scalar_loop(const GraphFunction& cond, const GraphFunction& body) {
  std::shared_ptr<ScalarLoop::Program> c = lower(cond);
  std::shared_ptr<ScalarLoop::Program> b = lower(body);
  return ScalarLoop::make(std::move(c), std::move(b));
}

}  // namespace ef
