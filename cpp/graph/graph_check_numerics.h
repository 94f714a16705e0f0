// tf.debugging.enable_check_numerics for graph steps (the plan executor checks each output).
#pragma once
#include <vector>

#include "eager/check_numerics.h"
#include "graph/graph.h"

namespace ef {

// Raises if an output of graph node `node` is not finite.
void check_numerics_graph(const Node& node, const std::vector<Tensor>& outputs);

}  // namespace ef
