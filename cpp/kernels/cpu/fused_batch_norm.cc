// CPU FusedBatchNormV3 and FusedBatchNormGradV3 (float). x is viewed as [outer, channels, inner]
// (channels last: inner = 1). Per-channel sums accumulate in double, so large batches keep float
// accuracy; training returns the biased variance in reserve_space_2 (what the gradient needs)
// and the Bessel-corrected one in batch_variance, as TF does.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/batch_norm_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

using Acc = std::vector<double>;

// sum[c] += f(x[o, c, i]) over every o, i.
template <class F>
void channel_sums(const BatchNormGeometry& g, const float* x, Acc& sum, F&& f) {
  const int64_t C = g.channels;
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t c = 0; c < C; ++c) {
      const float* p = x + (o * C + c) * g.inner;
      double s = 0;
      for (int64_t i = 0; i < g.inner; ++i) s += f(p[i], c, (o * C + c) * g.inner + i);
      sum[c] += s;
    }
}

// y[o, c, i] = f(x[o, c, i], c) elementwise.
template <class F>
void channel_map(const BatchNormGeometry& g, const float* x, float* y, F&& f) {
  const int64_t C = g.channels;
  for (int64_t o = 0; o < g.outer; ++o)
    for (int64_t c = 0; c < C; ++c) {
      const int64_t base = (o * C + c) * g.inner;
      for (int64_t i = 0; i < g.inner; ++i) y[base + i] = f(x[base + i], c, base + i);
    }
}

const float* vec(const TensorImpl& t) { return t.data<float>(); }

float* out_vec(KernelContext& c, size_t i, int64_t n) {
  return c.allocate_output(i, DType::kFloat32, Shape({n}), false)->data<float>();
}

void check_float(KernelContext& c, DType t) {
  check_type(c.op, t, kTypesFloat);
  if (t != DType::kFloat32) throw_no_kernel(c.op, "T", t);
}

void fused_batch_norm_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  check_float(c, x.dtype());
  const BatchNormGeometry g = batch_norm_geometry(x.shape(), c.attrs);
  const bool training = c.attrs.get<bool>("is_training", true);
  const double eps = float(c.attrs.get<double>("epsilon", 1e-4));  // TF holds it as a float
  const double factor = c.attrs.get<double>("exponential_avg_factor", 1.0);
  const char* names[4] = {"scale", "offset", "mean", "variance"};
  for (int i = 0; i < 4; ++i)
    check_batch_norm_vector(names[i], c.input(i + 1)->shape(), g.channels, training && (i >= 2) && factor == 1.0);
  const int64_t C = g.channels, n = g.count();
  const float* scale = vec(*c.input(1));
  const float* offset = vec(*c.input(2));
  float* y = c.allocate_output(0, DType::kFloat32, x.shape(), false)->data<float>();
  float* batch_mean = out_vec(c, 1, C);
  float* batch_var = out_vec(c, 2, C);
  float* saved_mean = out_vec(c, 3, C);
  float* saved_var = out_vec(c, 4, C);
  out_vec(c, 5, 0);
  Acc mean(C, 0.0), var(C, 0.0);
  if (training) {
    channel_sums(g, x.data<float>(), mean, [](float v, int64_t, int64_t) { return double(v); });
    for (auto& m : mean) m /= double(n);
    channel_sums(g, x.data<float>(), var, [&](float v, int64_t ch, int64_t) { return (v - mean[ch]) * (v - mean[ch]); });
    for (auto& v : var) v /= double(n);
  } else {
    for (int64_t ch = 0; ch < C; ++ch) mean[ch] = vec(*c.input(3))[ch], var[ch] = vec(*c.input(4))[ch];
  }
  std::vector<float> mul(C), add(C);
  for (int64_t ch = 0; ch < C; ++ch) {
    mul[ch] = float(scale[ch] / std::sqrt(var[ch] + eps));
    add[ch] = float(offset[ch] - mean[ch] * mul[ch]);
  }
  channel_map(g, x.data<float>(), y, [&](float v, int64_t ch, int64_t) { return v * mul[ch] + add[ch]; });
  const double bessel = n > 1 ? double(n) / double(n - 1) : 1.0;
  for (int64_t ch = 0; ch < C; ++ch) {
    saved_mean[ch] = float(mean[ch]);
    saved_var[ch] = float(var[ch]);
    if (!training) {
      batch_mean[ch] = float(mean[ch]), batch_var[ch] = float(var[ch]);
    } else if (factor == 1.0) {
      batch_mean[ch] = float(mean[ch]), batch_var[ch] = float(var[ch] * bessel);
    } else {
      batch_mean[ch] = float((1 - factor) * vec(*c.input(3))[ch] + factor * mean[ch]);
      batch_var[ch] = float((1 - factor) * vec(*c.input(4))[ch] + factor * var[ch] * bessel);
    }
  }
}

