// CPU MatMul / BatchMatMulV2: shapes, broadcasting of batches and dtypes here, the products in
// batch_gemm (gemm.h: Eigen's GEMM split across threads). float16 and bfloat16 multiply in float;
// int32/int64 go through unsigned types so overflow wraps like TF.

#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/gemm.h"
#include "ops/linalg_ops.h"

namespace ef {
namespace {

template <typename S>
void run_typed(const TensorImpl& x, const TensorImpl& y, TensorImpl* out, const std::vector<int64_t>& x_off,
               const std::vector<int64_t>& y_off, const MatDims& d) {
  batch_gemm<S>(x.data<S>(), y.data<S>(), out->data<S>(), x_off, y_off, d);
}

// float16 and bfloat16: multiply in float, round once at the end.
template <typename H>
void run_half(const TensorImpl& x, const TensorImpl& y, TensorImpl* out, const std::vector<int64_t>& x_off,
              const std::vector<int64_t>& y_off, const MatDims& d) {
  auto to_float = [](const TensorImpl& t) {
    std::vector<float> v(static_cast<size_t>(t.num_elements()));
    const H* p = t.data<H>();
    for_range(t.num_elements(), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) v[i] = static_cast<float>(p[i]);
    });
    return v;
  };
  std::vector<float> fx = to_float(x), fy = to_float(y), fo(static_cast<size_t>(out->num_elements()));
  batch_gemm<float>(fx.data(), fy.data(), fo.data(), x_off, y_off, d);
  H* po = out->data<H>();
  for_range(out->num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = static_cast<H>(fo[i]);
  });
}

void run(const TensorImpl& x, const TensorImpl& y, TensorImpl* out, const std::vector<int64_t>& x_off,
         const std::vector<int64_t>& y_off, const MatDims& d) {
  if (out->num_elements() == 0) return;
  switch (x.dtype()) {
    case DType::kFloat32: run_typed<float>(x, y, out, x_off, y_off, d); break;
    case DType::kFloat64: run_typed<double>(x, y, out, x_off, y_off, d); break;
    case DType::kComplex64: run_typed<complex64>(x, y, out, x_off, y_off, d); break;
    case DType::kInt32: run_typed<uint32_t>(x, y, out, x_off, y_off, d); break;
    case DType::kInt64: run_typed<uint64_t>(x, y, out, x_off, y_off, d); break;
    case DType::kFloat16: run_half<half>(x, y, out, x_off, y_off, d); break;
    case DType::kBFloat16: run_half<bfloat16>(x, y, out, x_off, y_off, d); break;
    case DType::kComplex128: run_typed<complex128>(x, y, out, x_off, y_off, d); break;
    default: break;  // rejected by check_type_pair
  }
}

void matmul_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  const TensorImpl& b = *c.input(1);
  check_type_pair(c.op, a.dtype(), b.dtype());
  const bool ta = c.attrs.get<bool>("transpose_a", false), tb = c.attrs.get<bool>("transpose_b", false);
  Shape os = matmul_output_shape(c.op, a.shape(), b.shape(), ta, tb);
  TensorImpl* out = c.allocate_output(0, a.dtype(), os);
  MatDims d{os[0], os[1], a.shape()[ta ? 0 : 1], ta, tb, false, false};
  run(a, b, out, {0}, {0}, d);
}

// _FusedMatMul: MatMul + BiasAdd (+ Relu). The same product as MatMul's (same split, same BLAS
// calls), then on each block the unfused ops' float operations (v + bias, v < 0 ? 0 : v), so the
// result is the same bits as the three ops.
void fused_matmul_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  const TensorImpl& b = *c.input(1);
  const TensorImpl& bias = *c.input(2);
  check_type_pair(c.op, a.dtype(), b.dtype());
  const bool ta = c.attrs.get<bool>("transpose_a", false), tb = c.attrs.get<bool>("transpose_b", false);
  const bool relu = fused_matmul_relu(c.attrs);
  const Shape os = matmul_output_shape(c.op, a.shape(), b.shape(), ta, tb);
  if (bias.dtype() != DType::kFloat32 || bias.rank() != 1 || bias.shape()[0] != os[1])
    throw_error(Code::kInvalidArgument, "Must provide as many biases as the last dimension of the input tensor: ",
                bias.shape().to_string(), " vs. ", os.to_string());
  TensorImpl* out = c.allocate_output(0, a.dtype(), os);
  if (out->num_elements() == 0) return;
  const int64_t N = os[1];
  float* o = out->data<float>();
  const float* pb = bias.data<float>();
  const MatDims d{os[0], N, a.shape()[ta ? 0 : 1], ta, tb, false, false};
  gemm_f32_epilogue(a.data<float>(), b.data<float>(), o, d, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    for (int64_t r = r0; r < r1; ++r) {
      float* row = o + r * N;
      if (relu) {
        for (int64_t j = c0; j < c1; ++j) {
          const float v = row[j] + pb[j];
          row[j] = v < 0.0f ? 0.0f : v;
        }
      } else {
        for (int64_t j = c0; j < c1; ++j) row[j] = row[j] + pb[j];
      }
    }
  });
}

void batch_matmul_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  const TensorImpl& y = *c.input(1);
  check_type_pair(c.op, x.dtype(), y.dtype());
  const bool adj_x = c.attrs.get<bool>("adj_x", false), adj_y = c.attrs.get<bool>("adj_y", false);
  const Shape os = batch_matmul_shape(x.shape(), y.shape(), adj_x, adj_y);
  TensorImpl* out = c.allocate_output(0, x.dtype(), os);
  const int ro = os.rank(), rx = x.rank(), ry = y.rank();
  const bool cplx = x.dtype() == DType::kComplex64 || x.dtype() == DType::kComplex128;
  MatDims d{os[ro - 2], os[ro - 1], x.shape()[rx - (adj_x ? 2 : 1)], adj_x, adj_y, adj_x && cplx, adj_y && cplx};
  // Batch offsets (in matrices) of each output batch into x and y, broadcasting size-1 dims.
  int64_t nb = 1;
  for (int i = 0; i < ro - 2; ++i) nb *= os[i];
  std::vector<int64_t> x_off(static_cast<size_t>(nb)), y_off(static_cast<size_t>(nb));
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rem = b, ox = 0, oy = 0, sx = 1, sy = 1;
    for (int i = ro - 3; i >= 0; --i) {
      const int64_t idx = rem % os[i];
      rem /= os[i];
      const int ix = i - (ro - rx), iy = i - (ro - ry);
      if (ix >= 0) {
        if (x.shape()[ix] != 1) ox += idx * sx;
        sx *= x.shape()[ix];
      }
      if (iy >= 0) {
        if (y.shape()[iy] != 1) oy += idx * sy;
        sy *= y.shape()[iy];
      }
    }
    x_off[b] = ox;
    y_off[b] = oy;
  }
  run(x, y, out, x_off, y_off, d);
}

EF_REGISTER_CPU_KERNEL("MatMul", matmul_kernel);
EF_REGISTER_CPU_KERNEL("_FusedMatMul", fused_matmul_kernel);
EF_REGISTER_CPU_KERNEL("BatchMatMulV2", batch_matmul_kernel);

}  // namespace
}  // namespace ef
