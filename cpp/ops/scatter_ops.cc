// Op definitions of the scatters: TensorScatter{Update,Add,Sub,Min,Max} and
// TensorStridedSliceUpdate (new tensors), and the variable updates built on them:
// ResourceScatterNd{Update,Add,Sub,Min,Max}, ResourceScatter{Update,Add,Sub,Mul,Div,Min,Max}
// (rows of the first dim) and ResourceStridedSliceAssign (Variable.__getitem__(...).assign).
#include "ops/array_shapes.h"
#include "ops/scatter_shapes.h"

namespace ef {
namespace {

void infer_tensor_scatter(InferContext& c) {
  const Shape& is = c.shapes[1];
  EF_INVALID(!is.rank_known() || is.rank() >= 1, "Shape must be at least rank 1 but is rank ", is.rank());
  EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() >= 1, "Shape must be at least rank 1 but is rank ",
             c.shapes[2].rank());
  check_scatter_nd_static_shapes(is, c.shapes[2], c.shapes[0]);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_strided_slice_update(InferContext& c) { c.set_output(0, c.dtypes[0], c.shapes[0]); }

void infer_resource_update(InferContext& c) {
  EF_INVALID(c.dtypes[0] == DType::kResource, c.op.name, " expects a resource handle as input 0");
}

const char* const kListTensorScatterUpdateIndex = "int16, int32, int64, uint16";

OpDef tensor_scatter(const char* name, uint32_t kernels, const char* index_types = kListIndex,
                     uint32_t index_kernels = 0) {
  return make_op(name, {"tensor", "indices", "updates"}, {"T", "Tindices", "bad_indices_policy"}, infer_tensor_scatter)
      .with_types({"T", "Tindices", "T"}, {{"T", nullptr, kernels}, {"Tindices", index_types, index_kernels}});
}

OpDef resource_update(const char* name, std::vector<std::string> inputs, std::vector<std::string> attrs,
                      std::vector<std::string> types, std::vector<TypeAttr> type_attrs) {
  OpDef d = make_op(name, std::move(inputs), std::move(attrs), infer_resource_update)
                .with_types(std::move(types), std::move(type_attrs));
  d.stateful = true;
  return d;
}

OpDef resource_scatter_nd(const char* name, uint32_t kernels) {
  return resource_update(name, {"ref", "indices", "updates"}, {"T", "Tindices", "use_locking", "bad_indices_policy"},
                         {"resource", "Tindices", "T"}, {{"T", nullptr, kernels}, {"Tindices", kListIndex}});
}

OpDef resource_scatter(const char* name, const char* types, uint32_t kernels) {
  return resource_update(name, {"resource", "indices", "updates"}, {"dtype", "Tindices"},
                         {"resource", "Tindices", "dtype"}, {{"dtype", types, kernels}, {"Tindices", kListIndex}});
}

constexpr const char* kStridedSliceAttrs[] = {"T", "Index", "begin_mask", "end_mask", "ellipsis_mask",
                                              "new_axis_mask", "shrink_axis_mask"};
std::vector<std::string> strided_slice_attrs() {
  return std::vector<std::string>(std::begin(kStridedSliceAttrs), std::end(kStridedSliceAttrs));
}

EF_REGISTER_OP(tensor_scatter("TensorScatterUpdate", kTypesAll, kListTensorScatterUpdateIndex, kBitsIndex));
EF_REGISTER_OP(tensor_scatter("TensorScatterAdd", kTypesNumeric));
EF_REGISTER_OP(tensor_scatter("TensorScatterSub", kTypesNumeric));
EF_REGISTER_OP(tensor_scatter("TensorScatterMin", kTypesReal));
EF_REGISTER_OP(tensor_scatter("TensorScatterMax", kTypesReal));
EF_REGISTER_OP(make_op("TensorStridedSliceUpdate", {"input", "begin", "end", "strides", "value"}, strided_slice_attrs(),
                       infer_strided_slice_update)
                   .with_types({"T", "Index", "Index", "Index", "T"}, {{"T"}, {"Index", kListIndex}}));

EF_REGISTER_OP(resource_scatter_nd("ResourceScatterNdUpdate", kTypesAll));
EF_REGISTER_OP(resource_scatter_nd("ResourceScatterNdAdd", kTypesNumeric));
EF_REGISTER_OP(resource_scatter_nd("ResourceScatterNdSub", kTypesNumeric));
EF_REGISTER_OP(resource_scatter_nd("ResourceScatterNdMin", kTypesReal));
EF_REGISTER_OP(resource_scatter_nd("ResourceScatterNdMax", kTypesReal));
EF_REGISTER_OP(resource_scatter("ResourceScatterUpdate", nullptr, kTypesAll));
EF_REGISTER_OP(resource_scatter("ResourceScatterAdd", kListNumber, kTypesNumeric));
EF_REGISTER_OP(resource_scatter("ResourceScatterSub", kListNumber, kTypesNumeric));
EF_REGISTER_OP(resource_scatter("ResourceScatterMul", kListNumber, kTypesNumeric));
EF_REGISTER_OP(resource_scatter("ResourceScatterDiv", kListNumber, kTypesNumeric));
EF_REGISTER_OP(resource_scatter("ResourceScatterMin", kListNumber, kTypesReal));
EF_REGISTER_OP(resource_scatter("ResourceScatterMax", kListNumber, kTypesReal));
EF_REGISTER_OP(resource_update("ResourceStridedSliceAssign", {"ref", "begin", "end", "strides", "value"},
                               strided_slice_attrs(), {"resource", "Index", "Index", "Index", "T"},
                               {{"T"}, {"Index", kListIndex}}));

}  // namespace
}  // namespace ef
