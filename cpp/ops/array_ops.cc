// Op definitions: shape and data-movement ops (Reshape, Transpose, ConcatV2, Pack, Split, Tile,
// Pad, ReverseV2, Roll, BroadcastTo, ...). Shape/axis/perm arguments are int32/int64 tensor inputs, as in TF.
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
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() == 1, "'dims' must be 1-dimension, not ",
             c.shapes[1].rank());
  if (const TensorImpl* axis = input_value(c, 1); axis && c.shapes[0].rank_known()) {
    std::vector<bool> axes;
    reverse_axes(c.op, c.shapes[0], *axis, &axes);
  }
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_roll(InferContext& c) {
  EF_INVALID(!c.shapes[0].rank_known() || c.shapes[0].rank() >= 1, "input must be 1-D or higher");
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() <= 1, "shift must be a scalar or a 1-D vector. Found: ",
             c.shapes[1].to_list_string());
  EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() <= 1, "axis must be a scalar or a 1-D vector. Found: ",
             c.shapes[2].to_list_string());
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_broadcast_to(InferContext& c) {
  c.set_output(0, c.dtypes[0], broadcast_to_shape(c.op, c.shapes[0], c.shapes[1], input_value(c, 1)));
}

// T is any value dtype (TF allows handles too; here they are scalars only, so only Identity
// takes them).
const std::vector<TypeAttr> kAnyT = {{"T"}};

EF_REGISTER_OP(make_op("Reshape", {"tensor", "shape"}, {"T", "Tshape"}, infer_reshape)
                   .with_types({"T", "Tshape"}, {{"T"}, {"Tshape", kListIndex}}));
EF_REGISTER_OP(make_op("Transpose", {"x", "perm"}, {"T", "Tperm"}, infer_transpose)
                   .with_types({"T", "Tperm"}, {{"T"}, {"Tperm", kListIndex}}));
EF_REGISTER_OP(make_op("ExpandDims", {"input", "dim"}, {"T", "Tdim"}, infer_expand_dims)
                   .with_types({"T", "Tdim"}, {{"T"}, {"Tdim", kListIndex}}));
EF_REGISTER_OP(make_op("Squeeze", {"input"}, {"T", "squeeze_dims"}, infer_squeeze).with_types({"T"}, kAnyT));
EF_REGISTER_OP(make_op("ConcatV2", {"values*", "axis"}, {"N", "T", "Tidx"}, infer_concat)
                   .with_types({"T", "Tidx"}, {{"T"}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(make_op("Pack", {"values*"}, {"N", "T", "axis"}, infer_pack).with_types({"T"}, kAnyT));
EF_REGISTER_OP(make_op("Unpack", {"value"}, {"num", "T", "axis"}, infer_unpack).with_types({"T"}, kAnyT));
EF_REGISTER_OP(make_op("Split", {"split_dim", "value"}, {"num_split", "T"}, infer_split)
                   .with_types({"int32", "T"}, kAnyT));
EF_REGISTER_OP(make_op("SplitV", {"value", "size_splits", "split_dim"}, {"num_split", "T", "Tlen"}, infer_splitv)
                   .with_types({"T", "Tlen", "int32"}, {{"T"}, {"Tlen", "int8, int32, int64"}}));
EF_REGISTER_OP(make_op("Tile", {"input", "multiples"}, {"T", "Tmultiples"}, infer_tile)
                   .with_types({"T", "Tmultiples"}, {{"T"}, {"Tmultiples", kListIndex}}));
EF_REGISTER_OP(make_op("Pad", {"input", "paddings"}, {"T", "Tpaddings"}, infer_pad)
                   .with_types({"T", "Tpaddings"}, {{"T"}, {"Tpaddings", kListIndex}}));
EF_REGISTER_OP(make_op("PadV2", {"input", "paddings", "constant_values"}, {"T", "Tpaddings"}, infer_pad)
                   .with_types({"T", "Tpaddings", "T"}, {{"T"}, {"Tpaddings", kListIndex}}));
EF_REGISTER_OP(make_op("MirrorPad", {"input", "paddings"}, {"T", "Tpaddings", "mode"}, infer_pad)
                   .with_types({"T", "Tpaddings"}, {{"T"}, {"Tpaddings", kListIndex}}));
EF_REGISTER_OP(make_op("ReverseV2", {"tensor", "axis"}, {"Tidx", "T"}, infer_reverse)
                   .with_types({"T", "Tidx"},
                               {{"T", "uint8, int8, uint16, int16, int32, uint32, int64, uint64, bool, bfloat16, half, "
                                      "float, double, complex64, complex128, string"},
                                {"Tidx", kListIndex}}));
EF_REGISTER_OP(make_op("Roll", {"input", "shift", "axis"}, {"T", "Tshift", "Taxis"}, infer_roll)
                   .with_types({"T", "Tshift", "Taxis"}, {{"T"}, {"Tshift", kListIndex}, {"Taxis", kListIndex}}));
EF_REGISTER_OP(make_op("BroadcastTo", {"input", "shape"}, {"T", "Tidx"}, infer_broadcast_to)
                   .with_types({"T", "Tidx"}, {{"T"}, {"Tidx", kListIndex}}));
EF_REGISTER_OP(make_op("Identity", {"input"}, {"T"}, infer_same_as_input0)
                   .with_types({"T"}, {{"T", nullptr, kTypesAll | kBitsHandle}}));

}  // namespace
}  // namespace ef
