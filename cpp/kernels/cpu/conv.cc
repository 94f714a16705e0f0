// CPU Conv2D and its gradients (NHWC input, HWIO filter) as im2col + GEMM: each image's receptive
// fields become rows of a [out_h*out_w, k_h*k_w*in_c] matrix (zeros where the window leaves the
// padded input) multiplied by the filter viewed as [k_h*k_w*in_c, out_c]. Images are processed in
// chunks that keep the patch matrix near kPatchBytes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/gemm.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

constexpr int64_t kPatchBytes = int64_t(64) << 20;

struct Patches {
  const Conv2DGeometry& g;
  int64_t rows() const { return g.out_h * g.out_w; }   // per image
  int64_t cols() const { return g.k_h * g.k_w * g.in_c; }
  int64_t images_per_chunk(size_t elem) const {
    const int64_t per = std::max<int64_t>(1, rows() * cols() * static_cast<int64_t>(elem));
    return std::clamp<int64_t>(kPatchBytes / per, 1, std::max<int64_t>(g.batch, 1));
  }
};

// The input pixel of output (oy, ox) and tap (ky, kx); false when it falls in the padding.
inline bool source(const Conv2DGeometry& g, int64_t oy, int64_t ox, int64_t ky, int64_t kx, int64_t* iy,
                   int64_t* ix) {
  *iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
  *ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
  return *iy >= 0 && *iy < g.in_h && *ix >= 0 && *ix < g.in_w;
}

template <typename T>
void im2col(const Conv2DGeometry& g, const T* image, T* cols) {
  const int64_t kc = g.in_c;
  for_range(g.out_h, [&](int64_t s, int64_t e) {
    for (int64_t oy = s; oy < e; ++oy)
      for (int64_t ox = 0; ox < g.out_w; ++ox) {
        T* row = cols + (oy * g.out_w + ox) * g.k_h * g.k_w * kc;
        for (int64_t ky = 0; ky < g.k_h; ++ky)
          for (int64_t kx = 0; kx < g.k_w; ++kx, row += kc) {
            int64_t iy, ix;
            if (source(g, oy, ox, ky, kx, &iy, &ix))
              std::memcpy(row, image + (iy * g.in_w + ix) * kc, sizeof(T) * kc);
            else
              std::fill(row, row + kc, T(0));
          }
      }
  }, std::max<int64_t>(1, 4096 / std::max<int64_t>(g.out_w * g.k_h * g.k_w * kc, 1)));
}

// Adds each patch row back onto the image pixels it came from.
template <typename T>
void col2im(const Conv2DGeometry& g, const T* cols, T* image) {
  const int64_t kc = g.in_c;
  for (int64_t oy = 0; oy < g.out_h; ++oy)
    for (int64_t ox = 0; ox < g.out_w; ++ox) {
      const T* row = cols + (oy * g.out_w + ox) * g.k_h * g.k_w * kc;
      for (int64_t ky = 0; ky < g.k_h; ++ky)
        for (int64_t kx = 0; kx < g.k_w; ++kx, row += kc) {
          int64_t iy, ix;
          if (!source(g, oy, ox, ky, kx, &iy, &ix)) continue;
          T* px = image + (iy * g.in_w + ix) * kc;
          for (int64_t c = 0; c < kc; ++c) px[c] += row[c];
        }
    }
}

template <typename T>
void gemm(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, bool ta, bool tb) {
  batch_gemm<T>(a, b, c, {0}, {0}, MatDims{m, n, k, ta, tb, false, false});
}

template <typename T>
void conv2d(const Conv2DGeometry& g, const T* in, const T* filter, T* out) {
  const Patches p{g};
  const int64_t chunk = p.images_per_chunk(sizeof(T));
  const bool pointwise = g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 &&
                         g.pad_left == 0;
  if (pointwise) {  // the input already is the patch matrix
    gemm(in, filter, out, g.batch * p.rows(), g.out_c, p.cols(), false, false);
    return;
  }
  std::vector<T> cols(static_cast<size_t>(chunk * p.rows() * p.cols()));
  for (int64_t b = 0; b < g.batch; b += chunk) {
    const int64_t nb = std::min(chunk, g.batch - b);
    for (int64_t i = 0; i < nb; ++i)
      im2col(g, in + (b + i) * g.in_h * g.in_w * g.in_c, cols.data() + i * p.rows() * p.cols());
    gemm(cols.data(), filter, out + b * p.rows() * g.out_c, nb * p.rows(), g.out_c, p.cols(), false, false);
  }
}

template <typename T>
void conv2d_backprop_input(const Conv2DGeometry& g, const T* filter, const T* dout, T* din) {
  const Patches p{g};
  const int64_t chunk = p.images_per_chunk(sizeof(T));
  std::fill(din, din + g.batch * g.in_h * g.in_w * g.in_c, T(0));
  std::vector<T> cols(static_cast<size_t>(chunk * p.rows() * p.cols()));
  for (int64_t b = 0; b < g.batch; b += chunk) {
    const int64_t nb = std::min(chunk, g.batch - b);
    // d(patches) = dout @ filter^T
    gemm(dout + b * p.rows() * g.out_c, filter, cols.data(), nb * p.rows(), p.cols(), g.out_c, false, true);
    for_range(nb, [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i)
        col2im(g, cols.data() + i * p.rows() * p.cols(), din + (b + i) * g.in_h * g.in_w * g.in_c);
    }, 1);
  }
}

