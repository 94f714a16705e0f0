// The geometry of a 2-D convolution (NHWC input, HWIO filter) from its shapes and attrs, with TF's
// checks and output sizes: inference and the CPU kernels share it. Unknown dims (-1) give unknown
// output dims.
#pragma once
#include <cstdint>

#include "core/shape.h"
#include "ops/attrs.h"

namespace ef {

struct Conv2DGeometry {
  int64_t batch, in_h, in_w, in_c;
  int64_t k_h, k_w, out_c;
  int64_t stride_h, stride_w, dil_h, dil_w;
  int64_t pad_top, pad_left;
  int64_t out_h, out_w;
  Shape output_shape() const { return Shape({batch, out_h, out_w, out_c}); }
};

Conv2DGeometry conv2d_geometry(const Shape& input, const Shape& filter, const Attrs& attrs);

// _FusedConv2D's fused_ops: true for [BiasAdd, Relu], false for [BiasAdd]; anything else is
// Unimplemented (the ops the remapper makes).
bool fused_conv2d_relu(const Attrs& attrs);

// A depthwise convolution (filter [k_h, k_w, in_c, multiplier]): out_c = in_c * multiplier. TF's
// DepthwiseConv2dNative checks and messages; dilations are honoured (TF's CPU kernel refuses them).
Conv2DGeometry depthwise_conv2d_geometry(const Shape& input, const Shape& filter, const Attrs& attrs);

// A pooling window (attr ksize [1, h, w, 1]) as a geometry: out_c = in_c, the window as the filter.
Conv2DGeometry pool2d_geometry(const Shape& input, const Attrs& attrs);

}  // namespace ef
