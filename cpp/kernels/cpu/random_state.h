// Per-stream state of the stateful random kernels (like TF's kernel-held Philox state).
#pragma once
#include <cstdint>

#include "kernels/cpu/philox.h"
#include "ops/registry.h"

namespace ef {

// Forgets every stream's position: called by tf.random.set_seed so that a program re-run
// after set_seed produces the same sequence again.
void reset_random_streams();

// TF's GuardedPhiloxRandom: the generator of this kernel's stream (keyed by op, dtype and the
// seed/seed2 attrs) at its current position, which moves `blocks` ahead.
PhiloxRandom reserve_random_stream(const KernelContext& c, DType dtype, uint64_t blocks);

}  // namespace ef
