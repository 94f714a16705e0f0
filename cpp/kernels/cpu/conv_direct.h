// Direct float32 Conv2D (NHWC input, HWIO filter) with register-blocked micro-kernels compiled per
// ISA (AVX-512, AVX2+FMA, portable vectors) and chosen at run time by the CPU's features.
#pragma once
#include <cstdint>
#include <string>

#include "ops/conv_shape.h"

namespace ef {

// out = conv(in, filter) for any geometry (padding, strides, dilations, channel counts); with bias
// (out_c floats) added and then max(0, .) taken when relu, on the sums before they are stored.
void conv2d_direct_f32(const Conv2DGeometry& g, const float* in, const float* filter, float* out,
                       const float* bias = nullptr, bool relu = false);

// dfilter = the filter gradient of conv(in, filter) given out_backprop dout.
void conv2d_backprop_filter_direct_f32(const Conv2DGeometry& g, const float* in, const float* dout, float* dfilter);

// din = the input gradient of conv(in, filter) given out_backprop dout, for any strides.
void conv2d_backprop_input_direct_f32(const Conv2DGeometry& g, const float* filter, const float* dout, float* din);

// The float32 convolution kernel in use: "avx512", "avx2", "generic" (the direct kernels) or
// "im2col" (the GEMM path). set_conv_kernel("auto") picks the best the CPU supports; a variant the
// CPU lacks is a ValueError-class error (Code::kInvalidArgument). Tests and benchmarks compare them.
std::string conv_kernel();
void set_conv_kernel(const std::string& name);
// True when the float32 convolutions run the direct kernels.
bool conv_direct_enabled();

}  // namespace ef
