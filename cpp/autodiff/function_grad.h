// Support for gradients of functional ops (calls, If, While): the variables a function reads
// (implicit inputs of its call on a tape) and re-executing a function's nodes through execute().
#pragma once
#include <vector>

#include "core/tensor.h"
#include "ops/attrs.h"

namespace ef {

struct GraphFunction;

// The resource handles (variables) that the function attrs in `attrs` read, directly or through
// nested function attrs, without duplicates, in a fixed order. Graphs hold variable handles as
// Const nodes, so a call's inputs do not show them; the tape appends them to a recorded call's
// inputs so that variable gradients flow. Cached per function.
const std::vector<Tensor>& implicit_resource_inputs(const Attrs& attrs);

// Re-executes the nodes of `f` that its outputs depend on (over data edges: side-effect-only nodes
// are left out), feeding `args` for its input placeholders, through execute(): eagerly, or into the
// graph being built, and recorded by active tapes. Returns the values of `f`'s outputs.
std::vector<Tensor> inline_function(const GraphFunction& f, const std::vector<Tensor>& args);

// Like inline_function, but nothing runs: each node's outputs become new placeholders of the graph
// being built and the node is recorded on the active tapes with them, so a gradient built from
// the tape reads the forward values from those placeholders (fed with values the forward call
// saved) instead of recomputing them. Returns f's outputs (placeholders) and, per placeholder
// made, the endpoint of f it stands for (a tensor of f's graph).
struct Replay {
  std::vector<Tensor> outputs;
  std::vector<Tensor> placeholders;
  std::vector<Tensor> endpoints;
};
Replay replay_function(const GraphFunction& f, const std::vector<Tensor>& args);

}  // namespace ef
