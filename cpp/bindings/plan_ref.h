// The Python handles of graph objects, shared by the binding files: NodeRef (_core.Node) and
// PlanRef (_core.Plan: a compiled plan and the graph it points into; also tf.function's C++ call
// path, bindings/function.cc).
#pragma once
#include <memory>

#include "graph/executor.h"
#include "graph/graph.h"

namespace ef {

// A node handle that keeps its graph alive.
struct NodeRef {
  std::shared_ptr<Graph> graph;
  Node* node;
};

struct PlanRef {
  std::shared_ptr<Graph> graph;  // the plan points into the graph
  std::shared_ptr<Plan> plan;
};

}  // namespace ef
