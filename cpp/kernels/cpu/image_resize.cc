// CPU ResizeBilinear / ResizeNearestNeighbor over NHWC images and their gradients, with TF's
// coordinate rules: half_pixel_centers samples at (i + 0.5) * scale - 0.5 (bilinear) or
// floor((i + 0.5) * scale) (nearest); otherwise i * scale, and align_corners maps corner to corner.
// Interpolation runs in float whatever the input dtype, as TF's kernels do.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/signature.h"

// TF's kernels round each product before adding it: with a fused multiply-add the bilinear outputs
// would differ from TF's in the last bits.
#include "kernels/cpu/no_fp_contract.h"

namespace ef {
namespace {

struct Resize {
  bool align_corners, half_pixel;
  int64_t batch, in_h, in_w, ch, out_h, out_w;
  float scale_h, scale_w;
};

float resize_scale(int64_t in, int64_t out, bool align_corners) {
  return (align_corners && out > 1) ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                    : static_cast<float>(in) / static_cast<float>(out);
}

void check_align(const Attrs& attrs, bool* align_corners, bool* half_pixel) {
  *align_corners = attrs.get<bool>("align_corners", false);
  *half_pixel = attrs.get<bool>("half_pixel_centers", false);
  if (*half_pixel && *align_corners)
    throw_error(Code::kInvalidArgument, "If half_pixel_centers is True, align_corners must be False.");
}

// The new [height, width] from a size tensor, checked as TF's ImageResizerState.
void read_size(const TensorImpl& size, const char* positive_message, int64_t* h, int64_t* w) {
  if (size.rank() != 1) throw_error(Code::kInvalidArgument, "shape_t must be 1-dimensional", size.shape().to_list_string());
  if (size.num_elements() != 2)
    throw_error(Code::kInvalidArgument, "shape_t must have two elements", size.shape().to_list_string());
  const std::vector<int64_t> s = tensor_to_int_vector(size);
  *h = s[0], *w = s[1];
  if (*h <= 0 || *w <= 0) throw_error(Code::kInvalidArgument, positive_message);
}

void check_rank4(const TensorImpl& t, const char* what) {
  if (t.rank() != 4) throw_error(Code::kInvalidArgument, what, " must be 4-dimensional", t.shape().to_list_string());
}

// Forward geometry: images [b, in_h, in_w, c] resized to `size`.
Resize forward_geometry(const KernelContext& c) {
  Resize r;
  check_align(c.attrs, &r.align_corners, &r.half_pixel);
  const TensorImpl& in = *c.input(0);
  check_rank4(in, "input");
  read_size(*c.input(1), "output dimensions must be positive", &r.out_h, &r.out_w);
  r.batch = in.shape().dim(0), r.in_h = in.shape().dim(1), r.in_w = in.shape().dim(2), r.ch = in.shape().dim(3);
  if (r.in_h <= 0 || r.in_w <= 0) throw_error(Code::kInvalidArgument, "input image must be of non-zero size");
  r.scale_h = resize_scale(r.in_h, r.out_h, r.align_corners);
  r.scale_w = resize_scale(r.in_w, r.out_w, r.align_corners);
  return r;
}

// One output coordinate's two source indices and the weight of the upper one.
struct Lerp {
  int64_t lower, upper;
  float lerp;
};

std::vector<Lerp> lerps(int64_t out, int64_t in, float scale, bool half_pixel) {
  std::vector<Lerp> v(out);
  for (int64_t i = 0; i < out; ++i) {
    const float x = half_pixel ? (static_cast<float>(i) + 0.5f) * scale - 0.5f : static_cast<float>(i) * scale;
    const float xf = std::floor(x);
    v[i] = {std::max<int64_t>(static_cast<int64_t>(xf), 0), std::min<int64_t>(static_cast<int64_t>(std::ceil(x)), in - 1),
            x - xf};
  }
  return v;
}

// The source index of output index i for nearest neighbor.
int64_t nearest(int64_t i, float scale, int64_t in, bool align_corners, bool half_pixel) {
  const float x = half_pixel ? (static_cast<float>(i) + 0.5f) * scale : static_cast<float>(i) * scale;
  int64_t k = std::min<int64_t>(static_cast<int64_t>(align_corners ? std::round(x) : std::floor(x)), in - 1);
  return half_pixel ? std::max<int64_t>(k, 0) : k;
}

template <typename T>
void resize_bilinear(const Resize& r, const T* in, float* out) {
  const std::vector<Lerp> ys = lerps(r.out_h, r.in_h, r.scale_h, r.half_pixel);
  const std::vector<Lerp> xs = lerps(r.out_w, r.in_w, r.scale_w, r.half_pixel);
  for_range(r.batch * r.out_h, [&](int64_t s, int64_t e) {
    for (int64_t row = s; row < e; ++row) {
      const int64_t b = row / r.out_h, y = row % r.out_h;
      const T* top = in + (b * r.in_h + ys[y].lower) * r.in_w * r.ch;
      const T* bottom = in + (b * r.in_h + ys[y].upper) * r.in_w * r.ch;
      const float yl = ys[y].lerp;
      float* o = out + row * r.out_w * r.ch;
      for (int64_t x = 0; x < r.out_w; ++x) {
        const int64_t l = xs[x].lower * r.ch, u = xs[x].upper * r.ch;
        const float xl = xs[x].lerp;
        for (int64_t k = 0; k < r.ch; ++k) {
          const float tl = static_cast<float>(top[l + k]), tr = static_cast<float>(top[u + k]);
          const float bl = static_cast<float>(bottom[l + k]), br = static_cast<float>(bottom[u + k]);
          const float t = tl + (tr - tl) * xl;
          const float bo = bl + (br - bl) * xl;
          o[x * r.ch + k] = t + (bo - t) * yl;
        }
      }
    }
  }, std::max<int64_t>(1, 4096 / std::max<int64_t>(r.out_w * r.ch, 1)));
}

template <typename T>
void resize_nearest(const Resize& r, const T* in, T* out) {
  std::vector<int64_t> xs(r.out_w);
  for (int64_t x = 0; x < r.out_w; ++x) xs[x] = nearest(x, r.scale_w, r.in_w, r.align_corners, r.half_pixel) * r.ch;
  for_range(r.batch * r.out_h, [&](int64_t s, int64_t e) {
    for (int64_t row = s; row < e; ++row) {
      const int64_t b = row / r.out_h, y = row % r.out_h;
      const T* src = in + (b * r.in_h + nearest(y, r.scale_h, r.in_h, r.align_corners, r.half_pixel)) * r.in_w * r.ch;
      T* o = out + row * r.out_w * r.ch;
      for (int64_t x = 0; x < r.out_w; ++x) std::copy(src + xs[x], src + xs[x] + r.ch, o + x * r.ch);
    }
  }, std::max<int64_t>(1, 4096 / std::max<int64_t>(r.out_w * r.ch, 1)));
}

// Gradients scatter grads [b, out_h, out_w, c] into [b, in_h, in_w, c]; images run in parallel.
// Acc is the output's dtype, except half, which TF accumulates in float and rounds at the end.
template <typename Acc>
void resize_bilinear_grad_into(const Resize& r, const float* grad, Acc* out) {
  std::fill(out, out + r.batch * r.in_h * r.in_w * r.ch, Acc(0));
  const std::vector<Lerp> ys = lerps(r.out_h, r.in_h, r.scale_h, r.half_pixel);
  const std::vector<Lerp> xs = lerps(r.out_w, r.in_w, r.scale_w, r.half_pixel);
  for_range(r.batch, [&](int64_t s, int64_t e) {
    for (int64_t b = s; b < e; ++b)
      for (int64_t y = 0; y < r.out_h; ++y) {
        const float yl = ys[y].lerp, iyl = 1.0f - yl;
        Acc* top = out + (b * r.in_h + ys[y].lower) * r.in_w * r.ch;
        Acc* bottom = out + (b * r.in_h + ys[y].upper) * r.in_w * r.ch;
        const float* g = grad + (b * r.out_h + y) * r.out_w * r.ch;
        for (int64_t x = 0; x < r.out_w; ++x) {
          const int64_t l = xs[x].lower * r.ch, u = xs[x].upper * r.ch;
          const float xl = xs[x].lerp, ixl = 1.0f - xl;
          for (int64_t k = 0; k < r.ch; ++k) {
            const float v = g[x * r.ch + k];
            top[l + k] += static_cast<Acc>(v * iyl * ixl);
            top[u + k] += static_cast<Acc>(v * iyl * xl);
            bottom[l + k] += static_cast<Acc>(v * yl * ixl);
            bottom[u + k] += static_cast<Acc>(v * yl * xl);
          }
        }
      }
  }, 1);
}

template <typename T>
void resize_bilinear_grad(const Resize& r, const float* grad, T* out) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    resize_bilinear_grad_into<T>(r, grad, out);
  } else {
    std::vector<float> acc(static_cast<size_t>(r.batch * r.in_h * r.in_w * r.ch));
    resize_bilinear_grad_into<float>(r, grad, acc.data());
    for (size_t i = 0; i < acc.size(); ++i) out[i] = static_cast<T>(acc[i]);
  }
}

