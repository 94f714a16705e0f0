// CPU Conv2D and its gradients (NHWC input, HWIO filter) as im2col + GEMM: each output pixel's
// receptive field becomes a row of k_h*k_w*in_c values (zeros where the window leaves the padded
// input), multiplied by the filter viewed as [k_h*k_w*in_c, out_c].
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/gemm.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// Patch rows are made and multiplied a block at a time (about kBlockBytes of patches), so the
// patch matrix stays in cache and is never allocated whole.
constexpr int64_t kBlockBytes = int64_t(8) << 20;

// Output pixel rows across all images: row r is image r / (out_h*out_w), pixel r % (out_h*out_w).
struct Rows {
  const Conv2DGeometry& g;
  int64_t per_image() const { return g.out_h * g.out_w; }
  int64_t total() const { return g.batch * per_image(); }
  int64_t patch() const { return g.k_h * g.k_w * g.in_c; }
  int64_t block(size_t elem) const {
    return std::max<int64_t>(64, kBlockBytes / std::max<int64_t>(patch() * static_cast<int64_t>(elem), 1));
  }
};

// The input pixel of output (oy, ox) and tap (ky, kx); false when it falls in the padding.
inline bool source(const Conv2DGeometry& g, int64_t oy, int64_t ox, int64_t ky, int64_t kx, int64_t* iy,
                   int64_t* ix) {
  *iy = oy * g.stride_h - g.pad_top + ky * g.dil_h;
  *ix = ox * g.stride_w - g.pad_left + kx * g.dil_w;
  return *iy >= 0 && *iy < g.in_h && *ix >= 0 && *ix < g.in_w;
}

// Patch rows [r0, r1) of `in` (all images) into `cols`, one row of k_h*k_w*in_c per output pixel.
template <typename T>
void im2col(const Conv2DGeometry& g, const T* in, int64_t r0, int64_t r1, T* cols) {
  const Rows rows{g};
  const int64_t kc = g.in_c;
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t n = r / rows.per_image(), p = r % rows.per_image(), oy = p / g.out_w, ox = p % g.out_w;
    const T* image = in + n * g.in_h * g.in_w * kc;
    T* row = cols + (r - r0) * rows.patch();
    for (int64_t ky = 0; ky < g.k_h; ++ky)
      for (int64_t kx = 0; kx < g.k_w; ++kx, row += kc) {
        int64_t iy, ix;
        if (source(g, oy, ox, ky, kx, &iy, &ix))
          std::memcpy(row, image + (iy * g.in_w + ix) * kc, sizeof(T) * kc);
        else
          std::fill(row, row + kc, T(0));
      }
  }
}

