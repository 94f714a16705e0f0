// PlanRef: the Python _core.Plan object (a compiled plan and the graph it points into); shared by
// the graph bindings and tf.function's C++ call path (bindings/function.cc).
#pragma once
#include <memory>

#include "graph/executor.h"
#include "graph/graph.h"

namespace ef {

struct PlanRef {
  std::shared_ptr<Graph> graph;  // the plan points into the graph
  std::shared_ptr<Plan> plan;
};

}  // namespace ef
