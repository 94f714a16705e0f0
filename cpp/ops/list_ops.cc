// TensorList ops (TF's names): the variant-typed lists behind tf.TensorArray. A list value is
// immutable from the outside; kernels (cpp/kernels/cpu/list.cc) update in place only when nothing
// else can see the input list.
#include "ops/list_shapes.h"
#include "ops/registry.h"

namespace ef {
namespace {

// The element shape given by constant input `i`, or an unknown shape when it is not constant.
Shape const_element_shape(const InferContext& c, size_t i) {
  if (i < c.values.size() && c.values[i] && !c.values[i]->is_symbolic()) return shape_from_tensor(*c.values[i]);
  return Shape::unknown_rank();
}

DType element_dtype(const InferContext& c) { return c.attrs.get<DType>("element_dtype"); }

// Prepends `n` (-1 unknown) to an element shape.
Shape with_leading(int64_t n, const Shape& element) {
  if (!element.rank_known()) return Shape::unknown_rank();
  Shape s = element;
  s.insert(0, n);
  return s;
}

void infer_list(InferContext& c) { c.set_output(0, DType::kVariant, Shape()); }

void infer_get_item(InferContext& c) { c.set_output(0, element_dtype(c), const_element_shape(c, 2)); }

void infer_stack(InferContext& c) {
  const int64_t n = c.attrs.get<int64_t>("num_elements", -1);
  c.set_output(0, element_dtype(c), with_leading(n, const_element_shape(c, 1)));
}

void infer_gather(InferContext& c) {
  const Shape& idx = c.shapes[1];
  const int64_t n = idx.rank() == 1 ? idx[0] : -1;
  c.set_output(0, element_dtype(c), with_leading(n, const_element_shape(c, 2)));
}

void infer_length(InferContext& c) { c.set_output(0, DType::kInt32, Shape()); }

void infer_element_shape(InferContext& c) {
  c.set_output(0, c.attrs.get<DType>("shape_type", DType::kInt32), Shape::unknown_rank());
}

void infer_pop_back(InferContext& c) {
  c.set_output(0, DType::kVariant, Shape());
  c.set_output(1, element_dtype(c), const_element_shape(c, 1));
}

void infer_concat(InferContext& c) {
  Shape e = const_element_shape(c, 1);
  Shape out = Shape::unknown_rank();
  if (e.rank_known() && e.rank() >= 1) {
    out = e;
    out.set_dim(0, -1);
  }
  c.set_output(0, element_dtype(c), out);
  c.set_output(1, DType::kInt64, Shape({-1}));
}

}  // namespace

// element_dtype: the list's dtype; shape_type: int32/int64 of element_shape inputs.
// Lists of lists (variant elements): the loop-gradient accumulators of TensorArrays.
const TypeAttr kElementDType{"element_dtype", nullptr, kTypesAll | dtype_bit(DType::kVariant)};
const TypeAttr kShapeType{"shape_type", kListIndex};

EF_REGISTER_OP(make_op("EmptyTensorList", {"element_shape", "max_num_elements"}, {"element_dtype", "shape_type"},
                       infer_list)
                   .with_types({"shape_type", "int32"}, {kElementDType, kShapeType}));
EF_REGISTER_OP(make_op("TensorListReserve", {"element_shape", "num_elements"}, {"element_dtype", "shape_type"},
                       infer_list)
                   .with_types({"shape_type", "int32"}, {kElementDType, kShapeType}));
EF_REGISTER_OP(make_op("TensorListFromTensor", {"tensor", "element_shape"}, {"element_dtype", "shape_type"},
                       infer_list)
                   .with_types({"element_dtype", "shape_type"}, {kElementDType, kShapeType}));
// resize_if_index_out_of_bounds (default false): grows the list instead of failing (dynamic_size).
EF_REGISTER_OP(make_op("TensorListSetItem", {"input_handle", "index", "item"},
                       {"element_dtype", "resize_if_index_out_of_bounds"}, infer_list)
                   .with_types({"variant", "int32", "element_dtype"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListGetItem", {"input_handle", "index", "element_shape"}, {"element_dtype"},
                       infer_get_item)
                   .with_types({"variant", "int32", "Tshape"}, {kElementDType, {"Tshape", kListIndex}}));
// num_elements (default -1): the length the list must have, checked when >= 0.
EF_REGISTER_OP(make_op("TensorListStack", {"input_handle", "element_shape"}, {"element_dtype", "num_elements"},
                       infer_stack)
                   .with_types({"variant", "int32"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListGather", {"input_handle", "indices", "element_shape"}, {"element_dtype"},
                       infer_gather)
                   .with_types({"variant", "int32", "int32"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListScatterV2", {"tensor", "indices", "element_shape", "num_elements"},
                       {"element_dtype", "shape_type"}, infer_list)
                   .with_types({"element_dtype", "int32", "shape_type", "int32"}, {kElementDType, kShapeType}));
EF_REGISTER_OP(make_op("TensorListScatterIntoExistingList", {"input_handle", "tensor", "indices"}, {"element_dtype"},
                       infer_list)
                   .with_types({"variant", "element_dtype", "int32"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListLength", {"input_handle"}, {}, infer_length).with_types({"variant"}, {}));
EF_REGISTER_OP(make_op("TensorListElementShape", {"input_handle"}, {"shape_type"}, infer_element_shape)
                   .with_types({"variant"}, {kShapeType}));
EF_REGISTER_OP(make_op("TensorListPushBack", {"input_handle", "tensor"}, {"element_dtype"}, infer_list)
                   .with_types({"variant", "element_dtype"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListPopBack", {"input_handle", "element_shape"}, {"element_dtype"}, infer_pop_back)
                   .with_types({"variant", "int32"}, {kElementDType}));
EF_REGISTER_OP(make_op("TensorListResize", {"input_handle", "size"}, {}, infer_list).with_types({"variant", "int32"}, {}));
EF_REGISTER_OP(make_op("TensorListConcatV2", {"input_handle", "element_shape", "leading_dims"},
                       {"element_dtype", "shape_type"}, infer_concat)
                   .with_types({"variant", "shape_type", "int64"}, {kElementDType, kShapeType}));
EF_REGISTER_OP(make_op("TensorListSplit", {"tensor", "element_shape", "lengths"}, {"element_dtype", "shape_type"},
                       infer_list)
                   .with_types({"element_dtype", "shape_type", "int64"}, {kElementDType, kShapeType}));

}  // namespace ef
