// Graph optimization before execution: passes run on a copy of a traced graph (the user's graph
// stays as traced). Each pass is its own unit (prune, constant folding, CSE, fusion) and can be
// switched off through OptimizerOptions (tf.config.optimizer.set_experimental_options).
#pragma once
#include <memory>
#include <vector>

#include "graph/graph.h"

namespace ef {

// The optimizer's options, one line each: X(type, name, default). The bindings read and set them
// by name from this list.
#define EF_OPTIMIZER_OPTIONS(X)                                                                  \
  X(bool, pruning, true)                                                                         \
  X(bool, constant_folding, true)                                                                \
  X(bool, common_subexpression_elimination, true)                                                \
  X(bool, remapping, true) /* Conv2D / MatMul + BiasAdd (+ Relu) as _FusedConv2D / _FusedMatMul */ \
  X(bool, elementwise_fusion, true)                                                              \
  X(bool, memory_planning, true)                                                                 \
  X(bool, loop_optimization, true) /* scalar While loops run in the scalar interpreter */        \
  X(int, min_graph_nodes, 0)       /* graphs with fewer nodes are not optimized (TF's) */

struct OptimizerOptions {
#define EF_OPTION_FIELD(TYPE, NAME, DEFAULT) TYPE NAME = DEFAULT;
  EF_OPTIMIZER_OPTIONS(EF_OPTION_FIELD)
#undef EF_OPTION_FIELD
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
