// Op definitions: indexing ops (StridedSlice, Slice, GatherV2, GatherNd, Where, SelectV2).
#include "ops/array_shapes.h"
#include "ops/slice_spec.h"

namespace ef {
namespace {

void infer_strided_slice(InferContext& c) {
  const TensorImpl* values[3] = {input_value(c, 1), input_value(c, 2), input_value(c, 3)};
  SliceSpec spec = strided_slice_inputs(c.op, c.shapes[0], &c.dtypes[1], &c.shapes[1], values, c.attrs);
  c.set_output(0, c.dtypes[0], spec.final_shape);
}

void infer_slice(InferContext& c) {
  const TensorImpl* values[2] = {input_value(c, 1), input_value(c, 2)};
  SliceSpec spec = slice_inputs(c.op, c.shapes[0], &c.dtypes[1], &c.shapes[1], values);
  c.set_output(0, c.dtypes[0], spec.final_shape);
}

void infer_gather(InferContext& c) {
  check_index_type(c.op, c.dtypes[1], "Tindices", true);
  check_index_type(c.op, c.dtypes[2], "Taxis");
  int axis, batch_dims;
  c.set_output(0, c.dtypes[0], gather_shape(c.shapes[0], c.shapes[1], input_value(c, 2),
                                            c.attrs.get<int64_t>("batch_dims", 0), &axis, &batch_dims));
}

void infer_gather_nd(InferContext& c) {
  check_index_type(c.op, c.dtypes[1], "Tindices", true);
  c.set_output(0, c.dtypes[0], gather_nd_shape(c.shapes[0], c.shapes[1]));
}

void infer_where(InferContext& c) {
  check_type(c.op, c.dtypes[0], kTypesNumeric | kTypesBool);
  const Shape& s = c.shapes[0];
  EF_INVALID(!s.rank_known() || s.rank() > 0, "WhereOp : Unhandled input dimensions: 0");
  const TensorImpl* v = input_value(c, 0);
  c.set_output(0, DType::kInt64, s.rank_known() ? Shape({v ? count_nonzero(*v) : -1, s.rank()}) : Shape({-1, -1}));
}

void infer_select(InferContext& c) {
  check_same_dtype(c.op, DType::kBool, c.dtypes[0], 0);
  check_same_dtype(c.op, c.dtypes[1], c.dtypes[2], 2);
  c.set_output(0, c.dtypes[1], select_shape(c.shapes[0], c.shapes[1], c.shapes[2]));
}

EF_REGISTER_OP(make_op("StridedSlice", {"input", "begin", "end", "strides"},
                   {"T", "Index", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"},
                   infer_strided_slice)
                   .with_types({"T", "Index", "Index", "Index"}, {{"T"}, {"Index", kListIndex16}}));
EF_REGISTER_OP(make_op("Slice", {"input", "begin", "size"}, {"T", "Index"}, infer_slice)
                   .with_types({"T", "Index", "Index"}, {{"T"}, {"Index", kListIndex}}));
EF_REGISTER_OP(make_op("GatherV2", {"params", "indices", "axis"}, {"batch_dims", "Tparams", "Tindices", "Taxis"},
                   infer_gather)
                   .with_types({"Tparams", "Tindices", "Taxis"},
                               {{"Tparams"}, {"Tindices", kListIndex16}, {"Taxis", kListIndex}}));
EF_REGISTER_OP(make_op("GatherNd", {"params", "indices"}, {"Tparams", "Tindices"}, infer_gather_nd)
                   .with_types({"Tparams", "Tindices"}, {{"Tparams"}, {"Tindices", kListIndex16}}));
EF_REGISTER_OP(make_op("Where", {"input"}, {"T"}, infer_where)
                   .with_types({"T"}, {{"T",
                                        "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
                                        "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64, "
                                        "bool"}}));
EF_REGISTER_OP(make_op("SelectV2", {"condition", "t", "e"}, {"T"}, infer_select)
                   .with_types({"bool", "T", "T"}, {{"T"}}));

}  // namespace
}  // namespace ef
