// CPU MaxPool / AvgPool over NHWC windows and their gradients. Padding never contributes: a max
// ignores it and an average divides by the number of input pixels the window covers (as TF).
// MaxPoolGrad routes each output's gradient to the first maximum of its window.
#include <algorithm>
#include <limits>
#include <type_traits>

#include "kernels/cpu/broadcast.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// The input rows/cols window (oy, ox) covers, clipped to the image.
struct Window {
  int64_t y0, y1, x0, x1;
};

inline Window window(const Conv2DGeometry& g, int64_t oy, int64_t ox) {
  const int64_t y = oy * g.stride_h - g.pad_top, x = ox * g.stride_w - g.pad_left;
  return {std::max<int64_t>(y, 0), std::min(y + g.k_h, g.in_h), std::max<int64_t>(x, 0), std::min(x + g.k_w, g.in_w)};
}

// Calls fn(image index, oy, ox, window, output offset) for every output pixel, images in parallel.
template <class F>
void for_each_window(const Conv2DGeometry& g, F&& fn) {
  for_range(g.batch * g.out_h, [&](int64_t s, int64_t e) {
    for (int64_t r = s; r < e; ++r) {
      const int64_t n = r / g.out_h, oy = r % g.out_h;
      for (int64_t ox = 0; ox < g.out_w; ++ox) fn(n, window(g, oy, ox), ((n * g.out_h + oy) * g.out_w + ox) * g.in_c);
    }
  }, std::max<int64_t>(1, 2048 / std::max<int64_t>(g.out_w * g.in_c * g.k_h * g.k_w, 1)));
}

template <typename T>
using Acc = std::conditional_t<std::is_same_v<T, double>, double, std::conditional_t<std::is_integral_v<T>, T, float>>;

// Both reduce a window with the channel loop innermost (contiguous in NHWC, so it vectorizes).
template <typename T>
void max_pool(const Conv2DGeometry& g, const T* in, T* out) {
  for_each_window(g, [&](int64_t n, const Window& w, int64_t o) {
    T* m = out + o;
    std::fill(m, m + g.in_c, static_cast<T>(std::numeric_limits<Acc<T>>::lowest()));
    for (int64_t y = w.y0; y < w.y1; ++y)
      for (int64_t x = w.x0; x < w.x1; ++x) {
        const T* v = in + ((n * g.in_h + y) * g.in_w + x) * g.in_c;
        for (int64_t c = 0; c < g.in_c; ++c) {
          const Acc<T> a = static_cast<Acc<T>>(v[c]), b = static_cast<Acc<T>>(m[c]);
          m[c] = a > b ? v[c] : m[c];  // NaN never wins (an all-NaN window gives lowest()), as TF's
        }
      }
  });
}

template <typename T>
void avg_pool(const Conv2DGeometry& g, const T* in, T* out) {
  for_each_window(g, [&](int64_t n, const Window& w, int64_t o) {
    const Acc<T> count = static_cast<Acc<T>>((w.y1 - w.y0) * (w.x1 - w.x0));
    constexpr int64_t kChunk = 64;  // channels summed at a time in a local accumulator
    for (int64_t c0 = 0; c0 < g.in_c; c0 += kChunk) {
      const int64_t len = std::min(kChunk, g.in_c - c0);
      Acc<T> s[kChunk] = {};
      for (int64_t y = w.y0; y < w.y1; ++y)
        for (int64_t x = w.x0; x < w.x1; ++x) {
          const T* v = in + ((n * g.in_h + y) * g.in_w + x) * g.in_c + c0;
          for (int64_t c = 0; c < len; ++c) s[c] += static_cast<Acc<T>>(v[c]);
        }
      for (int64_t c = 0; c < len; ++c) out[o + c0 + c] = static_cast<T>(s[c] / count);
    }
  });
}

// Gradients scatter into the input: images run in parallel, each image's windows in order. Per
// window, a chunk of channels at a time finds each channel's first maximum with the channel loop
// innermost (contiguous in NHWC: it vectorizes), then adds the gradients at those positions.
template <typename T>
void max_pool_grad(const Conv2DGeometry& g, const T* in, const T* grad, T* out) {
  std::fill(out, out + g.batch * g.in_h * g.in_w * g.in_c, T(0));
  for_range(g.batch, [&](int64_t s, int64_t e) {
    constexpr int64_t kChunk = 64;
    Acc<T> m[kChunk];
    int64_t best[kChunk];
    for (int64_t n = s; n < e; ++n)
      for (int64_t oy = 0; oy < g.out_h; ++oy)
        for (int64_t ox = 0; ox < g.out_w; ++ox) {
          const Window w = window(g, oy, ox);
          if (w.y0 >= w.y1 || w.x0 >= w.x1) continue;
          const int64_t o = ((n * g.out_h + oy) * g.out_w + ox) * g.in_c;
          for (int64_t c0 = 0; c0 < g.in_c; c0 += kChunk) {
            const int64_t len = std::min(kChunk, g.in_c - c0);
            bool first = true;
            for (int64_t y = w.y0; y < w.y1; ++y)
              for (int64_t x = w.x0; x < w.x1; ++x) {
                const int64_t i0 = ((n * g.in_h + y) * g.in_w + x) * g.in_c + c0;
                const T* v = in + i0;
                if (first) {
                  for (int64_t c = 0; c < len; ++c) m[c] = static_cast<Acc<T>>(v[c]), best[c] = i0 + c;
                  first = false;
                  continue;
                }
                for (int64_t c = 0; c < len; ++c) {  // as TF's: a later NaN never wins, a first one stays
                  const Acc<T> a = static_cast<Acc<T>>(v[c]);
                  const bool take = a > m[c];
                  m[c] = take ? a : m[c];
                  best[c] = take ? i0 + c : best[c];
                }
              }
            for (int64_t c = 0; c < len; ++c)
              out[best[c]] = static_cast<T>(static_cast<Acc<T>>(out[best[c]]) + static_cast<Acc<T>>(grad[o + c0 + c]));
          }
        }
  }, 1);
}

