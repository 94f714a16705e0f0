// Op definitions: shape and data-movement ops (Reshape, Transpose, ConcatV2, Pack, Split, Tile,
// Pad, ReverseV2, BroadcastTo, ...). Shape/axis/perm arguments are int32/int64 tensor inputs, as in TF.
#include "ops/array_shapes.h"

namespace ef {
namespace {

void infer_reshape(InferContext& c) {
  c.set_output(0, c.dtypes[0], reshape_shape(c.op, c.shapes[0], c.shapes[1], input_value(c, 1)));
}

void infer_transpose(InferContext& c) {
  std::vector<int> perm;
  c.set_output(0, c.dtypes[0], transpose_shape(c.op, c.shapes[0], input_value(c, 1), &perm));
}

void infer_expand_dims(InferContext& c) {
  c.set_output(0, c.dtypes[0], expand_dims_shape(c.op, c.shapes[0], input_value(c, 1)));
}

void infer_squeeze(InferContext& c) {
  c.set_output(0, c.dtypes[0], squeeze_shape(c.shapes[0], c.attrs.get<std::vector<int64_t>>("squeeze_dims", {})));
}

void infer_concat(InferContext& c) {
  const size_t n = c.dtypes.size() - 1;
  for (size_t i = 1; i < n; ++i) check_same_dtype(c.op, c.dtypes[0], c.dtypes[i], static_cast<int>(i));
  std::vector<Shape> shapes(c.shapes.begin(), c.shapes.begin() + n);
  int axis;
  c.set_output(0, c.dtypes[0], concat_shape(c.op, shapes, input_value(c, n), &axis));
}

void infer_pack(InferContext& c) {
  for (size_t i = 1; i < c.dtypes.size(); ++i) check_same_dtype(c.op, c.dtypes[0], c.dtypes[i], static_cast<int>(i));
  int axis;
  c.set_output(0, c.dtypes[0], pack_shape(c.shapes, c.attrs.get<int64_t>("axis", 0), &axis));
}

void infer_unpack(InferContext& c) {
  const int64_t num = c.attrs.get<int64_t>("num");
  int axis;
  Shape piece = unpack_shape(c.shapes[0], num, c.attrs.get<int64_t>("axis", 0), &axis);
  for (int64_t i = 0; i < num; ++i) c.set_output(i, c.dtypes[0], piece);
}

void infer_split(InferContext& c) {
  int axis;
  auto shapes = split_shapes(c.shapes[1], input_value(c, 0), c.attrs.get<int64_t>("num_split"), &axis);
  for (size_t i = 0; i < shapes.size(); ++i) c.set_output(i, c.dtypes[1], shapes[i]);
}

void infer_splitv(InferContext& c) {
  int axis;
  auto shapes = splitv_shapes(c.op, c.shapes[0], input_value(c, 1), input_value(c, 2),
                              c.attrs.get<int64_t>("num_split"), &axis);
  for (size_t i = 0; i < shapes.size(); ++i) c.set_output(i, c.dtypes[0], shapes[i]);
}

void infer_tile(InferContext& c) {
  c.set_output(0, c.dtypes[0], tile_shape(c.op, c.shapes[0], c.shapes[1], input_value(c, 1)));
}

int mirror_mode(const Attrs& attrs) {
  const std::string mode = attrs.get<std::string>("mode", "REFLECT");
  if (mode == "REFLECT") return 1;
  if (mode == "SYMMETRIC") return 2;
  throw_error(Code::kInvalidArgument, "mode must be either REFLECT or SYMMETRIC, got ", mode);
}

void infer_pad(InferContext& c) {
  const bool mirror = c.op.name == "MirrorPad";
  if (c.op.name == "PadV2") {
    check_same_dtype(c.op, c.dtypes[0], c.dtypes[2], 2);
    EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() == 0, "constant_values must be a scalar. Found: ",
               c.shapes[2].to_list_string());
  }
  std::vector<int64_t> pads;
  c.set_output(0, c.dtypes[0], pad_shape(c.op, c.shapes[0], c.shapes[1], input_value(c, 1),
                                         mirror ? mirror_mode(c.attrs) : 0, &pads));
}

void infer_reverse(InferContext& c) {
  if (const TensorImpl* axis = input_value(c, 1); axis && c.shapes[0].rank_known()) {
    std::vector<bool> axes;
    reverse_axes(c.op, c.shapes[0], *axis, &axes);
  }
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_broadcast_to(InferContext& c) {
  c.set_output(0, c.dtypes[0], broadcast_to_shape(c.op, c.shapes[0], c.shapes[1], input_value(c, 1)));
}

EF_REGISTER_OP(make_op("Reshape", {"tensor", "shape"}, {"T", "Tshape"}, infer_reshape));
EF_REGISTER_OP(make_op("Transpose", {"x", "perm"}, {"T", "Tperm"}, infer_transpose));
EF_REGISTER_OP(make_op("ExpandDims", {"input", "dim"}, {"T", "Tdim"}, infer_expand_dims));
EF_REGISTER_OP(make_op("Squeeze", {"input"}, {"T", "squeeze_dims"}, infer_squeeze));
EF_REGISTER_OP(make_op("ConcatV2", {"values*", "axis"}, {"N", "T", "Tidx"}, infer_concat));
EF_REGISTER_OP(make_op("Pack", {"values*"}, {"N", "T", "axis"}, infer_pack));
EF_REGISTER_OP(make_op("Unpack", {"value"}, {"num", "T", "axis"}, infer_unpack));
EF_REGISTER_OP(make_op("Split", {"split_dim", "value"}, {"num_split", "T"}, infer_split));
EF_REGISTER_OP(make_op("SplitV", {"value", "size_splits", "split_dim"}, {"num_split", "T", "Tlen"}, infer_splitv));
EF_REGISTER_OP(make_op("Tile", {"input", "multiples"}, {"T", "Tmultiples"}, infer_tile));
EF_REGISTER_OP(make_op("Pad", {"input", "paddings"}, {"T", "Tpaddings"}, infer_pad));
EF_REGISTER_OP(make_op("PadV2", {"input", "paddings", "constant_values"}, {"T", "Tpaddings"}, infer_pad));
EF_REGISTER_OP(make_op("MirrorPad", {"input", "paddings"}, {"T", "Tpaddings", "mode"}, infer_pad));
EF_REGISTER_OP(make_op("ReverseV2", {"tensor", "axis"}, {"Tidx", "T"}, infer_reverse));
EF_REGISTER_OP(make_op("BroadcastTo", {"input", "shape"}, {"T", "Tidx"}, infer_broadcast_to));
EF_REGISTER_OP(make_op("Identity", {"input"}, {"T"}, infer_same_as_input0));

}  // namespace
}  // namespace ef
