// Partial element shapes of TensorLists: what the list ops' inference and kernels share.
#pragma once
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/tensor.h"

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

// "[2,?]" / "<unknown>" as TF's PartialTensorShape prints in list-op messages.
inline std::string partial_shape_string(const Shape& s) {
  if (!s.rank_known()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ",";
    out += s[i] < 0 ? std::string("?") : std::to_string(s[i]);
  }
  return out + "]";
}

// Merges two partial shapes into the most specific one; false when they conflict.
inline bool merge_shapes(const Shape& a, const Shape& b, Shape* out) {
  if (!a.rank_known()) {
    *out = b;
    return true;
  }
  if (!b.rank_known()) {
    *out = a;
    return true;
  }
  if (a.rank() != b.rank()) return false;
  Shape m = a;
  for (int i = 0; i < a.rank(); ++i) {
    if (a[i] >= 0 && b[i] >= 0 && a[i] != b[i]) return false;
    if (a[i] < 0) m.set_dim(i, b[i]);
  }
  *out = m;
  return true;
}

}  // namespace ef
