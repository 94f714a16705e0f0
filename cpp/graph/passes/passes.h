// The optimization passes and the helpers they share. Each pass rewrites an OptimizedGraph in
// place (node ids stay a topological order) and returns whether it changed anything.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "graph/passes/optimize.h"

namespace ef {

// Removes nodes that no fetch, target or feed depends on.
bool prune(OptimizedGraph& og);
// Evaluates stateless nodes whose inputs are all Const and replaces them by Const nodes.
bool fold_constants(OptimizedGraph& og);
// Merges nodes with the same op, inputs, control inputs and attrs (stateless ones).
bool eliminate_common_subexpressions(OptimizedGraph& og);
// Replaces Conv2D / MatMul -> BiasAdd (-> Relu) chains whose intermediate values nothing else
// reads by _FusedConv2D / _FusedMatMul nodes (TF's remapper), and SGD updates `v.assign_sub(lr * g)`
// by ResourceApplyGradientDescent, or _ResourceApplyGradientDescentMatMul when g is a MatMul.
bool remap(OptimizedGraph& og);
// Replaces chains of elementwise ops over one shape by _FusedElementwise nodes.
bool fuse_elementwise(OptimizedGraph& og);

// Outputs larger than this are not folded into constants (memory), and Const tensors larger
// than kSmallConstElements are compared by identity only in CSE (time).
constexpr int64_t kMaxFoldElements = int64_t(1) << 20;
constexpr int64_t kSmallConstElements = 1024;

// ---- helpers ----

// Attr lists hold the same names with equal values (doubles bitwise, tensors by identity or,
// when small, by value) in any order (cse.cc).
bool attrs_equal(const Attrs& a, const Attrs& b);

// For each node id: its (consumer, input index) pairs over data edges.
std::vector<std::vector<std::pair<Node*, int>>> consumers(const Graph& g);
// 1 for each fed node id.
std::vector<char> fed_mask(const OptimizedGraph& og);
// Replaces og.graph by a copy without the nodes marked in `dead` (by id), in a topological order,
// with feeds/fetches/targets mapped. Live nodes must not reference dead ones.
void rebuild(OptimizedGraph& og, const std::vector<char>& dead);
// Fed nodes with one output become Placeholders (the plan never runs them, and their inputs
// need not be computed).
void detach_feeds(OptimizedGraph& og);

}  // namespace ef
