// Shape rules shared by the linear-algebra op definitions and their kernels.
#pragma once
#include <string>

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

// The diagonals [lo, hi] a V3 diag op's `k` names (a scalar k: lo = hi = k).
struct DiagRange {
  int64_t lo, hi;
  int64_t num() const { return hi - lo + 1; }
};
DiagRange diag_range(const Tensor& k);
// Where diagonal d's first element sits in its row of a packed [num, max_len] diagonal array
// under `align` ("RIGHT_LEFT": superdiagonals right-aligned, subdiagonals left-aligned, ...).
int64_t diag_offset(const std::string& align, int64_t d, int64_t len, int64_t max_len);
// Length of diagonal k of a rows x cols matrix.
int64_t diag_length(int64_t rows, int64_t cols, int64_t k);
// The longest diagonal of the range: the packed array's last dim.
int64_t max_diag_length(int64_t rows, int64_t cols, const DiagRange& k);

}  // namespace ef
