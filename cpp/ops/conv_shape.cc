#include "ops/conv_shape.h"

#include <string>
#include <vector>

#include "core/errors.h"

namespace ef {
namespace {

// One spatial dim: TF's GetWindowedOutputSizeVerbose.
void windowed(int64_t in, int64_t k, int64_t dil, int64_t stride, const std::string& padding, int64_t pad_before,
              int64_t pad_after, int64_t* out, int64_t* pad) {
  if (in < 0 || k < 0) {
    *out = -1;
    *pad = 0;
    return;
  }
  const int64_t eff = (k - 1) * dil + 1;
  if (padding == "VALID") {
    *out = (in - eff + stride) / stride;
    *pad = 0;
  } else if (padding == "SAME") {
    *out = (in + stride - 1) / stride;
    const int64_t needed = std::max<int64_t>(0, (*out - 1) * stride + eff - in);
    *pad = needed / 2;
  } else {
    *out = (in + pad_before + pad_after - eff + stride) / stride;
    *pad = pad_before;
  }
  if (*out < 0)
    throw_error(Code::kInvalidArgument, "Computed output size would be negative: ", *out, " [input_size: ", in,
                ", effective_filter_size: ", eff, ", stride: ", stride, "]");
}

std::vector<int64_t> explicit_paddings(const Attrs& attrs, const std::string& padding) {
  std::vector<int64_t> pad(8, 0);
  if (padding != "EXPLICIT") return pad;
  pad = attrs.get<std::vector<int64_t>>("explicit_paddings", {});
  if (pad.size() != 8)
    throw_error(Code::kInvalidArgument, "explicit_paddings attribute must contain 8 values, but got: ", pad.size());
  for (int64_t p : pad)
    if (p < 0) throw_error(Code::kInvalidArgument, "All elements of explicit_paddings must be nonnegative");
  return pad;
}

std::string checked_padding(const Attrs& attrs, bool allow_explicit) {
  const std::string padding = attrs.get<std::string>("padding", "VALID");
  if (padding != "SAME" && padding != "VALID" && !(allow_explicit && padding == "EXPLICIT"))
    throw_error(Code::kInvalidArgument, "Value for attr 'padding' of \"", padding,
                "\" is not in the list of allowed values: \"SAME\", \"VALID\"", allow_explicit ? ", \"EXPLICIT\"" : "");
  return padding;
}

}  // namespace

Conv2DGeometry pool2d_geometry(const Shape& input, const Attrs& attrs) {
  const auto ksize = attrs.get<std::vector<int64_t>>("ksize", {});
  const auto strides = attrs.get<std::vector<int64_t>>("strides", {});
  if (ksize.size() < 4)
    throw_error(Code::kInvalidArgument, "Length for attr 'ksize' of ", ksize.size(), " must be at least minimum 4");
  if (strides.size() < 4)
    throw_error(Code::kInvalidArgument, "Length for attr 'strides' of ", strides.size(), " must be at least minimum 4");
  if (input.rank_known() && input.rank() != 4)
    throw_error(Code::kInvalidArgument, "tensor_in_shape must have 2 spatial dimensions. ", input.rank(), " 0");
  const std::string fmt = attrs.get<std::string>("data_format", "NHWC");
  if (fmt != "NHWC")
    throw_error(Code::kUnimplemented, "Default MaxPoolingOp only supports NHWC on device type CPU");
  for (int64_t k : ksize)
    if (k <= 0) throw_error(Code::kInvalidArgument, "ksize must be a positive int32 value, got:", k);
  for (int64_t s : strides)
    if (s <= 0) throw_error(Code::kInvalidArgument, "stride must be a positive int32 value, got:", s);
  if (ksize[0] != 1 || strides[0] != 1)
    throw_error(Code::kUnimplemented, "Pooling is not yet supported on the batch dimension.");
  if (ksize[3] != 1 || strides[3] != 1)
    throw_error(Code::kUnimplemented, "Pooling is not yet supported on the depth dimension.");
  const std::string padding = checked_padding(attrs, true);
  const std::vector<int64_t> pad = explicit_paddings(attrs, padding);
  auto dim = [&](int i) { return input.rank_known() ? input[i] : int64_t(-1); };
  Conv2DGeometry g{};
  g.batch = dim(0), g.in_h = dim(1), g.in_w = dim(2), g.in_c = dim(3);
  g.k_h = ksize[1], g.k_w = ksize[2], g.out_c = g.in_c;
  g.stride_h = strides[1], g.stride_w = strides[2], g.dil_h = g.dil_w = 1;
  windowed(g.in_h, g.k_h, 1, g.stride_h, padding, pad[2], pad[3], &g.out_h, &g.pad_top);
  windowed(g.in_w, g.k_w, 1, g.stride_w, padding, pad[4], pad[5], &g.out_w, &g.pad_left);
  return g;
}

Conv2DGeometry conv2d_geometry(const Shape& input, const Shape& filter, const Attrs& attrs) {
  if (input.rank_known() && input.rank() != 4)
    throw_error(Code::kInvalidArgument, "convolution input must be 4-dimensional: ", input.to_list_string());
  if (filter.rank_known() && filter.rank() != 4)
    throw_error(Code::kInvalidArgument, "convolution filter must be 4-dimensional: ", filter.to_list_string());
  const auto strides = attrs.get<std::vector<int64_t>>("strides", {1, 1, 1, 1});
  if (strides.size() != 4) throw_error(Code::kInvalidArgument, "Sliding window strides field must specify 4 dimensions");
  const auto dil = attrs.get<std::vector<int64_t>>("dilations", {1, 1, 1, 1});
  if (dil.size() != 4) throw_error(Code::kInvalidArgument, "Sliding window dilations field must specify 4 dimensions");
  const std::string fmt = attrs.get<std::string>("data_format", "NHWC");
  if (fmt != "NHWC")
    throw_error(Code::kUnimplemented, "The Conv2D op currently only supports the NHWC tensor format on the CPU. The "
                "op was given the format: ", fmt);
  if (strides[0] != 1 || strides[3] != 1)
    throw_error(Code::kUnimplemented, "Current implementation does not yet support strides in the batch and depth "
                "dimensions.");
  if (strides[1] <= 0 || strides[2] <= 0)
    throw_error(Code::kInvalidArgument, "Row and column strides should be larger than 0.");
  if (dil[0] != 1 || dil[3] != 1)
    throw_error(Code::kInvalidArgument, "Current implementation does not yet support dilations in the batch and "
                "depth dimensions.");
  if (dil[1] <= 0 || dil[2] <= 0) throw_error(Code::kInvalidArgument, "Dilated rates should be larger than 0.");
  const std::string padding = checked_padding(attrs, true);
  const std::vector<int64_t> explicit_pad = explicit_paddings(attrs, padding);
  auto dim = [](const Shape& s, int i) { return s.rank_known() ? s[i] : int64_t(-1); };
  Conv2DGeometry g{};
  g.batch = dim(input, 0), g.in_h = dim(input, 1), g.in_w = dim(input, 2), g.in_c = dim(input, 3);
  g.k_h = dim(filter, 0), g.k_w = dim(filter, 1), g.out_c = dim(filter, 3);
  const int64_t f_c = dim(filter, 2);
  if (g.in_c >= 0 && f_c >= 0) {
    if (f_c == 0 || g.in_c % f_c != 0)
      throw_error(Code::kInvalidArgument, "input depth must be evenly divisible by filter depth: ", g.in_c, " vs ",
                  f_c);
    if (f_c != g.in_c)
      throw_error(Code::kUnimplemented, "Grouped convolution (input depth ", g.in_c, ", filter depth ", f_c,
                  ") is not supported");
  }
  g.stride_h = strides[1], g.stride_w = strides[2], g.dil_h = dil[1], g.dil_w = dil[2];
  windowed(g.in_h, g.k_h, g.dil_h, g.stride_h, padding, explicit_pad[2], explicit_pad[3], &g.out_h, &g.pad_top);
  windowed(g.in_w, g.k_w, g.dil_w, g.stride_w, padding, explicit_pad[4], explicit_pad[5], &g.out_w, &g.pad_left);
  return g;
}

Conv2DGeometry depthwise_conv2d_geometry(const Shape& input, const Shape& filter, const Attrs& attrs) {
  const auto strides = attrs.get<std::vector<int64_t>>("strides", {1, 1, 1, 1});
  if (strides.size() != 4) throw_error(Code::kInvalidArgument, "Sliding window strides field must specify 4 dimensions");
  const auto dil = attrs.get<std::vector<int64_t>>("dilations", {1, 1, 1, 1});
  if (dil.size() != 4) throw_error(Code::kInvalidArgument, "Sliding window dilations field must specify 4 dimensions");
  const std::string fmt = attrs.get<std::string>("data_format", "NHWC");
  if (fmt != "NHWC")
    throw_error(Code::kUnimplemented, "The DepthwiseConv2dNative op currently only supports the NHWC tensor format on "
                "the CPU. The op was given the format: ", fmt);
  if (strides[0] != 1 || strides[3] != 1)
    throw_error(Code::kInvalidArgument, "Current implementation does not yet support strides in the batch and depth "
                "dimensions.");
  if (strides[1] != strides[2])
    throw_error(Code::kInvalidArgument, "Current implementation only supports equal length strides in the row and "
                "column dimensions.");
  if (strides[1] <= 0) throw_error(Code::kInvalidArgument, "Stride must be > 0, but got ", strides[1]);
  if (dil[0] != 1 || dil[3] != 1 || dil[1] <= 0 || dil[2] <= 0)
    throw_error(Code::kUnimplemented, "Current kernel implementation does not support dilations, received [", dil[0],
                " ", dil[1], " ", dil[2], " ", dil[3], "]");
  const std::string padding = checked_padding(attrs, true);
  const std::vector<int64_t> explicit_pad = explicit_paddings(attrs, padding);
  if (input.rank_known() && input.rank() != 4)
    throw_error(Code::kInvalidArgument, "input must be 4-dimensional", input.to_list_string());
  if (filter.rank_known() && filter.rank() != 4)
    throw_error(Code::kInvalidArgument, "filter must be 4-dimensional: ", filter.to_list_string());
  auto dim = [](const Shape& s, int i) { return s.rank_known() ? s[i] : int64_t(-1); };
  Conv2DGeometry g{};
  g.batch = dim(input, 0), g.in_h = dim(input, 1), g.in_w = dim(input, 2), g.in_c = dim(input, 3);
  g.k_h = dim(filter, 0), g.k_w = dim(filter, 1);
  const int64_t f_c = dim(filter, 2), mult = dim(filter, 3);
  if (g.in_c >= 0 && f_c >= 0 && g.in_c != f_c)
    throw_error(Code::kInvalidArgument, "input and filter must have the same depth: ", g.in_c, " vs ", f_c);
  const int64_t c = g.in_c >= 0 ? g.in_c : f_c;
  g.out_c = c >= 0 && mult >= 0 ? c * mult : -1;
  g.stride_h = strides[1], g.stride_w = strides[2], g.dil_h = dil[1], g.dil_w = dil[2];
  windowed(g.in_h, g.k_h, g.dil_h, g.stride_h, padding, explicit_pad[2], explicit_pad[3], &g.out_h, &g.pad_top);
  windowed(g.in_w, g.k_w, g.dil_w, g.stride_w, padding, explicit_pad[4], explicit_pad[5], &g.out_w, &g.pad_left);
  return g;
}

bool fused_conv2d_relu(const Attrs& attrs) {
  const std::vector<std::string> ops = attrs.get<std::vector<std::string>>("fused_ops", {});
  if (ops.empty() || ops[0] != "BiasAdd" || ops.size() > 2 || (ops.size() == 2 && ops[1] != "Relu"))
    throw_error(Code::kUnimplemented, "_FusedConv2D: fused_ops must be [BiasAdd] or [BiasAdd, Relu]");
  return ops.size() == 2;
}

}  // namespace ef
