// Axis parsing shared by the reduction/scan op definitions (inference) and their CPU kernels.
#pragma once
#include <vector>

#include "ops/op_util.h"

namespace ef {

// The kernels' dtypes: Sum/Mean/Prod take every number, Max/Min every real number.
constexpr uint32_t kTypesSum = kTypesNumeric | kBitsRare;
constexpr uint32_t kTypesMinMax = kTypesReal | kBitsWideUInt | kBitsBFloat16;

// Checks that an axis tensor has an allowed index dtype ("Tidx": int32/int64, or with int16).
inline void check_index_dtype(const OpDef& op, DType t, bool allow_int16 = false) {
  if (t == DType::kInt32 || t == DType::kInt64 || (allow_int16 && t == DType::kInt16)) return;
  throw_error(Code::kInvalidArgument, "Value for attr 'Tidx' of ", tf_type_string(t),
              " is not in the list of allowed values: ", allow_int16 ? "int16, " : "", "int32, int64",
              "\n\t; NodeDef: {{node ", op.name, "}}");
}

// Which of `rank` dims the reduction indices (an int tensor of any rank, read flat) select.
// Out-of-range and duplicate axes raise TF's messages.
inline std::vector<bool> reduction_mask(const OpDef& op, const TensorImpl& axes, int rank) {
  check_index_dtype(op, axes.dtype());
  std::vector<bool> mask(static_cast<size_t>(rank), false);
  for (int64_t i = 0; i < axes.num_elements(); ++i) {
    int64_t a = tensor_int_at(axes, i);
    if (a < -rank || a >= rank)
      throw_error(Code::kInvalidArgument, "Invalid reduction dimension (", a, " for input with ", rank,
                  " dimension(s)");
    int d = static_cast<int>(a < 0 ? a + rank : a);
    if (mask[d])
      throw_error(Code::kInvalidArgument, "Invalid reduction arguments: Axes contains duplicate dimension: ", d);
    mask[d] = true;
  }
  return mask;
}

// The reduced shape: masked dims removed, or kept as 1 with keep_dims.
inline Shape reduced_shape(const Shape& in, const std::vector<bool>& mask, bool keep_dims) {
  Shape out;
  for (int d = 0; d < in.rank(); ++d) {
    if (!mask[d]) out.push_back(in[d]);
    else if (keep_dims) out.push_back(1);
  }
  return out;
}

// A scalar axis for ArgMax (scan=false) or Cumsum (scan=true), normalized against `rank`.
inline int scalar_axis(const TensorImpl& axis, int rank, bool scan) {
  if (axis.rank() != 0) {
    if (scan) throw_error(Code::kInvalidArgument, "ScanOp: axis must be a scalar, not ", axis.shape().to_list_string());
    throw_error(Code::kInvalidArgument, "dim must be a scalar, but received tensor of shape: ",
                axis.shape().to_list_string());
  }
  int64_t a = tensor_int_at(axis, 0);
  if (a < -rank || a >= rank) {
    throw_error(Code::kInvalidArgument, scan ? "ScanOp: Expected scan axis" : "Expected dimension", " in the range [",
                -rank, ", ", rank, "), but got ", a);
  }
  return static_cast<int>(a < 0 ? a + rank : a);
}

}  // namespace ef
