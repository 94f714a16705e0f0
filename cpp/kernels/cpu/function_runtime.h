// FunctionRuntime: how the functional kernels (If, While, PartitionedCall) run their function
// attrs. A GraphFunction, its compiled Plan and the graph walk that lowers a loop into a scalar
// program belong to graph/, a layer above kernels: graph/ implements this interface and registers
// it at static-init time (graph/function_runtime.cc), like TF's FunctionLibraryRuntime.
#pragma once
#include <memory>
#include <vector>

#include "core/tensor.h"
#include "kernels/cpu/scalar_loop.h"
#include "ops/attrs.h"

namespace ef {

class FunctionRuntime {
 public:
  // A function ready for repeated runs: its plan and the scratch its runs reuse (a While loop's
  // iterations allocate nothing but their outputs).
  class Runner {
   public:
    virtual ~Runner() = default;
    // Runs with `args` (moved from), writing the results to `out`.
    virtual void run(std::vector<Tensor>& args, std::vector<Tensor>& out) = 0;
  };

  virtual ~FunctionRuntime() = default;
  // Whether `f` has a stateful node (print, variable assign, random).
  virtual bool stateful(const GraphFunction& f) const = 0;
  // f(args) through its plan (compiled on first use).
  virtual std::vector<Tensor> run(const GraphFunction& f, std::vector<Tensor> args) const = 0;
  virtual std::unique_ptr<Runner> runner(const GraphFunction& f) const = 0;
  // Whether While loops may run as scalar programs (OptimizerOptions::loop_optimization).
  virtual bool loop_optimization() const = 0;
  // The loop as a scalar program; null when it does not qualify.
  virtual std::shared_ptr<ScalarLoop> compile_scalar_loop(const GraphFunction& cond,
                                                          const GraphFunction& body) const = 0;
};

// Kept in a function-local static: registration may run before this file's static init.
void register_function_runtime(const FunctionRuntime* runtime);
// The registered runtime; Internal error when none is (a build without graph/).
const FunctionRuntime& function_runtime();

}  // namespace ef
