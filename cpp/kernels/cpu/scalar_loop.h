// ScalarLoop: a While loop over scalar variables whose cond and body are made only of
// elementwise ops that have scalar steps (elementwise_blocks.h, scalar_step.h) — counters,
// accumulators, fizzbuzz-style tests — compiled once into one register program (body, then cond
// with its last predicate fused into the jump back) and interpreted without tensors: about a
// nanosecond per op instead of a kernel call.
// graph/ walks cond and body into programs through Builder (graph/scalar_loop_lowering.h); loops
// that do not qualify run their cond/body plans (kernels/cpu/functional.cc).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "kernels/cpu/scalar_step.h"

namespace ef {

class ScalarLoop {
 public:
  struct Program;

  // Builds the program of one function (cond or body), node by node in topological order. Each
  // call returns the node's register, or -1 when the node does not qualify (then so does the loop).
  class Builder {
   public:
    Builder();
    // A loop variable: the next input of the function.
    int input(DType t);
    // A Const node of dtype `t` holding `value`.
    int constant(const TensorImpl& value, DType t);
    // Op `op` of output dtype `t` over registers `args` whose dtype is `in_t`.
    int op(const std::string& op, DType t, DType in_t, const std::vector<int>& args);
    // Appends a function output.
    void output(int reg, DType t);
    std::shared_ptr<Program> finish() { return std::move(p_); }

   private:
    std::shared_ptr<Program> p_;
  };

  // The loop of programs `cond` and `body`; null when either is null or they do not fit together.
  static std::shared_ptr<ScalarLoop> make(std::shared_ptr<Program> cond, std::shared_ptr<Program> body);
  // Runs the loop from `vars`; false (nothing done) when the inputs do not match the compiled
  // dtypes or are not scalars, or a step refused its operands (an integer division by zero), so
  // the caller runs the general path (and its errors).
  bool run(const std::vector<Tensor>& vars, std::vector<Tensor>& out) const;

 private:
  std::vector<DType> in_dtypes_;
  std::vector<ScalarReg> init_;  // the loop variables' registers, then constants and temporaries
  std::vector<ScalarInstr> code_;
  int entry_ = 0;  // the cond's first instruction
  int abort_ = 0;  // the bool register a step sets when it refuses its operands
};

}  // namespace ef
