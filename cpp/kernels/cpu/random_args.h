// Argument checks shared by the random kernels.
#pragma once
#include "ops/registry.h"

namespace ef {

// The shape input `input`: a vector of non-negative int32/int64 dims (TF's MakeShape errors).
Shape random_shape_arg(const KernelContext& c, size_t input);

}  // namespace ef
