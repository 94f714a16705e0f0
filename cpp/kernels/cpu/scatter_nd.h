// Shared by the scatter kernels (ScatterNd, TensorScatter*, TensorStridedSliceUpdate and the
// variable scatters): index resolution with TF's bounds messages and the update step.
#pragma once
#include <vector>

#include "ops/registry.h"

namespace ef {

enum class ScatterMode { kUpdate, kAdd, kSub, kMul, kDiv, kMin, kMax };

// Flat offsets, in rows of `*inner` elements, of the index vectors in the last dim of `indices`
// into the leading dims of `shape`: "indices[1] = [3, 0] does not index into shape [3,2]".
std::vector<int64_t> scatter_nd_rows(const TensorImpl& indices, const Shape& shape, int64_t* inner);
// ScatterNd's and the ResourceScatterNd ops' shape checks ("Dimensions [0,1) of indices[shape=...").
void check_scatter_nd_shapes(const Shape& out, const Shape& indices, const Shape& updates);
// TensorScatter*'s shape checks ("Outer dimensions of indices and update must match. ...").
void check_tensor_scatter_shapes(const Shape& out, const Shape& indices, const Shape& updates);
// A copy of `input` with `updates` combined in at the index vectors of `indices` (already checked).
Tensor scatter_nd_into(const OpDef& op, ScatterMode m, const TensorImpl& input, const TensorImpl& indices,
                       const TensorImpl& updates);
// The ResourceScatter ops' form: indices (any shape) pick rows of `input`'s first dim; `updates`
// is indices.shape + input.shape[1:] or a scalar for every element of those rows.
Tensor scatter_rows_into(const OpDef& op, ScatterMode m, const TensorImpl& input, const TensorImpl& indices,
                         const TensorImpl& updates);
// TF's strided-slice assignment: a copy of `input` with `value` broadcast into the slice that
// inputs 1..3 (begin, end, strides) and c's mask attrs select.
Tensor strided_slice_update(KernelContext& c, const TensorImpl& input, const TensorImpl& value);

}  // namespace ef
