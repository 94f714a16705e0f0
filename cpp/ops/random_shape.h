// The output shape of a random op from its `shape` input (input 0), shared by the random op files.
#pragma once
#include "ops/registry.h"

namespace ef {

// The input's value when known, else a rank from its length, else an unknown rank.
Shape random_output_shape(const InferContext& c);

}  // namespace ef
