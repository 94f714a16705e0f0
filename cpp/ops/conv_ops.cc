// Op definitions: Conv2D, DepthwiseConv2dNative and their gradient ops *BackpropInput / *BackpropFilter
// (NHWC).
#include "ops/array_shapes.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"

namespace ef {
namespace {

constexpr const char* kListConv = "half, bfloat16, float, double, int32";

void infer_conv2d(InferContext& c) {
  c.set_output(0, c.dtypes[0], conv2d_geometry(c.shapes[0], c.shapes[1], c.attrs).output_shape());
}

// A shape given as a 1-D int32 tensor input (input_sizes / filter_sizes); unknown when not constant.
Shape shape_input(const InferContext& c, size_t i) {
  const TensorImpl* v = input_value(c, i);
  if (!v) return Shape::unknown_rank();
  if (v->rank() != 1 || v->num_elements() != 4) {
    if (i == 0 && v->rank() == 1 && v->num_elements() == 2) {  // input_sizes as the spatial sizes alone
      const std::vector<int64_t> hw = tensor_to_int_vector(*v);
      auto dim = [](const Shape& s, int d) { return s.rank_known() && s.rank() == 4 ? s[d] : int64_t(-1); };
      return Shape({dim(c.shapes[2], 0), hw[0], hw[1], dim(c.shapes[1], 2)});
    }
    throw_error(Code::kInvalidArgument, "Conv2DBackprop", i == 0 ? "Input" : "Filter",
                ": ", i == 0 ? "input_sizes" : "filter_sizes", " input must be 1-dim, not ", v->rank());
  }
  return Shape(tensor_to_int_vector(*v));
}

void infer_conv2d_backprop_input(InferContext& c) {
  Shape in = shape_input(c, 0);
  if (in.rank_known()) conv2d_geometry(in, c.shapes[1], c.attrs);
  c.set_output(0, c.dtypes[1], in.rank_known() ? in : Shape({-1, -1, -1, -1}));
}

void infer_conv2d_backprop_filter(InferContext& c) {
  Shape f = shape_input(c, 1);
  if (f.rank_known()) conv2d_geometry(c.shapes[0], f, c.attrs);
  c.set_output(0, c.dtypes[0], f.rank_known() ? f : Shape({-1, -1, -1, -1}));
}

const std::vector<std::string> kConvAttrs = {"T", "strides", "use_cudnn_on_gpu", "padding", "explicit_paddings",
                                             "data_format", "dilations"};

// Depthwise: TF's DepthwiseConv2DBackprop{Input,Filter} size checks.
Shape depthwise_shape_input(const InferContext& c, size_t i) {
  const TensorImpl* v = input_value(c, i);
  if (!v) return Shape::unknown_rank();
  if (v->num_elements() != 4)
    throw_error(Code::kInvalidArgument, "DepthwiseConv2DBackprop", i == 0 ? "Input: input" : "Filter: filter",
                " must be 4-dimensional");
  return Shape(tensor_to_int_vector(*v));
}

void infer_depthwise(InferContext& c) {
  c.set_output(0, c.dtypes[0], depthwise_conv2d_geometry(c.shapes[0], c.shapes[1], c.attrs).output_shape());
}

void infer_depthwise_backprop_input(InferContext& c) {
  Shape in = depthwise_shape_input(c, 0);
  if (in.rank_known()) depthwise_conv2d_geometry(in, c.shapes[1], c.attrs);
  c.set_output(0, c.dtypes[1], in.rank_known() ? in : Shape({-1, -1, -1, -1}));
}

void infer_depthwise_backprop_filter(InferContext& c) {
  Shape f = depthwise_shape_input(c, 1);
  if (f.rank_known()) depthwise_conv2d_geometry(c.shapes[0], f, c.attrs);
  c.set_output(0, c.dtypes[0], f.rank_known() ? f : Shape({-1, -1, -1, -1}));
}

const std::vector<std::string> kDepthwiseAttrs = {"T", "strides", "padding", "explicit_paddings", "data_format",
                                                  "dilations"};
constexpr const char* kListDepthwise = "half, bfloat16, float, double";

EF_REGISTER_OP(make_op("Conv2D", {"input", "filter"}, kConvAttrs, infer_conv2d)
                   .with_types({"T", "T"}, {{"T", kListConv, kTypesFloat}}));
// Conv2D + BiasAdd (+ Relu) as one node: the optimizer's remapping pass makes it (as TF's grappler
// remapper does) so the bias and activation run on the convolution's tiles while they are in
// registers. fused_ops: ["BiasAdd"] or ["BiasAdd", "Relu"]; the bias is the one extra input.
void infer_fused_conv2d(InferContext& c) {
  infer_conv2d(c);
  fused_conv2d_relu(c.attrs);
}
EF_REGISTER_OP(make_op("_FusedConv2D", {"input", "filter", "bias"}, {"T", "strides", "padding", "explicit_paddings",
                       "data_format", "dilations", "fused_ops"}, infer_fused_conv2d)
                   .with_types({"T", "T", "T"}, {{"T", "float", dtype_bit(DType::kFloat32)}}));
EF_REGISTER_OP(make_op("Conv2DBackpropInput", {"input_sizes", "filter", "out_backprop"}, kConvAttrs,
                       infer_conv2d_backprop_input)
                   .with_types({"int32", "T", "T"}, {{"T", kListConv, kTypesFloat}}));
EF_REGISTER_OP(make_op("Conv2DBackpropFilter", {"input", "filter_sizes", "out_backprop"}, kConvAttrs,
                       infer_conv2d_backprop_filter)
                   .with_types({"T", "int32", "T"}, {{"T", kListConv, kTypesFloat}}));

EF_REGISTER_OP(make_op("DepthwiseConv2dNative", {"input", "filter"}, kDepthwiseAttrs, infer_depthwise)
                   .with_types({"T", "T"}, {{"T", kListDepthwise, kTypesFloat}}));
EF_REGISTER_OP(make_op("DepthwiseConv2dNativeBackpropInput", {"input_sizes", "filter", "out_backprop"},
                       kDepthwiseAttrs, infer_depthwise_backprop_input)
                   .with_types({"int32", "T", "T"}, {{"T", kListDepthwise, kTypesFloat}}));
EF_REGISTER_OP(make_op("DepthwiseConv2dNativeBackpropFilter", {"input", "filter_sizes", "out_backprop"},
                       kDepthwiseAttrs, infer_depthwise_backprop_filter)
                   .with_types({"T", "int32", "T"}, {{"T", kListDepthwise, kTypesFloat}}));

}  // namespace
}  // namespace ef
