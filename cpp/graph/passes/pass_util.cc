// Helpers shared by the passes: use lists, feeds, and rebuilding a graph without dead nodes.
#include <unordered_map>

#include "core/errors.h"
#include "graph/passes/passes.h"

namespace ef {

std::vector<std::vector<std::pair<Node*, int>>> consumers(const Graph& g) {
  std::vector<std::vector<std::pair<Node*, int>>> out(g.nodes().size());
  for (const auto& up : g.nodes())
    for (size_t i = 0; i < up->inputs.size(); ++i) out[up->inputs[i].node->id].emplace_back(up.get(), static_cast<int>(i));
  return out;
}

std::vector<char> fed_mask(const OptimizedGraph& og) {
  std::vector<char> fed(og.graph->nodes().size(), 0);
  for (const Node* f : og.feeds) fed[f->id] = 1;
  return fed;
}

void detach_feeds(OptimizedGraph& og) {
  for (Node* f : og.feeds) {
    if (f->op->name == "Placeholder" || f->out_dtypes.size() != 1) continue;
    Attrs a;
    a.set("dtype", f->out_dtypes[0]);
    a.set("shape", f->out_shapes[0]);
    f->op = &get_op("Placeholder");
    f->inputs.clear();
    f->control_inputs.clear();
    f->attrs = std::move(a);
  }
}

void rebuild(OptimizedGraph& og, const std::vector<char>& dead) {
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  // Depth-first from each live node in id order, inputs first: keeps id order where it is
  // already topological and moves a node after its inputs where a pass broke that.
  std::vector<char> state(n, 0);  // 0 unvisited, 1 on the stack, 2 placed
  std::vector<const Node*> order;
  order.reserve(n);
  std::vector<std::pair<const Node*, size_t>> stack;
  auto pred = [](const Node* nd, size_t i) -> const Node* {
    return i < nd->inputs.size() ? nd->inputs[i].node : nd->control_inputs[i - nd->inputs.size()];
  };
  for (const auto& up : g.nodes()) {
    if (dead[up->id] || state[up->id]) continue;
    stack.emplace_back(up.get(), 0);
    state[up->id] = 1;
    while (!stack.empty()) {
      auto& [nd, next] = stack.back();
      if (next < nd->inputs.size() + nd->control_inputs.size()) {
        const Node* p = pred(nd, next++);
        if (dead[p->id]) throw_error(Code::kInternal, "optimizer: node ", nd->name, " uses removed node ", p->name);
        if (state[p->id] == 1) throw_error(Code::kInternal, "optimizer: cycle through node ", p->name);
        if (state[p->id] == 0) {
          state[p->id] = 1;
          stack.emplace_back(p, 0);
        }
        continue;
      }
      state[nd->id] = 2;
      order.push_back(nd);
      stack.pop_back();
    }
  }
  std::shared_ptr<Graph> out = Graph::create();
  out->name = g.name;
  out->auto_control_deps = false;  // control edges are copied as they are
  std::vector<Node*> map(n, nullptr);
  for (const Node* nd : order) {
    std::vector<Endpoint> ins;
    ins.reserve(nd->inputs.size());
    for (const Endpoint& e : nd->inputs) ins.push_back({map[e.node->id], e.index});
    Node* c = out->add_node(*nd->op, std::move(ins), nd->attrs, nd->name);
    for (const Node* ctl : nd->control_inputs) c->control_inputs.push_back(map[ctl->id]);
    c->out_dtypes = nd->out_dtypes;  // keep what the passes decided (e.g. folded shapes)
    c->out_shapes = nd->out_shapes;
    c->device = nd->device;
    map[nd->id] = c;
  }
  out->auto_control_deps = g.auto_control_deps;
  auto mapped = [&](const Node* nd) {
    Node* m = map[nd->id];
    if (!m) throw_error(Code::kInternal, "optimizer: removed node ", nd->name, " is still fed, fetched or a target");
    return m;
  };
  for (Node*& f : og.feeds) f = mapped(f);
  for (Endpoint& e : og.fetches) e.node = mapped(e.node);
  for (Node*& t : og.targets) t = mapped(t);
  og.graph = std::move(out);
}

}  // namespace ef
