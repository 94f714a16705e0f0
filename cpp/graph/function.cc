// GraphFunction: lazy compilation of a function graph.
#include "graph/function.h"

namespace ef {

const Plan& GraphFunction::plan() const {
  std::call_once(once_, [this] {
    std::vector<Node*> targets(graph->stateful_nodes().begin(), graph->stateful_nodes().end());
    plan_ = std::make_shared<Plan>(*graph, inputs, outputs, targets);
  });
  return *plan_;
}

}  // namespace ef
