// The direct float32 convolution kernels on random geometries (padding, strides, dilations, odd
// channel counts), every variant the CPU has: the forward against a double loop, and both
// gradients through <dout, conv(x, f)> = <dx, x> = <df, f> (the convolution is bilinear).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/conv_direct.h"

namespace ef {
namespace {

double reference_at(const Conv2DGeometry& g, const std::vector<float>& x, const std::vector<float>& f, int64_t n,
                    int64_t oy, int64_t ox, int64_t co) {
  double s = 0;
  for (int64_t ky = 0; ky < g.k_h; ++ky)
    for (int64_t kx = 0; kx < g.k_w; ++kx) {
      const int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dil_h, ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
      if (iy < 0 || iy >= g.in_h || ix < 0 || ix >= g.in_w) continue;
      for (int64_t ci = 0; ci < g.in_c; ++ci)
        s += double(x[((n * g.in_h + iy) * g.in_w + ix) * g.in_c + ci]) * f[((ky * g.k_w + kx) * g.in_c + ci) * g.out_c + co];
    }
  return s;
}

double dot(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += double(a[i]) * b[i];
  return s;
}

TEST(ConvDirect, RandomGeometriesEveryVariant) {
  const std::string was = conv_kernel();
  std::mt19937 rng(7);
  std::normal_distribution<float> normal;
  int ran = 0;
  for (const char* kernel : {"avx512", "avx2", "generic"}) {
    try {
      set_conv_kernel(kernel);
    } catch (...) {
      continue;  // not on this CPU or build
    }
    for (int trial = 0; trial < 40; ++trial) {
      Conv2DGeometry g{};
      g.batch = 1 + rng() % 3, g.in_h = 1 + rng() % 9, g.in_w = 1 + rng() % 9, g.in_c = 1 + rng() % 40;
      g.k_h = 1 + rng() % 4, g.k_w = 1 + rng() % 4, g.out_c = 1 + rng() % 70;
      g.stride_h = 1 + rng() % 3, g.stride_w = 1 + rng() % 3, g.dil_h = 1 + rng() % 2, g.dil_w = 1 + rng() % 2;
      g.pad_top = rng() % 4, g.pad_left = rng() % 4;
      const int64_t pad_h = g.pad_top + rng() % 4, pad_w = g.pad_left + rng() % 4;
      const int64_t eh = (g.k_h - 1) * g.dil_h + 1, ew = (g.k_w - 1) * g.dil_w + 1;
      if (g.in_h + pad_h < eh || g.in_w + pad_w < ew) continue;
      g.out_h = (g.in_h + pad_h - eh) / g.stride_h + 1, g.out_w = (g.in_w + pad_w - ew) / g.stride_w + 1;
      std::vector<float> x(g.batch * g.in_h * g.in_w * g.in_c), f(g.k_h * g.k_w * g.in_c * g.out_c);
      std::vector<float> y(g.batch * g.out_h * g.out_w * g.out_c), dy(y.size()), dx(x.size()), df(f.size());
      for (auto* v : {&x, &f, &dy})
        for (float& e : *v) e = normal(rng);
      conv2d_direct_f32(g, x.data(), f.data(), y.data());
      double lhs = 0;
      for (int64_t n = 0, i = 0; n < g.batch; ++n)
        for (int64_t oy = 0; oy < g.out_h; ++oy)
          for (int64_t ox = 0; ox < g.out_w; ++ox)
            for (int64_t co = 0; co < g.out_c; ++co, ++i) {
              const double want = reference_at(g, x, f, n, oy, ox, co);
              ASSERT_NEAR(y[i], want, 1e-4 * (1 + std::fabs(want))) << kernel << " trial " << trial;
              lhs += dy[i] * want;
            }
      conv2d_backprop_input_direct_f32(g, f.data(), dy.data(), dx.data());
      conv2d_backprop_filter_direct_f32(g, x.data(), dy.data(), df.data());
      EXPECT_NEAR(dot(dx, x), lhs, 1e-4 * (1 + std::fabs(lhs))) << kernel << " trial " << trial;
      EXPECT_NEAR(dot(df, f), lhs, 1e-4 * (1 + std::fabs(lhs))) << kernel << " trial " << trial;
      ++ran;
    }
  }
  set_conv_kernel(was);
  if (ran == 0) GTEST_SKIP() << "no direct convolution kernel on this CPU";
}

}  // namespace
}  // namespace ef
