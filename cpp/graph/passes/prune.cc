// Pruning: removes the nodes that no fetch, target or feed depends on. The executor would skip
// them anyway; removing them here means the later passes and the plan only see the needed
// subgraph (a function returning nothing that calls no stateful op does no work at all).
#include "graph/passes/passes.h"

namespace ef {

bool prune(OptimizedGraph& og) {
  const Graph& g = *og.graph;
  const size_t n = g.nodes().size();
  const std::vector<char> needed = needed_nodes(g, og.feeds, og.fetches, og.targets);
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
