// CPU FusedBatchNormV3 and FusedBatchNormGradV3 (float). x is viewed as [outer, channels, inner]
// (channels last: inner = 1). Per-channel sums accumulate in double, so large batches keep float
// accuracy; training returns the biased variance in reserve_space_2 (what the gradient needs)
// and the Bessel-corrected one in batch_variance, as TF does. Rows run in parallel blocks.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <vector>

#include "core/threadpool.h"

#include "ops/batch_norm_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

using Acc = std::vector<double>;

// Rows of x ([outer, channels, inner]) per parallel block: at least ~64K values each.
int64_t row_grain(const BatchNormGeometry& g) {
  return std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(g.channels * g.inner, 1));
}

// sums[k * C + c] += f(k, i, c) for k < K over every element i = (o * C + c) * inner + j, in
// double. Blocks of rows run on the pool's threads with their own sums, added up at the end; the
// innermost loop runs over contiguous memory (channels when channels last) so it vectorizes.
template <int K, class F>
Acc channel_sums(const BatchNormGeometry& g, F&& f) {
  const int64_t C = g.channels;
  Acc total(static_cast<size_t>(K * C), 0.0);
  std::mutex mu;
  parallel_for(g.outer, row_grain(g), [&](int64_t o0, int64_t o1) {
    Acc part(static_cast<size_t>(K * C), 0.0);
    double* acc = part.data();
    for (int64_t o = o0; o < o1; ++o) {
      if (g.inner == 1) {
        for (int k = 0; k < K; ++k)
          for (int64_t c = 0; c < C; ++c) acc[k * C + c] += f(k, o * C + c, c);
      } else {
        for (int64_t c = 0; c < C; ++c)
          for (int k = 0; k < K; ++k) {
            const int64_t base = (o * C + c) * g.inner;
            double s = 0;
            for (int64_t j = 0; j < g.inner; ++j) s += f(k, base + j, c);
            acc[k * C + c] += s;
          }
      }
    }
    std::lock_guard<std::mutex> l(mu);
    for (size_t i = 0; i < total.size(); ++i) total[i] += part[i];
  });
  return total;
}

// y[i] = f(i, c) for every element, rows split over the pool's threads.
template <class F>
void channel_map(const BatchNormGeometry& g, float* y, F&& f) {
  const int64_t C = g.channels;
  parallel_for(g.outer, row_grain(g), [&](int64_t o0, int64_t o1) {
    for (int64_t o = o0; o < o1; ++o) {
      if (g.inner == 1) {
        float* row = y + o * C;
        for (int64_t c = 0; c < C; ++c) row[c] = f(o * C + c, c);
        continue;
      }
      for (int64_t c = 0; c < C; ++c) {
        const int64_t base = (o * C + c) * g.inner;
        for (int64_t j = 0; j < g.inner; ++j) y[base + j] = f(base + j, c);
      }
    }
  });
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
  const float* px = x.data<float>();
  Acc mean(C, 0.0), var(C, 0.0);
  if (training) {
    // One pass over sums of (x - shift) and its square, shift = each channel's first value: data
    // far from zero keep their variance (a plain sum of squares would cancel it away).
    std::vector<double> shift(C, 0.0);
    if (n > 0)
      for (int64_t ch = 0; ch < C; ++ch) shift[ch] = px[ch * g.inner];
    const double* ps = shift.data();
    const Acc sums = channel_sums<2>(g, [px, ps](int k, int64_t i, int64_t ch) {
      const double d = double(px[i]) - ps[ch];
      return k == 0 ? d : d * d;
    });
    for (int64_t ch = 0; ch < C; ++ch) {
      const double m = sums[ch] / double(n);
      mean[ch] = shift[ch] + m;
      var[ch] = std::max(0.0, sums[C + ch] / double(n) - m * m);
    }
  } else {
    for (int64_t ch = 0; ch < C; ++ch) mean[ch] = vec(*c.input(3))[ch], var[ch] = vec(*c.input(4))[ch];
  }
  std::vector<float> mul(C), add(C);
  for (int64_t ch = 0; ch < C; ++ch) {
    mul[ch] = float(scale[ch] / std::sqrt(var[ch] + eps));
    add[ch] = float(offset[ch] - mean[ch] * mul[ch]);
  }
  const float *pmul = mul.data(), *padd = add.data();
  channel_map(g, y, [px, pmul, padd](int64_t i, int64_t ch) { return px[i] * pmul[ch] + padd[ch]; });
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
  const float *d = dy.data<float>(), *px = x.data<float>();
  const double* pinv = inv.data();
  // One pass: [0, C) sums dy, [C, 2C) sums dy * xhat.
  const Acc sums = channel_sums<2>(g, [d, px, mean, pinv](int k, int64_t i, int64_t ch) {
    return k == 0 ? double(d[i]) : double(d[i]) * (double(px[i]) - mean[ch]) * pinv[ch];
  });
  const double *sum_dy = sums.data(), *sum_dy_xhat = sums.data() + C;
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
  const float *pk = k.data(), *pa = a.data(), *pb = b.data();
  channel_map(g, dx, [d, px, pk, pa, pb](int64_t i, int64_t ch) { return pk[ch] * d[i] + pa[ch] * px[i] + pb[ch]; });
}

EF_REGISTER_CPU_KERNEL("FusedBatchNormV3", fused_batch_norm_kernel);
EF_REGISTER_CPU_KERNEL("FusedBatchNormGradV3", fused_batch_norm_grad_kernel);

}  // namespace
}  // namespace ef
