// StridedSlice / Slice: turning (begin, end, strides, masks) into a per-dimension slice of the input,
// with TF's exact semantics and messages. Shared by the op's inference and its CPU kernel.
#pragma once
#include <vector>

#include "ops/op_util.h"

namespace ef {

struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink_axis = 0;
};

// One entry per input dimension: element begin and stride and the number of elements taken
// (-1 when unknown during inference), plus the final (user visible) output shape.
struct SliceSpec {
  std::vector<int64_t> begin, stride, size;
  Shape final_shape;
};

// `begin`/`end`/`strides` are the sparse spec (length n, the same for all three); pass null
// pointers when their values are unknown (then only n and the masks are used).
SliceSpec strided_slice_spec(const Shape& in, int n, const int64_t* begin, const int64_t* end, const int64_t* strides,
                             const StridedSliceMasks& m);
// tf.slice's Slice op: begin + size (size -1 means "to the end").
SliceSpec slice_spec(const Shape& in, const std::vector<int64_t>& begin, const std::vector<int64_t>& size);

// Validates the index inputs of StridedSlice (begin, end, strides: `shapes`/`dtypes`/`values`
// hold inputs 1..3, values may be null) or Slice (begin, size: inputs 1..2) and computes the spec.
SliceSpec strided_slice_inputs(const OpDef& op, const Shape& in, const DType* dtypes, const Shape* shapes,
                               const TensorImpl* const* values, const Attrs& attrs);
SliceSpec slice_inputs(const OpDef& op, const Shape& in, const DType* dtypes, const Shape* shapes,
                       const TensorImpl* const* values);

}  // namespace ef
