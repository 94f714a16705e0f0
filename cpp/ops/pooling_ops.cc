// Op definitions: MaxPool and AvgPool (NHWC windows) and their gradient ops.
#include "ops/array_shapes.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"

namespace ef {
namespace {

constexpr const char* kListMaxPool =
    "half, bfloat16, float, double, int32, int64, uint8, int16, int8, uint16, qint8";

void infer_pool(InferContext& c) {
  c.set_output(0, c.dtypes[0], pool2d_geometry(c.shapes[0], c.attrs).output_shape());
}

void infer_max_pool_grad(InferContext& c) {
  pool2d_geometry(c.shapes[0], c.attrs);
  c.set_output(0, c.dtypes[0], c.shapes[0]);
}

void infer_avg_pool_grad(InferContext& c) {
  const TensorImpl* v = input_value(c, 0);
  if (!v) return c.set_output(0, c.dtypes[1], Shape({-1, -1, -1, -1}));
  if (v->rank() != 1 || v->num_elements() != 4)
    throw_error(Code::kInvalidArgument, "orig_input_shape must be 1-dimensional and 4 elements");
  Shape in(tensor_to_int_vector(*v));
  pool2d_geometry(in, c.attrs);
  c.set_output(0, c.dtypes[1], in);
}

const std::vector<std::string> kPoolAttrs = {"T", "ksize", "strides", "padding", "explicit_paddings", "data_format"};

EF_REGISTER_OP(make_op("MaxPool", {"input"}, kPoolAttrs, infer_pool)
                   .with_types({"T"}, {{"T", kListMaxPool, kTypesFloat | kTypesInt}}));
EF_REGISTER_OP(make_op("AvgPool", {"value"}, kPoolAttrs, infer_pool).with_types({"T"}, {{"T", kListFloatOnly}}));
EF_REGISTER_OP(make_op("MaxPoolGrad", {"orig_input", "orig_output", "grad"}, kPoolAttrs, infer_max_pool_grad)
                   .with_types({"T", "T", "T"}, {{"T", kListRealNumber, kTypesFloat}}));
EF_REGISTER_OP(make_op("AvgPoolGrad", {"orig_input_shape", "grad"}, kPoolAttrs, infer_avg_pool_grad)
                   .with_types({"int32", "T"}, {{"T", kListFloatOnly}}));

}  // namespace
}  // namespace ef