template <typename T>
void resize_nearest_grad(const Resize& r, const T* grad, T* out) {
  std::fill(out, out + r.batch * r.in_h * r.in_w * r.ch, T(0));
  for_range(r.batch, [&](int64_t s, int64_t e) {
    for (int64_t b = s; b < e; ++b)
      for (int64_t y = 0; y < r.out_h; ++y) {
        T* dst = out + (b * r.in_h + nearest(y, r.scale_h, r.in_h, r.align_corners, r.half_pixel)) * r.in_w * r.ch;
        const T* g = grad + (b * r.out_h + y) * r.out_w * r.ch;
        for (int64_t x = 0; x < r.out_w; ++x) {
          T* d = dst + nearest(x, r.scale_w, r.in_w, r.align_corners, r.half_pixel) * r.ch;
          for (int64_t k = 0; k < r.ch; ++k) d[k] = static_cast<T>(d[k] + g[x * r.ch + k]);
        }
      }
  }, 1);
}

void resize_bilinear_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const Resize r = forward_geometry(c);
  TensorImpl* out = c.allocate_output(0, DType::kFloat32, Shape({r.batch, r.out_h, r.out_w, r.ch}), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_REAL(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()),
                   resize_bilinear<T>(r, in.data<T>(), out->data<float>()));
}

