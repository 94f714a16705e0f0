// Output-shape rules of the array ops, shared by their inference functions (where a constant input
// may be unknown: pass null, get unknown dims) and their CPU kernels (values always known).
// Each rule validates like TF's kernel, with TF's messages.
#pragma once
#include <string>
#include <vector>

#include "ops/op_util.h"

namespace ef {

// Index-like inputs (shapes, axes, perms) are int32/int64 (int16 too where TF allows it).
// Throws "Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64".
void check_index_type(const OpDef& op, DType t, const char* attr, bool int16_ok = false);
std::vector<int64_t> index_values(const OpDef& op, const TensorImpl& t, const char* attr, bool int16_ok = false);
// "[1,2,3]" for error messages.
std::string list_string(const std::vector<int64_t>& v, const char* sep = ",");

Shape reshape_shape(const OpDef& op, const Shape& in, const Shape& sizes_shape, const TensorImpl* sizes);
// perm_out receives the normalized permutation (empty when unknown).
Shape transpose_shape(const OpDef& op, const Shape& in, const TensorImpl* perm, std::vector<int>* perm_out);
Shape expand_dims_shape(const OpDef& op, const Shape& in, const TensorImpl* axis);
Shape squeeze_shape(const Shape& in, const std::vector<int64_t>& squeeze_dims);
// `axis_out` receives the normalized axis (-1 when unknown).
Shape concat_shape(const OpDef& op, const std::vector<Shape>& ins, const TensorImpl* axis, int* axis_out);
Shape pack_shape(const std::vector<Shape>& ins, int64_t axis, int* axis_out);
Shape unpack_shape(const Shape& in, int64_t num, int64_t axis, int* axis_out);
// Split / SplitV: the output shapes; `sizes_out` receives the size of each piece along the axis.
std::vector<Shape> split_shapes(const Shape& in, const TensorImpl* axis, int64_t num_split, int* axis_out);
std::vector<Shape> splitv_shapes(const OpDef& op, const Shape& in, const TensorImpl* sizes, const TensorImpl* axis,
                                 int64_t num_split, int* axis_out);
Shape tile_shape(const OpDef& op, const Shape& in, const Shape& multiples_shape, const TensorImpl* multiples);
// Pad / PadV2 / MirrorPad: `pads_out` receives [before0, after0, before1, ...]. mirror: 0 none,
// 1 REFLECT, 2 SYMMETRIC.
Shape pad_shape(const OpDef& op, const Shape& in, const Shape& paddings_shape, const TensorImpl* paddings, int mirror,
                std::vector<int64_t>* pads_out);
// ReverseV2: `axes_out` receives flags, one per dim.
void reverse_axes(const OpDef& op, const Shape& in, const TensorImpl& axis, std::vector<bool>* axes_out);
Shape broadcast_to_shape(const OpDef& op, const Shape& in, const Shape& shape_shape, const TensorImpl* shape);
// GatherV2: axis and batch_dims normalized into the out parameters.
Shape gather_shape(const Shape& params, const Shape& indices, const TensorImpl* axis, int64_t batch_dims, int* axis_out,
                   int* batch_dims_out);
Shape gather_nd_shape(const Shape& params, const Shape& indices);
Shape select_shape(const Shape& cond, const Shape& t, const Shape& e);
Shape one_hot_shape(const Shape& indices, const TensorImpl* depth, int64_t axis, int* axis_out);
// Number of non-zero (true) elements, for Where (defined with its kernel).
int64_t count_nonzero(const TensorImpl& t);
Shape fill_shape(const OpDef& op, const Shape& dims_shape, const TensorImpl* dims);
// `s` unchanged, or InvalidArgument as TF's TensorShape raises it for more than 2**63 - 1 elements.
Shape checked_shape(Shape s);

}  // namespace ef

namespace ef {
// The constant value of input i during inference, or null when unknown.
inline const TensorImpl* input_value(const InferContext& c, size_t i) {
  return i < c.values.size() ? c.values[i].get() : nullptr;
}
}  // namespace ef
