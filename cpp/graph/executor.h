// Plan: a graph compiled once for given feeds and fetches (topological steps, resolved kernels,
// slot indices, slots released after their last reader) and run in C++ without Python.
#pragma once
#include <memory>
#include <vector>

#include "core/buffer_pool.h"
#include "graph/graph.h"

namespace ef {

class Plan {
 public:
  // Runs every node the fetches and `targets` depend on (targets: stateful nodes, fetched ops).
  // The plan runs an optimized copy of `g` (see graph/passes/optimize.h).
  Plan(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
       const std::vector<Node*>& targets);
  std::vector<Tensor> run(std::vector<Tensor> feeds) const;  // move feeds in when done with them
  // Scratch vectors a caller keeps across runs of one plan (loop bodies run it per iteration:
  // no allocation per run).
  struct Workspace {
    std::vector<Tensor> slots, inputs, out;
    BufferPool pool;
    const Plan* loaded = nullptr;  // the plan whose constants are in `slots` (kept across runs)
  };
  // Runs with `feeds` (moved from), writing the fetched values to `result`.
  void run(std::vector<Tensor>& feeds, Workspace& ws, std::vector<Tensor>& result) const;
  size_t num_steps() const { return steps_.size(); }
  // A few small elementwise steps: cheaper to run than to release and retake Python's GIL.
  bool light() const { return light_; }
  // Names of the nodes the plan runs, in order (for tests and debugging).
  std::vector<std::string> step_names() const;

 private:
  struct Step {
    const Node* node;
    KernelFn kernel;
    std::vector<int> in;
    std::vector<int> out;
    std::vector<int> release;  // slots whose last reader is this step (not moved in)
    std::vector<char> consume;  // per input: this step is the slot's only last read, move it
  };
  // Run-loop bookkeeping computed once the steps exist: which inputs can be moved out of their
  // slots (saves refcount traffic and lets their buffers be reused right after the kernel).
  void finish_steps();
  static void own_passed_through_inputs(const Step& s, const std::vector<Tensor>& slots, std::vector<Tensor>& inputs,
                                        std::vector<Tensor>& out);
  bool light_ = false;
  std::vector<Step> steps_;
  std::vector<int> feed_slots_;
  std::vector<DType> feed_dtypes_;
  std::vector<Shape> feed_shapes_;
  std::vector<std::string> feed_names_;
  std::vector<int> fetch_slots_;
  std::vector<char> fetch_move_;     // per fetch: its slot is read by nothing after, move it out
  std::vector<int> cleanup_slots_;   // non-const slots that can still hold a value after the steps
  std::vector<std::pair<int, Tensor>> consts_;
  int num_slots_ = 0;
  std::shared_ptr<Graph> optimized_;
  bool memory_planning_ = true;  // reuse released buffers (OptimizerOptions::memory_planning)  // the optimized copy the steps point into
};

}  // namespace ef
