// The pass pipeline: copy the graph, map the endpoints, run the enabled passes.
#include "graph/passes/optimize.h"

#include <unordered_map>

namespace ef {

OptimizerOptions& optimizer_options() {
  static OptimizerOptions o;
  return o;
}

OptimizedGraph optimize(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                        const std::vector<Node*>& targets, const OptimizerOptions& options) {
  OptimizedGraph out;
  std::unordered_map<const Node*, Node*> map;
  out.graph = g.clone(&map);
  for (Node* f : feeds) out.feeds.push_back(map.at(f));
  for (const Endpoint& e : fetches) out.fetches.push_back({map.at(e.node), e.index});
  for (Node* t : targets) out.targets.push_back(map.at(t));
  // Passes (each in its own file) are added here in order.
  (void)options;
  return out;
}

}  // namespace ef
