// Partial element shapes of TensorLists: what the list ops' inference and kernels share (the generic
// printing and merging are ops/shape_merge.h's).
#pragma once
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/tensor.h"
#include "ops/shape_merge.h"

namespace ef {

// Decodes an element_shape input: a scalar -1 is an unknown rank, a vector has -1 for unknown dims.
inline Shape shape_from_tensor(const TensorImpl& t) {
  if (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64)
    throw_error(Code::kInvalidArgument, "element_shape must be an int32 or int64 tensor, got ",
                dtype_name(t.dtype()));
  std::vector<int64_t> v = tensor_to_int_vector(t);
  if (t.rank() == 0) {
    if (v[0] == -1) return Shape::unknown_rank();
    throw_error(Code::kInvalidArgument, "The only valid scalar shape tensor is the fully unknown shape specified as -1.");
  }
  if (t.rank() != 1) throw_error(Code::kInvalidArgument, "Shape must be at most rank 1 but is rank ", t.rank());
  for (int64_t d : v)
    if (d < -1) throw_error(Code::kInvalidArgument, "Dimension ", d, " must be >= -1");
  return Shape(v);
}

}  // namespace ef
