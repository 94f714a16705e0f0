// Graph optimization before execution: passes run on a copy of a traced graph (the user's graph
// stays as traced). Each pass is its own unit (prune, constant folding, CSE, fusion) and can be
// switched off through OptimizerOptions (tf.config.optimizer.set_experimental_options).
#pragma once
#include <memory>
#include <vector>

#include "graph/graph.h"

namespace ef {

struct OptimizerOptions {
  bool pruning = true;
  bool constant_folding = true;
  bool common_subexpression_elimination = true;
  bool elementwise_fusion = true;
  bool memory_planning = true;
  bool loop_optimization = true;  // scalar While loops run in the scalar interpreter
  int min_graph_nodes = 0;  // graphs with fewer nodes are not optimized (TF's min_graph_nodes)
};
OptimizerOptions& optimizer_options();  // process-wide, like TF's

// An optimized copy of a graph, with the caller's feeds/fetches/targets mapped into it.
struct OptimizedGraph {
  std::shared_ptr<Graph> graph;
  std::vector<Node*> feeds;
  std::vector<Endpoint> fetches;
  std::vector<Node*> targets;
};

OptimizedGraph optimize(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                        const std::vector<Node*>& targets, const OptimizerOptions& options);

}  // namespace ef
