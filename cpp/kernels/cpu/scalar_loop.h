// ScalarLoop: a While loop over scalar variables whose cond and body are made only of
// elementwise ops that have block functions (elementwise_blocks.h) or predicates
// (predicate_blocks.h) — counters, accumulators, fizzbuzz-style tests — compiled once into a
// register program and interpreted without tensors: a few ns per op instead of a kernel call.
// Loops that do not qualify run their cond/body plans (kernels/cpu/functional.cc).
#pragma once
#include <memory>
#include <vector>

#include "graph/function.h"

namespace ef {

class ScalarLoop {
 public:
  // Null when the loop does not qualify.
  static std::shared_ptr<ScalarLoop> compile(const GraphFunction& cond, const GraphFunction& body);
  // Runs the loop from `vars`; false (nothing done) when the inputs do not match the compiled
  // dtypes or are not scalars, so the caller runs the general path (and its errors).
  bool run(const std::vector<Tensor>& vars, std::vector<Tensor>& out) const;

  struct Program;

 private:
  std::shared_ptr<Program> cond_, body_;
};

}  // namespace ef
