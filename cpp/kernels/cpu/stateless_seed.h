// The Philox generator of a stateless op's seed input, shared by the stateless kernels.
#pragma once
#include "kernels/cpu/philox.h"
#include "ops/registry.h"

namespace ef {

// TF's GenerateKey over input `input`, an int32/int64 seed of shape [2] (InvalidArgument otherwise).
PhiloxRandom philox_from_seed(const KernelContext& c, size_t input);

}  // namespace ef
