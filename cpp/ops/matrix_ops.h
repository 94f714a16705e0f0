// Shape rules shared by the linear-algebra op definitions and their kernels.
#pragma once
#include "ops/registry.h"

namespace ef {

// Rank >= 2 and square last two dims, else InvalidArgument with `not_square`.
void check_square(const Shape& s, const char* not_square);
// The dims before the last two.
Shape batch_of(const Shape& s);
// Broadcast of the batch dims (all but the last two) of two shapes.
Shape broadcast_batch(const Shape& a, const Shape& b);

}  // namespace ef

namespace ef {

// The one diagonal a V3 diag op's `k` names (Unimplemented for a band k[0] < k[1]).
int64_t single_diag_index(const Tensor& k);
// Length of diagonal k of a rows x cols matrix.
int64_t diag_length(int64_t rows, int64_t cols, int64_t k);

}  // namespace ef
