// Copies between a tensor and slices along its first dimension (dataset slicing and batching).
#pragma once
#include "core/tensor.h"

namespace ef {

// Row `i` of `t` (shape t.shape[1:]) as a fresh tensor.
Tensor slice_row(const TensorImpl& t, int64_t i);
// Writes `row` into row `i` of `dst` (rows of dst have row's shape and dtype).
void copy_row(TensorImpl& dst, int64_t i, const TensorImpl& row);
// Rows rows[0..n) of `src` stacked into a tensor of shape [n] + src.shape[1:]: one memcpy per run
// of consecutive rows, or a view of `src` when all n are consecutive. The row numbers must be in range.
Tensor gather_rows(const TensorImpl& src, const int64_t* rows, int64_t n);

}  // namespace ef