void resize_nearest_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const Resize r = forward_geometry(c);
  TensorImpl* out = c.allocate_output(0, in.dtype(), Shape({r.batch, r.out_h, r.out_w, r.ch}), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_REAL(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()),
                   resize_nearest<T>(r, in.data<T>(), out->data<T>()));
}

// The gradients' geometry runs the forward one backwards: "in" is the original image.
void resize_bilinear_grad_kernel(KernelContext& c) {
  const TensorImpl& grad = *c.input(0);
  const TensorImpl& orig = *c.input(1);
  Resize r;
  check_align(c.attrs, &r.align_corners, &r.half_pixel);
  check_rank4(grad, "input_grad");
  check_rank4(orig, "original_image");
  r.batch = grad.shape().dim(0), r.out_h = grad.shape().dim(1), r.out_w = grad.shape().dim(2);
  r.ch = grad.shape().dim(3), r.in_h = orig.shape().dim(1), r.in_w = orig.shape().dim(2);
  if (r.out_h <= 0 || r.out_w <= 0) throw_error(Code::kInvalidArgument, "resized dimensions must be positive");
  if (r.in_h <= 0 || r.in_w <= 0) throw_error(Code::kInvalidArgument, "original dimensions must be positive");
  r.scale_h = resize_scale(r.in_h, r.out_h, r.align_corners);
  r.scale_w = resize_scale(r.in_w, r.out_w, r.align_corners);
  TensorImpl* out = c.allocate_output(0, orig.dtype(), Shape({r.batch, r.in_h, r.in_w, r.ch}), false);
  if (out->num_elements() == 0) return;
  EF_DISPATCH_FLOAT(orig.dtype(), throw_no_kernel(c.op, "T", orig.dtype()),
                    resize_bilinear_grad<T>(r, grad.data<float>(), out->data<T>()));
}

void resize_nearest_grad_kernel(KernelContext& c) {
  const TensorImpl& grad = *c.input(0);
  Resize r;
  check_align(c.attrs, &r.align_corners, &r.half_pixel);
  check_rank4(grad, "input");
  read_size(*c.input(1), "shape_t's elements must be positive", &r.in_h, &r.in_w);
  r.batch = grad.shape().dim(0), r.out_h = grad.shape().dim(1), r.out_w = grad.shape().dim(2);
  r.ch = grad.shape().dim(3);
  // TF scales from the gradient's size back to the original's.
  r.scale_h = resize_scale(r.in_h, r.out_h, r.align_corners);
  r.scale_w = resize_scale(r.in_w, r.out_w, r.align_corners);
  TensorImpl* out = c.allocate_output(0, grad.dtype(), Shape({r.batch, r.in_h, r.in_w, r.ch}), false);
  if (out->num_elements() == 0 || grad.num_elements() == 0) {
    if (out->num_elements()) EF_DISPATCH_REAL(grad.dtype(), throw_no_kernel(c.op, "T", grad.dtype()),
                                              std::fill(out->data<T>(), out->data<T>() + out->num_elements(), T(0)));
    return;
  }
  EF_DISPATCH_REAL(grad.dtype(), throw_no_kernel(c.op, "T", grad.dtype()),
                   resize_nearest_grad<T>(r, grad.data<T>(), out->data<T>()));
}

EF_REGISTER_CPU_KERNEL("ResizeBilinear", resize_bilinear_kernel);
EF_REGISTER_CPU_KERNEL("ResizeNearestNeighbor", resize_nearest_kernel);
EF_REGISTER_CPU_KERNEL("ResizeBilinearGrad", resize_bilinear_grad_kernel);
EF_REGISTER_CPU_KERNEL("ResizeNearestNeighborGrad", resize_nearest_grad_kernel);

}  // namespace
}  // namespace ef
