// Plan: a graph compiled once for given feeds and fetches (topological steps, resolved kernels,
// slot indices, slots released after their last reader) and run in C++ without Python.
#pragma once
#include <memory>
#include <vector>

#include "graph/graph.h"

namespace ef {

class Plan {
 public:
  // Runs every node the fetches and `targets` depend on (targets: stateful nodes, fetched ops).
  // The plan runs an optimized copy of `g` (see graph/passes/optimize.h).
  Plan(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
       const std::vector<Node*>& targets);
  std::vector<Tensor> run(const std::vector<Tensor>& feeds) const;
  size_t num_steps() const { return steps_.size(); }
  // Names of the nodes the plan runs, in order (for tests and debugging).
  std::vector<std::string> step_names() const;

 private:
  struct Step {
    const Node* node;
    KernelFn kernel;
    std::vector<int> in;
    std::vector<int> out;
    std::vector<int> release;  // slots whose last reader is this step
  };
  std::vector<Step> steps_;
  std::vector<int> feed_slots_;
  std::vector<DType> feed_dtypes_;
  std::vector<Shape> feed_shapes_;
  std::vector<std::string> feed_names_;
  std::vector<int> fetch_slots_;
  std::vector<std::pair<int, Tensor>> consts_;
  int num_slots_ = 0;
  std::shared_ptr<Graph> optimized_;  // the optimized copy the steps point into
};

}  // namespace ef