template <typename T>
void conv2d_backprop_filter(const Conv2DGeometry& g, const T* in, const T* dout, T* dfilter) {
  const Patches p{g};
  const int64_t chunk = p.images_per_chunk(sizeof(T));
  const int64_t fsize = p.cols() * g.out_c;
  std::fill(dfilter, dfilter + fsize, T(0));
  std::vector<T> cols(static_cast<size_t>(chunk * p.rows() * p.cols())), part(static_cast<size_t>(fsize));
  for (int64_t b = 0; b < g.batch; b += chunk) {
    const int64_t nb = std::min(chunk, g.batch - b);
    for (int64_t i = 0; i < nb; ++i)
      im2col(g, in + (b + i) * g.in_h * g.in_w * g.in_c, cols.data() + i * p.rows() * p.cols());
    // d(filter) += patches^T @ dout
    gemm(cols.data(), dout + b * p.rows() * g.out_c, part.data(), p.cols(), g.out_c, nb * p.rows(), true, false);
    for (int64_t i = 0; i < fsize; ++i) dfilter[i] += part[i];
  }
}

// float and double (TF's half, bfloat16 and int32 kernels are not here).
template <class F>
void dispatch(KernelContext& c, DType t, F&& f) {
  if (t == DType::kFloat32) f(float());
  else if (t == DType::kFloat64) f(double());
  else throw_no_kernel(c.op, "T", t);
}

void check_conv_types(KernelContext& c, DType a, DType b, size_t b_index) {
  check_type(c.op, a, kTypesFloat);
  check_same_dtype(c.op, a, b, b_index);
}

Shape sizes_input(const TensorImpl& t, const char* what) {
  if (t.rank() != 1 || t.num_elements() != 4)
    throw_error(Code::kInvalidArgument, what, " must be a 1-D tensor of 4 sizes, got shape ",
                t.shape().to_list_string());
  return Shape(tensor_to_int_vector(t));
}

void check_out_backprop(const Conv2DGeometry& g, const TensorImpl& dout) {
  if (dout.shape() != g.output_shape())
    throw_error(Code::kInvalidArgument, "Conv2DSlowBackprop: Size of out_backprop doesn't match computed: actual = ",
                dout.shape().to_list_string(), ", computed = ", g.output_shape().to_list_string());
}

template <typename T>
void zero(TensorImpl* t) {
  std::fill(t->data<T>(), t->data<T>() + t->num_elements(), T(0));
}

void conv2d_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& f = *c.input(1);
  check_conv_types(c, in.dtype(), f.dtype(), 1);
  const Conv2DGeometry g = conv2d_geometry(in.shape(), f.shape(), c.attrs);
  TensorImpl* out = c.allocate_output(0, in.dtype(), g.output_shape(), false);
  dispatch(c, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (out->num_elements() == 0) return;
    if (f.num_elements() == 0 || in.num_elements() == 0) return zero<T>(out);
    conv2d<T>(g, in.data<T>(), f.data<T>(), out->data<T>());
  });
}

void conv2d_backprop_input_kernel(KernelContext& c) {
  const TensorImpl& f = *c.input(1);
  const TensorImpl& dout = *c.input(2);
  check_conv_types(c, f.dtype(), dout.dtype(), 2);
  const Shape in_shape = sizes_input(*c.input(0), "Conv2DBackpropInput: input_sizes");
  const Conv2DGeometry g = conv2d_geometry(in_shape, f.shape(), c.attrs);
  check_out_backprop(g, dout);
  TensorImpl* din = c.allocate_output(0, f.dtype(), in_shape, false);
  dispatch(c, f.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (din->num_elements() == 0) return;
    if (dout.num_elements() == 0 || f.num_elements() == 0) return zero<T>(din);
    conv2d_backprop_input<T>(g, f.data<T>(), dout.data<T>(), din->data<T>());
  });
}

void conv2d_backprop_filter_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& dout = *c.input(2);
  check_conv_types(c, in.dtype(), dout.dtype(), 2);
  const Shape f_shape = sizes_input(*c.input(1), "Conv2DBackpropFilter: filter_sizes");
  const Conv2DGeometry g = conv2d_geometry(in.shape(), f_shape, c.attrs);
  check_out_backprop(g, dout);
  TensorImpl* df = c.allocate_output(0, in.dtype(), f_shape, false);
  dispatch(c, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (df->num_elements() == 0) return;
    if (dout.num_elements() == 0 || in.num_elements() == 0) return zero<T>(df);
    conv2d_backprop_filter<T>(g, in.data<T>(), dout.data<T>(), df->data<T>());
  });
}

EF_REGISTER_CPU_KERNEL("Conv2D", conv2d_kernel);
EF_REGISTER_CPU_KERNEL("Conv2DBackpropInput", conv2d_backprop_input_kernel);
EF_REGISTER_CPU_KERNEL("Conv2DBackpropFilter", conv2d_backprop_filter_kernel);

}  // namespace
}  // namespace ef
