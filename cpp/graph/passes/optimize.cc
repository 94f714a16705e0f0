// The pass pipeline: copy the graph, map the endpoints, run the enabled passes in order.
#include "graph/passes/optimize.h"

#include <unordered_map>

#include "eager/context.h"
#include "graph/passes/passes.h"

namespace ef {

OptimizerOptions& optimizer_options() {
  static OptimizerOptions o;
  return o;
}

namespace {

// Passes run kernels (constant folding): never into a graph being built around the caller.
struct NoGraphScope {
  Graph* saved;
  NoGraphScope() : saved(thread_context().graph) { thread_context().graph = nullptr; }
  ~NoGraphScope() { thread_context().graph = saved; }
};

}  // namespace

OptimizedGraph optimize(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                        const std::vector<Node*>& targets, const OptimizerOptions& options) {
  OptimizedGraph out;
  std::unordered_map<const Node*, Node*> map;
  out.graph = g.clone(&map);
  for (Node* f : feeds) out.feeds.push_back(map.at(f));
  for (const Endpoint& e : fetches) out.fetches.push_back({map.at(e.node), e.index});
  for (Node* t : targets) out.targets.push_back(map.at(t));
  detach_feeds(out);
  if (static_cast<int64_t>(g.nodes().size()) < options.min_graph_nodes) return out;
  NoGraphScope no_graph;
  if (options.pruning) prune(out);
  bool folded = options.constant_folding && fold_constants(out);
  bool merged = options.common_subexpression_elimination && eliminate_common_subexpressions(out);
  // Folding and merging leave nodes nothing reads any more (the folded nodes' inputs).
  if (options.pruning && (folded || merged)) prune(out);
  if (options.remapping) remap(out);
  if (options.elementwise_fusion) fuse_elementwise(out);
  return out;
}

}  // namespace ef
