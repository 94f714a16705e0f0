// CPU DepthwiseConv2dNative and its gradients (NHWC input, filter [k_h, k_w, in_c, multiplier]):
// output channel c*multiplier + m sees only input channel c. Direct loops with the channel loop
// innermost (contiguous in NHWC, so it vectorizes); rows of output (or input) pixels run on the pool.
#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "core/threadpool.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// acc[c*M + m] += x[c] * f[c*M + m] over the in_c channels of one tap.
template <typename T>
inline void tap(const T* __restrict x, const T* __restrict f, T* __restrict acc, int64_t channels, int64_t mult) {
  if (mult == 1) {
    for (int64_t c = 0; c < channels; ++c) acc[c] += x[c] * f[c];
    return;
  }
  for (int64_t c = 0; c < channels; ++c) {
    const T v = x[c];
    for (int64_t m = 0; m < mult; ++m) acc[c * mult + m] += v * f[c * mult + m];
  }
}

// Rows of work (images x rows) in chunks of about 2^16 multiply-adds each.
int64_t grain_rows(int64_t cost_per_row) { return std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(cost_per_row, 1)); }

// fn(r0, r1) over [0, n) in chunks of `grain` that the pool's threads take from a shared counter:
// a thread the OS preempts on a busy machine takes fewer chunks instead of holding up the op.
template <class F>
void dynamic_rows(int64_t n, int64_t grain, F&& fn) {
  const int64_t chunks = (n + grain - 1) / grain;
  std::atomic<int64_t> next{0};
  parallel_for(std::min<int64_t>(num_threads(), chunks), 1, [&](int64_t, int64_t) {
    for (int64_t c; (c = next.fetch_add(1)) < chunks;) fn(c * grain, std::min(n, (c + 1) * grain));
  });
}

template <typename T>
void depthwise(const Conv2DGeometry& g, const T* in, const T* filter, T* out) {
  const int64_t C = g.in_c, M = g.out_c / std::max<int64_t>(g.in_c, 1), OC = g.out_c;
  const int64_t row_cost = g.out_w * g.k_h * g.k_w * OC;
  dynamic_rows(g.batch * g.out_h, grain_rows(row_cost), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t n = r / g.out_h, oy = r % g.out_h;
      const T* image = in + n * g.in_h * g.in_w * C;
      T* orow = out + r * g.out_w * OC;
      std::fill(orow, orow + g.out_w * OC, T(0));
      for (int64_t ky = 0; ky < g.k_h; ++ky) {
        const int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
        if (iy < 0 || iy >= g.in_h) continue;
        for (int64_t kx = 0; kx < g.k_w; ++kx) {
          const T* f = filter + (ky * g.k_w + kx) * OC;
          for (int64_t ox = 0; ox < g.out_w; ++ox) {
            const int64_t ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
            if (ix < 0 || ix >= g.in_w) continue;
            tap(image + (iy * g.in_w + ix) * C, f, orow + ox * OC, C, M);
          }
        }
      }
    }
  });
}

// din[iy, ix, c] = sum over the (oy, ox, tap) that read it of dout[oy, ox, c*M + m] * f[tap, c, m]:
// gathered per input row, so rows run in parallel without sharing outputs.
template <typename T>
void depthwise_backprop_input(const Conv2DGeometry& g, const T* filter, const T* dout, T* din) {
  const int64_t C = g.in_c, M = g.out_c / std::max<int64_t>(g.in_c, 1), OC = g.out_c;
  const int64_t row_cost = g.in_w * g.k_h * g.k_w * OC;
  dynamic_rows(g.batch * g.in_h, grain_rows(row_cost), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t n = r / g.in_h, iy = r % g.in_h;
      const T* grad = dout + n * g.out_h * g.out_w * OC;
      T* irow = din + r * g.in_w * C;
      std::fill(irow, irow + g.in_w * C, T(0));
      for (int64_t ky = 0; ky < g.k_h; ++ky) {
        const int64_t ty = iy + g.pad_top - ky * g.dil_h;
        if (ty < 0 || ty % g.stride_h != 0 || ty / g.stride_h >= g.out_h) continue;
        const int64_t oy = ty / g.stride_h;
        for (int64_t kx = 0; kx < g.k_w; ++kx) {
          const T* f = filter + (ky * g.k_w + kx) * OC;
          for (int64_t ix = 0; ix < g.in_w; ++ix) {
            const int64_t tx = ix + g.pad_left - kx * g.dil_w;
            if (tx < 0 || tx % g.stride_w != 0 || tx / g.stride_w >= g.out_w) continue;
            const T* d = grad + (oy * g.out_w + tx / g.stride_w) * OC;
            T* acc = irow + ix * C;
            if (M == 1) {
              for (int64_t c = 0; c < C; ++c) acc[c] += d[c] * f[c];
            } else {
              for (int64_t c = 0; c < C; ++c) {
                T s = 0;
                for (int64_t m = 0; m < M; ++m) s += d[c * M + m] * f[c * M + m];
                acc[c] += s;
              }
            }
          }
        }
      }
    }
  });
}

