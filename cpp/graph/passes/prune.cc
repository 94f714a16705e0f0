// Pruning: removes the nodes that no fetch, target or feed depends on. The executor would skip
// them anyway; removing them here means the later passes and the plan only see the needed
// subgraph (a function returning nothing that calls no stateful op does no work at all).
#include "graph/passes/passes.h"

namespace ef {

bool prune(OptimizedGraph& og) {
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  std::vector<char> needed(n, 0);
  std::vector<const Node*> stack;
  for (const Node* f : og.feeds) stack.push_back(f);
  for (const Endpoint& e : og.fetches) stack.push_back(e.node);
  for (const Node* t : og.targets) stack.push_back(t);
  while (!stack.empty()) {
    const Node* nd = stack.back();
    stack.pop_back();
    if (needed[nd->id]) continue;
    needed[nd->id] = 1;
    for (const Endpoint& e : nd->inputs) stack.push_back(e.node);
    for (const Node* c : nd->control_inputs) stack.push_back(c);
  }
  std::vector<char> dead(n, 0);
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    dead[i] = !needed[i];
    any = any || dead[i];
  }
  if (any) rebuild(og, dead);
  return any;
}

}  // namespace ef