// Adds patch rows [r0, r1) back onto the input pixels they came from.
template <typename T>
void col2im(const Conv2DGeometry& g, const T* cols, int64_t r0, int64_t r1, T* in) {
  const Rows rows{g};
  const int64_t kc = g.in_c;
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t n = r / rows.per_image(), p = r % rows.per_image(), oy = p / g.out_w, ox = p % g.out_w;
    T* image = in + n * g.in_h * g.in_w * kc;
    const T* row = cols + (r - r0) * rows.patch();
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
std::unique_ptr<T[]> scratch(int64_t n) {
  return std::unique_ptr<T[]>(new T[static_cast<size_t>(n)]);  // no zero fill: every element is written
}

bool pointwise(const Conv2DGeometry& g) {
  return g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 0 && g.pad_left == 0 &&
         g.out_h == g.in_h && g.out_w == g.in_w;
}

template <typename T>
void conv2d(const Conv2DGeometry& g, const T* in, const T* filter, T* out) {
  const Rows rows{g};
  if (pointwise(g)) {  // the input already is the patch matrix
    gemm(in, filter, out, rows.total(), g.out_c, rows.patch(), false, false);
    return;
  }
  const int64_t block = rows.block(sizeof(T));
  auto cols = scratch<T>(std::min(block, rows.total()) * rows.patch());
  for (int64_t r = 0; r < rows.total(); r += block) {
    const int64_t r1 = std::min(r + block, rows.total());
    im2col(g, in, r, r1, cols.get());
    gemm(cols.get(), filter, out + r * g.out_c, r1 - r, g.out_c, rows.patch(), false, false);
  }
}

template <typename T>
void conv2d_backprop_input(const Conv2DGeometry& g, const T* filter, const T* dout, T* din) {
  const Rows rows{g};
  std::fill(din, din + g.batch * g.in_h * g.in_w * g.in_c, T(0));
  const int64_t block = rows.block(sizeof(T));
  auto cols = scratch<T>(std::min(block, rows.total()) * rows.patch());
  for (int64_t r = 0; r < rows.total(); r += block) {
    const int64_t r1 = std::min(r + block, rows.total());
    // d(patches) = dout @ filter^T
    gemm(dout + r * g.out_c, filter, cols.get(), r1 - r, rows.patch(), g.out_c, false, true);
    col2im(g, cols.get(), r, r1, din);
  }
}

template <typename T>
void conv2d_backprop_filter(const Conv2DGeometry& g, const T* in, const T* dout, T* dfilter) {
  const Rows rows{g};
  const int64_t fsize = rows.patch() * g.out_c;
  std::fill(dfilter, dfilter + fsize, T(0));
  const int64_t block = rows.block(sizeof(T));
  auto cols = scratch<T>(std::min(block, rows.total()) * rows.patch());
  auto part = scratch<T>(fsize);
  for (int64_t r = 0; r < rows.total(); r += block) {
    const int64_t r1 = std::min(r + block, rows.total());
    im2col(g, in, r, r1, cols.get());
    // d(filter) += patches^T @ dout
    gemm(cols.get(), dout + r * g.out_c, part.get(), rows.patch(), g.out_c, r1 - r, true, false);
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

Shape sizes_input(const TensorImpl& t, const char* op, const char* what) {
  if (t.rank() != 1 || (t.num_elements() != 4 && t.num_elements() != 2))
    throw_error(Code::kInvalidArgument, op, " requires ", what, " to contain 4 values or 2 values, but got: ",
                t.num_elements());
  return Shape(tensor_to_int_vector(t));
}

// TF's ConvBackpropComputeDimensions checks, before the geometry's own (its messages name the op).
void check_backprop_dims(const char* label, const Shape& in, const Shape& f, const TensorImpl& dout) {
  if (in.rank() != 4 || f.rank() != 4 || dout.rank() != 4)
    throw_error(Code::kInvalidArgument, label, ": input, filter and out_backprop must be 4-dimensional");
  if (in[0] != dout.shape()[0])
    throw_error(Code::kInvalidArgument, label, ": input and out_backprop must have the same batch size. Input batch: ",
                in[0], ", outbackprop batch: ", dout.shape()[0], ", batch_dim: 0");
  if (f[2] == 0 || in[3] % f[2] != 0)
    throw_error(Code::kInvalidArgument, label, ": input depth must be evenly divisible by filter depth");
  if (f[3] != dout.shape()[3])
    throw_error(Code::kInvalidArgument, label, ": filter and out_backprop must have the same out_depth");
}

void check_out_backprop(const char* label, const Conv2DGeometry& g, const TensorImpl& dout) {
  const int64_t computed[2] = {g.out_h, g.out_w}, input[2] = {g.in_h, g.in_w}, filter[2] = {g.k_h, g.k_w};
  const int64_t stride[2] = {g.stride_h, g.stride_w}, dil[2] = {g.dil_h, g.dil_w};
  for (int i = 0; i < 2; ++i)
    if (dout.shape()[i + 1] != computed[i])
      throw_error(Code::kInvalidArgument, label, ": Size of out_backprop doesn't match computed: actual = ",
                  dout.shape()[i + 1], ", computed = ", computed[i], " spatial_dim: ", i + 1, " input: ", input[i],
                  " filter: ", filter[i], " output: ", dout.shape()[i + 1], " stride: ", stride[i],
                  " dilation: ", dil[i]);
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
  Shape in_shape = sizes_input(*c.input(0), "Conv2DBackpropInput", "input_sizes");
  if (in_shape.rank() == 2 && f.rank() == 4 && dout.rank() == 4)  // the spatial sizes alone
    in_shape = Shape({dout.shape()[0], in_shape[0], in_shape[1], f.shape()[2]});
  check_backprop_dims("Conv2DCustomBackpropInput", in_shape, f.shape(), dout);
  const Conv2DGeometry g = conv2d_geometry(in_shape, f.shape(), c.attrs);
  check_out_backprop("Conv2DCustomBackpropInput", g, dout);
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
  const Shape f_shape = sizes_input(*c.input(1), "Conv2DBackpropFilter", "filter_sizes");
  check_backprop_dims("Conv2DCustomBackpropFilter", in.shape(), f_shape, dout);
  const Conv2DGeometry g = conv2d_geometry(in.shape(), f_shape, c.attrs);
  check_out_backprop("Conv2DCustomBackpropFilter", g, dout);
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