template <typename T>
void avg_pool_grad(const Conv2DGeometry& g, const T* grad, T* out) {
  std::fill(out, out + g.batch * g.in_h * g.in_w * g.in_c, T(0));
  for_range(g.batch, [&](int64_t s, int64_t e) {
    for (int64_t n = s; n < e; ++n)
      for (int64_t oy = 0; oy < g.out_h; ++oy)
        for (int64_t ox = 0; ox < g.out_w; ++ox) {
          const Window w = window(g, oy, ox);
          const Acc<T> count = static_cast<Acc<T>>((w.y1 - w.y0) * (w.x1 - w.x0));
          const int64_t o = ((n * g.out_h + oy) * g.out_w + ox) * g.in_c;
          for (int64_t y = w.y0; y < w.y1; ++y)
            for (int64_t x = w.x0; x < w.x1; ++x) {
              T* px = out + ((n * g.in_h + y) * g.in_w + x) * g.in_c;
              for (int64_t c = 0; c < g.in_c; ++c)
                px[c] = static_cast<T>(static_cast<Acc<T>>(px[c]) + static_cast<Acc<T>>(grad[o + c]) / count);
            }
        }
  }, 1);
}

void max_pool_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesFloat | kTypesInt);
  const Conv2DGeometry g = pool2d_geometry(in.shape(), c.attrs);
  TensorImpl* out = c.allocate_output(0, in.dtype(), g.output_shape(), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_REAL(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), max_pool<T>(g, in.data<T>(), out->data<T>()));
}

void avg_pool_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesFloat);
  const Conv2DGeometry g = pool2d_geometry(in.shape(), c.attrs);
  TensorImpl* out = c.allocate_output(0, in.dtype(), g.output_shape(), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_FLOAT(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), avg_pool<T>(g, in.data<T>(), out->data<T>()));
}

void check_grad_shape(const Conv2DGeometry& g, const TensorImpl& grad) {
  if (grad.shape() != g.output_shape())
    throw_error(Code::kInvalidArgument, "Expected grad shape to be ", g.output_shape().to_list_string(),
                ", but got ", grad.shape().to_list_string());
}

void max_pool_grad_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& grad = *c.input(2);
  check_type(c.op, in.dtype(), kTypesFloat);
  check_same_dtype(c.op, in.dtype(), grad.dtype(), 2);
  const Conv2DGeometry g = pool2d_geometry(in.shape(), c.attrs);
  check_grad_shape(g, grad);
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_FLOAT(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()),
                    max_pool_grad<T>(g, in.data<T>(), grad.data<T>(), out->data<T>()));
}

void avg_pool_grad_kernel(KernelContext& c) {
  const TensorImpl& sizes = *c.input(0);
  const TensorImpl& grad = *c.input(1);
  check_type(c.op, grad.dtype(), kTypesFloat);
  if (sizes.rank() != 1 || sizes.num_elements() != 4)
    throw_error(Code::kInvalidArgument, "orig_input_shape must be 1-dimensional and 4 elements");
  const Shape in_shape(tensor_to_int_vector(sizes));
  const Conv2DGeometry g = pool2d_geometry(in_shape, c.attrs);
  check_grad_shape(g, grad);
  TensorImpl* out = c.allocate_output(0, grad.dtype(), in_shape, false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_FLOAT(grad.dtype(), throw_no_kernel(c.op, "T", grad.dtype()),
                    avg_pool_grad<T>(g, grad.data<T>(), out->data<T>()));
}

EF_REGISTER_CPU_KERNEL("MaxPool", max_pool_kernel);
EF_REGISTER_CPU_KERNEL("AvgPool", avg_pool_kernel);
EF_REGISTER_CPU_KERNEL("MaxPoolGrad", max_pool_grad_kernel);
EF_REGISTER_CPU_KERNEL("AvgPoolGrad", avg_pool_grad_kernel);

}  // namespace
}  // namespace ef