// With xhat = (x - mean) / sqrt(var + eps): d_offset = sum(dy), d_scale = sum(dy * xhat), and
// dx = scale / sqrt(var + eps) * (dy - [training] (sum(dy) + xhat * sum(dy * xhat)) / n).
void fused_batch_norm_grad_kernel(KernelContext& c) {
  const TensorImpl& dy = *c.input(0);
  const TensorImpl& x = *c.input(1);
  check_float(c, x.dtype());
  check_same_dtype(c.op, x.dtype(), dy.dtype(), 0);
  const BatchNormGeometry g = batch_norm_geometry(x.shape(), c.attrs);
  if (dy.shape() != x.shape())
    throw_error(Code::kInvalidArgument, "x and y_backprop must have same shape, but x has shape ",
                x.shape().to_list_string(), " and y_backprop has shape ", dy.shape().to_list_string());
  const char* names[3] = {"scale", "reserve_space_1", "reserve_space_2"};
  for (int i = 0; i < 3; ++i) check_batch_norm_vector(names[i], c.input(i + 2)->shape(), g.channels, false);
  const bool training = c.attrs.get<bool>("is_training", true);
  const double eps = float(c.attrs.get<double>("epsilon", 1e-4));  // TF holds it as a float
  const int64_t C = g.channels, n = g.count();
  const float* scale = vec(*c.input(2));
  const float* mean = vec(*c.input(3));
  const float* var = vec(*c.input(4));
  float* dx = c.allocate_output(0, DType::kFloat32, x.shape(), false)->data<float>();
  float* dscale = out_vec(c, 1, C);
  float* doffset = out_vec(c, 2, C);
  out_vec(c, 3, 0);
  out_vec(c, 4, 0);
  std::vector<double> inv(C);
  for (int64_t ch = 0; ch < C; ++ch) inv[ch] = 1.0 / std::sqrt(double(var[ch]) + eps);
  Acc sum_dy(C, 0.0), sum_dy_xhat(C, 0.0);
  const float* d = dy.data<float>();
  channel_sums(g, d, sum_dy, [](float v, int64_t, int64_t) { return double(v); });
  channel_sums(g, x.data<float>(), sum_dy_xhat,
               [&](float v, int64_t ch, int64_t i) { return double(d[i]) * (v - mean[ch]) * inv[ch]; });
  std::vector<float> k(C), a(C), b(C);  // dx = k * dy + a * x + b
  for (int64_t ch = 0; ch < C; ++ch) {
    doffset[ch] = float(sum_dy[ch]);
    dscale[ch] = float(sum_dy_xhat[ch]);
    const double s = scale[ch] * inv[ch];
    k[ch] = float(s);
    if (training && n > 0) {
      const double slope = -s * sum_dy_xhat[ch] * inv[ch] / double(n);  // per unit of (x - mean)
      a[ch] = float(slope);
      b[ch] = float(-s * sum_dy[ch] / double(n) - slope * mean[ch]);
    } else {
      a[ch] = 0, b[ch] = 0;
    }
  }
  channel_map(g, x.data<float>(), dx, [&](float v, int64_t ch, int64_t i) { return k[ch] * d[i] + a[ch] * v + b[ch]; });
}

EF_REGISTER_CPU_KERNEL("FusedBatchNormV3", fused_batch_norm_kernel);
EF_REGISTER_CPU_KERNEL("FusedBatchNormGradV3", fused_batch_norm_grad_kernel);

}  // namespace
}  // namespace ef
