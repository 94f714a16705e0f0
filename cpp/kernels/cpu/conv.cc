// CPU Conv2D and its gradients (NHWC input, HWIO filter). float32 convolutions and both gradients
// run the direct kernels of conv_direct.h (stride-1 input gradients as forward convolutions);
// double, and float32 under set_conv_kernel("im2col"), is im2col + GEMM: each output pixel's
// receptive field becomes a row of k_h*k_w*in_c values (zeros where the window leaves the padded
// input), multiplied by the filter viewed as [k_h*k_w*in_c, out_c]. 1x1 stride-1 convolutions are
// plain GEMMs on the input itself.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/threadpool.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/conv_direct.h"
#include "kernels/cpu/gemm.h"
#include "ops/conv_shape.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

// Patch rows are made and multiplied a block at a time (about kBlockBytes of patches, so the
// block stays in L2 and the patch matrix is never allocated whole). Blocks run on the pool, each
// thread with its own scratch and a single-threaded GEMM: im2col runs in parallel too, and there is
// one pool region per op instead of one per block.
constexpr int64_t kBlockBytes = int64_t(1) << 20;
// Below this many multiply-adds a convolution runs as one block (the GEMM may still split).
constexpr int64_t kSplitMacs = int64_t(1) << 22;

// Output pixel rows across all images: row r is image r / (out_h*out_w), pixel r % (out_h*out_w).
struct Rows {
  const Conv2DGeometry& g;
  int64_t per_image() const { return g.out_h * g.out_w; }
  int64_t total() const { return g.batch * per_image(); }
  int64_t patch() const { return g.k_h * g.k_w * g.in_c; }
  // Rows per block: about kBlockBytes of patches, with a multiple of the thread count of blocks.
  int64_t block(size_t elem) const {
    const int64_t n = total();
    if (n * patch() * g.out_c < kSplitMacs) return std::max<int64_t>(n, 1);
    const int64_t target = std::max<int64_t>(64, kBlockBytes / std::max<int64_t>(patch() * int64_t(elem), 1));
    const int64_t nt = num_threads();
    const int64_t blocks = ((n + target - 1) / target + nt - 1) / nt * nt;
    return std::max<int64_t>(1, (n + blocks - 1) / blocks);
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

// Calls fn(part, r0, r1, scratch) for each block of patch rows. The pool's threads take blocks
// from a shared counter (a thread the OS preempts just takes fewer); `part` < plan.parts names the
// taking thread's slot, scratch holds one block of patches.
struct BlockPlan {
  int64_t block, nblocks, parts;
};

template <typename T>
BlockPlan plan_blocks(const Conv2DGeometry& g) {
  const Rows rows{g};
  const int64_t block = rows.block(sizeof(T));
  const int64_t nblocks = (rows.total() + block - 1) / block;
  return {block, nblocks, std::max<int64_t>(1, std::min<int64_t>(num_threads(), nblocks))};
}

template <typename T, class F>
void for_blocks(const Conv2DGeometry& g, const BlockPlan& plan, F&& fn) {
  const Rows rows{g};
  std::atomic<int64_t> next{0};
  parallel_for(plan.parts, 1, [&](int64_t p0, int64_t) {
    auto cols = scratch<T>(std::min(plan.block, rows.total()) * rows.patch());
    for (int64_t b; (b = next.fetch_add(1)) < plan.nblocks;) {
      const int64_t r = b * plan.block, r1 = std::min(r + plan.block, rows.total());
      fn(p0, r, r1, cols.get());
    }
  });
}

template <typename T>
void conv2d(const Conv2DGeometry& g, const T* in, const T* filter, T* out) {
  const Rows rows{g};
  if constexpr (std::is_same_v<T, float>) {
    if (conv_direct_enabled()) return conv2d_direct_f32(g, in, filter, out);
  }
  if (pointwise(g)) {  // the input already is the patch matrix
    gemm(in, filter, out, rows.total(), g.out_c, rows.patch(), false, false);
    return;
  }
  for_blocks<T>(g, plan_blocks<T>(g), [&](int64_t, int64_t r, int64_t r1, T* cols) {
    im2col(g, in, r, r1, cols);
    gemm(cols, filter, out + r * g.out_c, r1 - r, g.out_c, rows.patch(), false, false);
  });
}

// With stride 1 the input gradient is a forward convolution of out_backprop with the filter
// rotated by 180 degrees and its channels swapped ("full" padding): no scatter, and blocks of
// it run in parallel. The padding of that convolution is what the window leaves on each side.
bool flipped_geometry(const Conv2DGeometry& g, Conv2DGeometry* f) {
  if (g.stride_h != 1 || g.stride_w != 1) return false;
  const int64_t top = (g.k_h - 1) * g.dil_h - g.pad_top, left = (g.k_w - 1) * g.dil_w - g.pad_left;
  if (top < 0 || left < 0) return false;
  *f = g;
  f->in_h = g.out_h, f->in_w = g.out_w, f->in_c = g.out_c, f->out_c = g.in_c;
  f->out_h = g.in_h, f->out_w = g.in_w, f->pad_top = top, f->pad_left = left;
  return true;
}

template <typename T>
void conv2d_backprop_input(const Conv2DGeometry& g, const T* filter, const T* dout, T* din) {
  const Rows rows{g};
  Conv2DGeometry flipped;
  if (flipped_geometry(g, &flipped)) {
    // f'[ky, kx, o, i] = f[kh-1-ky, kw-1-kx, i, o]
    std::vector<T> f(static_cast<size_t>(rows.patch() * g.out_c));
    for (int64_t ky = 0; ky < g.k_h; ++ky)
      for (int64_t kx = 0; kx < g.k_w; ++kx) {
        const T* src = filter + ((g.k_h - 1 - ky) * g.k_w + (g.k_w - 1 - kx)) * g.in_c * g.out_c;
        T* dst = f.data() + (ky * g.k_w + kx) * g.out_c * g.in_c;
        for (int64_t i = 0; i < g.in_c; ++i)
          for (int64_t o = 0; o < g.out_c; ++o) dst[o * g.in_c + i] = src[i * g.out_c + o];
      }
    conv2d(flipped, dout, f.data(), din);
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (conv_direct_enabled()) return conv2d_backprop_input_direct_f32(g, filter, dout, din);
  }
  // Strided: d(patches) = dout @ filter^T scattered back (col2im); images run in parallel since
  // their patches never overlap.
  std::fill(din, din + g.batch * g.in_h * g.in_w * g.in_c, T(0));
  const int64_t block = std::min(rows.block(sizeof(T)), std::max<int64_t>(rows.per_image(), 1));
  parallel_for(g.batch, 1, [&](int64_t n0, int64_t n1) {
    auto cols = scratch<T>(block * rows.patch());
    for (int64_t r = n0 * rows.per_image(); r < n1 * rows.per_image(); r += block) {
      const int64_t r1 = std::min(r + block, n1 * rows.per_image());
      gemm(dout + r * g.out_c, filter, cols.get(), r1 - r, rows.patch(), g.out_c, false, true);
      col2im(g, cols.get(), r, r1, din);
    }
  });
}

// d(filter) = sum over blocks of patches^T @ dout: each thread sums its blocks into its own slot.
template <typename T>
void conv2d_backprop_filter(const Conv2DGeometry& g, const T* in, const T* dout, T* dfilter) {
  if constexpr (std::is_same_v<T, float>) {
    if (conv_direct_enabled()) return conv2d_backprop_filter_direct_f32(g, in, dout, dfilter);
  }
  const Rows rows{g};
  const int64_t fsize = rows.patch() * g.out_c;
  const BlockPlan plan = plan_blocks<T>(g);
  std::vector<T> sums(static_cast<size_t>(plan.parts * fsize), T(0));
  std::vector<std::unique_ptr<T[]>> parts(static_cast<size_t>(plan.parts));
  for (auto& p : parts) p = scratch<T>(fsize);
  for_blocks<T>(g, plan, [&](int64_t p, int64_t r, int64_t r1, T* cols) {
    T* part = parts[p].get();
    if (pointwise(g)) {
      gemm(in + r * g.in_c, dout + r * g.out_c, part, rows.patch(), g.out_c, r1 - r, true, false);
    } else {
      im2col(g, in, r, r1, cols);
      gemm(cols, dout + r * g.out_c, part, rows.patch(), g.out_c, r1 - r, true, false);
    }
    T* acc = sums.data() + p * fsize;
    for (int64_t i = 0; i < fsize; ++i) acc[i] += part[i];
  });
  std::copy(sums.begin(), sums.begin() + fsize, dfilter);
  for (int64_t p = 1; p < plan.parts; ++p)
    for (int64_t i = 0; i < fsize; ++i) dfilter[i] += sums[p * fsize + i];
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

// _FusedConv2D: Conv2D + BiasAdd (+ Relu); the direct kernels apply them to the sums in registers.
void fused_conv2d_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& f = *c.input(1);
  const TensorImpl& bias = *c.input(2);
  check_conv_types(c, in.dtype(), f.dtype(), 1);
  const Conv2DGeometry g = conv2d_geometry(in.shape(), f.shape(), c.attrs);
  if (bias.rank() != 1 || bias.shape()[0] != g.out_c)
    throw_error(Code::kInvalidArgument, "Must provide as many biases as the last dimension of the input tensor: ",
                bias.shape().to_string(), " vs. ", g.output_shape().to_string());
  const bool relu = fused_conv2d_relu(c.attrs);
  TensorImpl* out = c.allocate_output(0, in.dtype(), g.output_shape(), false);
  if (out->num_elements() == 0) return;
  float* o = out->data<float>();
  const float* b = bias.data<float>();
  if (f.num_elements() == 0 || in.num_elements() == 0) {
    zero<float>(out);
  } else if (conv_direct_enabled()) {
    return conv2d_direct_f32(g, in.data<float>(), f.data<float>(), o, b, relu);
  } else {
    conv2d<float>(g, in.data<float>(), f.data<float>(), o);
  }
  const int64_t rows = out->num_elements() / g.out_c;
  parallel_for(rows, std::max<int64_t>(1, 4096 / g.out_c), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      for (int64_t k = 0; k < g.out_c; ++k) {
        const float v = o[r * g.out_c + k] + b[k];
        o[r * g.out_c + k] = relu ? (v < 0.0f ? 0.0f : v) : v;
      }
  });
}

EF_REGISTER_CPU_KERNEL("Conv2D", conv2d_kernel);
EF_REGISTER_CPU_KERNEL("_FusedConv2D", fused_conv2d_kernel);
EF_REGISTER_CPU_KERNEL("Conv2DBackpropInput", conv2d_backprop_input_kernel);
EF_REGISTER_CPU_KERNEL("Conv2DBackpropFilter", conv2d_backprop_filter_kernel);

}  // namespace
}  // namespace ef