// df[tap, c, m] = sum over output pixels of x[source pixel, c] * dout[pixel, c*M + m]: each
// thread sums a share of the output rows into its own copy, the copies are added at the end.
template <typename T>
void depthwise_backprop_filter(const Conv2DGeometry& g, const T* in, const T* dout, T* dfilter) {
  const int64_t C = g.in_c, M = g.out_c / std::max<int64_t>(g.in_c, 1), OC = g.out_c;
  const int64_t fsize = g.k_h * g.k_w * OC, rows = g.batch * g.out_h;
  const int64_t row_cost = g.out_w * fsize;
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>({num_threads(), rows, rows * row_cost >> 16}));
  std::vector<T> partial(static_cast<size_t>(parts * fsize), T(0));
  parallel_for(parts, 1, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      T* acc = partial.data() + p * fsize;
      for (int64_t r = rows * p / parts; r < rows * (p + 1) / parts; ++r) {
        const int64_t n = r / g.out_h, oy = r % g.out_h;
        const T* image = in + n * g.in_h * g.in_w * C;
        const T* grow = dout + r * g.out_w * OC;
        for (int64_t ky = 0; ky < g.k_h; ++ky) {
          const int64_t iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
          if (iy < 0 || iy >= g.in_h) continue;
          for (int64_t kx = 0; kx < g.k_w; ++kx) {
            T* f = acc + (ky * g.k_w + kx) * OC;
            for (int64_t ox = 0; ox < g.out_w; ++ox) {
              const int64_t ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
              if (ix < 0 || ix >= g.in_w) continue;
              tap(image + (iy * g.in_w + ix) * C, grow + ox * OC, f, C, M);
            }
          }
        }
      }
    }
  });
  std::copy(partial.begin(), partial.begin() + fsize, dfilter);
  for (int64_t p = 1; p < parts; ++p)
    for (int64_t i = 0; i < fsize; ++i) dfilter[i] += partial[p * fsize + i];
}

template <class F>
void dispatch(KernelContext& c, DType t, F&& f) {
  if (t == DType::kFloat32) f(float());
  else if (t == DType::kFloat64) f(double());
  else throw_no_kernel(c.op, "T", t);
}

template <typename T>
void zero(TensorImpl* t) {
  std::fill(t->data<T>(), t->data<T>() + t->num_elements(), T(0));
}

Shape sizes_input(const TensorImpl& t, const char* op, const char* what) {
  if (t.num_elements() != 4) throw_error(Code::kInvalidArgument, op, ": ", what, " must be 4-dimensional");
  return Shape(tensor_to_int_vector(t));
}

// TF's ConvBackpropComputeDimensions checks on out_backprop.
void check_out_backprop(const char* op, const Conv2DGeometry& g, const TensorImpl& dout) {
  if (dout.rank() != 4) throw_error(Code::kInvalidArgument, op, ": out_backprop must be 4-dimensional");
  const Shape& d = dout.shape();
  if (d[0] != g.batch)
    throw_error(Code::kInvalidArgument, op, ": input and out_backprop must have the same batch size. Input batch: ",
                g.batch, ", outbackprop batch: ", d[0], ", batch_dim: 0");
  if (d[1] != g.out_h)
    throw_error(Code::kInvalidArgument, op, ": Number of rows of out_backprop doesn't match computed: actual = ", d[1],
                ", computed = ", g.out_h);
  if (d[2] != g.out_w)
    throw_error(Code::kInvalidArgument, op, ": Number of cols of out_backprop doesn't match computed: actual = ", d[2],
                ", computed = ", g.out_w);
  if (d[3] != g.out_c)
    throw_error(Code::kInvalidArgument, op, ": depth_multiplier * in_depth not equal to out_depth");
}

void depthwise_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& f = *c.input(1);
  check_type(c.op, in.dtype(), kTypesFloat);
  check_same_dtype(c.op, in.dtype(), f.dtype(), 1);
  const Conv2DGeometry g = depthwise_conv2d_geometry(in.shape(), f.shape(), c.attrs);
  TensorImpl* out = c.allocate_output(0, in.dtype(), g.output_shape(), false);
  dispatch(c, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (out->num_elements() == 0) return;
    depthwise<T>(g, in.data<T>(), f.data<T>(), out->data<T>());
  });
}

void depthwise_backprop_input_kernel(KernelContext& c) {
  const TensorImpl& f = *c.input(1);
  const TensorImpl& dout = *c.input(2);
  check_type(c.op, f.dtype(), kTypesFloat);
  check_same_dtype(c.op, f.dtype(), dout.dtype(), 2);
  const char* op = "DepthwiseConv2DBackpropInput";
  const Shape in_shape = sizes_input(*c.input(0), op, "input");
  const Conv2DGeometry g = depthwise_conv2d_geometry(in_shape, f.shape(), c.attrs);
  check_out_backprop(op, g, dout);
  TensorImpl* din = c.allocate_output(0, f.dtype(), in_shape, false);
  dispatch(c, f.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (din->num_elements() == 0) return;
    if (dout.num_elements() == 0) return zero<T>(din);
    depthwise_backprop_input<T>(g, f.data<T>(), dout.data<T>(), din->data<T>());
  });
}

void depthwise_backprop_filter_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& dout = *c.input(2);
  check_type(c.op, in.dtype(), kTypesFloat);
  check_same_dtype(c.op, in.dtype(), dout.dtype(), 2);
  const char* op = "DepthwiseConv2DBackpropFilter";
  const Shape f_shape = sizes_input(*c.input(1), op, "filter");
  const Conv2DGeometry g = depthwise_conv2d_geometry(in.shape(), f_shape, c.attrs);
  check_out_backprop(op, g, dout);
  TensorImpl* df = c.allocate_output(0, in.dtype(), f_shape, false);
  dispatch(c, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (df->num_elements() == 0) return;
    if (dout.num_elements() == 0) return zero<T>(df);
    depthwise_backprop_filter<T>(g, in.data<T>(), dout.data<T>(), df->data<T>());
  });
}

EF_REGISTER_CPU_KERNEL("DepthwiseConv2dNative", depthwise_kernel);
EF_REGISTER_CPU_KERNEL("DepthwiseConv2dNativeBackpropInput", depthwise_backprop_input_kernel);
EF_REGISTER_CPU_KERNEL("DepthwiseConv2dNativeBackpropFilter", depthwise_backprop_filter_kernel);

}  // namespace
}  // namespace ef
