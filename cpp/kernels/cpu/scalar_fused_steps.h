// Superinstructions of the scalar loop interpreter (scalar_loop.h): one step function for two
// consecutive instructions, or for a whole loop of two or three, over the ops that counters and
// accumulators are made of (AddV2, Sub, Mul, the comparisons) on float32/float64/int32/int64.
// A fused step reads its operands from the instructions it covers (they stay in place, so a jump
// may still land on any of them) and uses the kernels' own functors: same results, fewer
// dispatches. A whole-loop step runs its loop natively, its values in machine registers.
#pragma once
#include <string>

#include "core/dtype.h"
#include "kernels/cpu/scalar_step.h"

namespace ef {

// What the fuser needs to know of an instruction: its op among the fusable ones, the dtype of its
// operands, and whether it is the loop's fused branch (a predicate that jumps back).
struct FusableInstr {
  int op = -1;  // scalar_fusable_op's id; -1: not fusable
  DType t = DType::kInvalid;
  bool branch = false;
};

// The id of a fusable op (-1 when `op` has no fused steps).
int scalar_fusable_op(const std::string& op);

// The step that runs instructions x then y (two values, or a value then the branch); null when
// there is none.
ScalarStep fused_pair_step(const FusableInstr& x, const FusableInstr& y);

// Makes a whole loop program of `n` (2 or 3) instructions, values then the branch back to the
// first, one native loop at code[0] when it has the shape of a counter and an accumulator (each
// value instruction updates its own output from it and one invariant or the other value; the
// branch compares a value with an invariant): the values then stay in machine registers. False
// (nothing changed) otherwise.
bool fuse_whole_loop(ScalarInstr* code, const FusableInstr* fuse, int n);

// Whether loops compiled from now on use fused steps (on by default; tests compare both ways).
bool fused_steps_enabled();
void set_fused_steps_enabled(bool on);

}  // namespace ef
