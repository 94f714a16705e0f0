// GraphFunction: a traced function graph with ordered inputs and outputs, the value of function
// attrs (If/While branches and bodies, PartitionedCall's f). Compiled to a Plan on first call.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "graph/executor.h"
#include "graph/graph.h"

namespace ef {

struct GraphFunction {
  std::shared_ptr<Graph> graph;
  std::vector<Node*> inputs;      // Placeholders, in call order (explicit inputs, then captures)
  std::vector<Endpoint> outputs;  // returned values
  std::string name;

  GraphFunction(std::shared_ptr<Graph> g, std::vector<Node*> in, std::vector<Endpoint> out, std::string n)
      : graph(std::move(g)),
        inputs(std::move(in)),
        outputs(std::move(out)),
        name(std::move(n)),
        stateful_(!graph->stateful_nodes().empty()) {
    graph->settle_pending();  // the graph is complete: every node has its name
  }

  // Any stateful node (print, variable assign, random): callers are stateful too (If vs StatelessIf).
  // The graph is complete when a function is made of it, so this is decided once.
  bool stateful() const { return stateful_; }
  // The compiled plan (built once, on first use, with the optimizer options of that moment).
  const Plan& plan() const;

 private:
  const bool stateful_;
  mutable std::once_flag once_;
  mutable std::shared_ptr<Plan> plan_;
};

}  // namespace ef
