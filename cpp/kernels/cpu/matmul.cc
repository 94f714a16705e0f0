// CPU MatMul / BatchMatMulV2 through Eigen's GEMM. Eigen is built single-threaded, so large
// products are split by output rows (or columns, or batches) across parallel_for. float16
// multiplies in float; int32/int64 go through unsigned types so overflow wraps like TF.

// Eigen's AVX-512 complex GEMM packing trips GCC 12 (maybe-)uninitialized false positives
// inside avxintrin.h; the pragma must precede every include to cover those headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <Eigen/Core>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/linalg_ops.h"

namespace ef {
namespace {

template <typename S>
using RowMat = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Below this many multiply-adds a product runs on one thread (thread wake-up costs more).
constexpr int64_t kParallelMacs = int64_t(1) << 17;

template <bool kConj, typename X>
auto maybe_conj(const X& x) {
  if constexpr (kConj) return x.conjugate();
  else return x;
}

// C = op(A) @ op(B) where A, B are (possibly transposed) Eigen views; splits C across threads.
template <bool CA, bool CB, typename S, typename EA, typename EB>
void gemm_run(const EA& A, const EB& B, S* c, bool parallel) {
  const int64_t M = A.rows(), N = B.cols(), K = A.cols();
  Eigen::Map<RowMat<S>> C(c, M, N);
  const int64_t nt = num_threads();
  if (!parallel || nt <= 1 || M * N * K < kParallelMacs) {
    C.noalias() = maybe_conj<CA>(A) * maybe_conj<CB>(B);
    return;
  }
  if (M >= N) {
    const int64_t grain = ((M + nt - 1) / nt + 7) / 8 * 8;
    parallel_for(M, grain, [&](int64_t s, int64_t e) {
      C.middleRows(s, e - s).noalias() = maybe_conj<CA>(A.middleRows(s, e - s)) * maybe_conj<CB>(B);
    });
  } else {
    const int64_t grain = ((N + nt - 1) / nt + 7) / 8 * 8;
    parallel_for(N, grain, [&](int64_t s, int64_t e) {
      C.middleCols(s, e - s).noalias() = maybe_conj<CA>(A) * maybe_conj<CB>(B.middleCols(s, e - s));
    });
  }
}

// c[M, N] = op(a) @ op(b); a is stored row-major as [M, K] ([K, M] when ta), b as [K, N]
// ([N, K] when tb); ca/cb conjugate (complex adjoint).
template <typename S>
void gemm(const S* a, const S* b, S* c, int64_t M, int64_t N, int64_t K, bool ta, bool tb, bool ca, bool cb,
          bool parallel) {
  if (M == 0 || N == 0) return;
  if (K == 0) {
    std::fill(c, c + M * N, S(0));
    return;
  }
  Eigen::Map<const RowMat<S>> Am(a, ta ? K : M, ta ? M : K), Bm(b, tb ? N : K, tb ? K : N);
  constexpr bool kComplex = std::is_same_v<S, complex64>;
  auto with_a = [&](const auto& A, auto conj_a) {
    constexpr bool CA = decltype(conj_a)::value;
    if (!tb) gemm_run<CA, false, S>(A, Bm, c, parallel);
    else if (kComplex && cb) gemm_run<CA, kComplex, S>(A, Bm.transpose(), c, parallel);
    else gemm_run<CA, false, S>(A, Bm.transpose(), c, parallel);
  };
  if (!ta) with_a(Am, std::false_type());
  else if (kComplex && ca) with_a(Am.transpose(), std::integral_constant<bool, kComplex>());
  else with_a(Am.transpose(), std::false_type());
}

struct MatDims {
  int64_t M, N, K;
  bool ta, tb, ca, cb;
};

// Runs every batch's product; x_off/y_off give each output batch's input matrices (broadcast).
template <typename S>
void batch_gemm(const S* x, const S* y, S* out, const std::vector<int64_t>& x_off, const std::vector<int64_t>& y_off,
                const MatDims& d) {
  const int64_t B = static_cast<int64_t>(x_off.size());
  const int64_t xs = d.M * d.K, ys = d.K * d.N, os = d.M * d.N, macs = d.M * d.N * d.K;
  auto one = [&](int64_t i, bool parallel) {
    gemm<S>(x + x_off[i] * xs, y + y_off[i] * ys, out + i * os, d.M, d.N, d.K, d.ta, d.tb, d.ca, d.cb, parallel);
  };
  if (B > 1 && (macs < kParallelMacs || B >= 4 * num_threads())) {
    parallel_for(B, std::max<int64_t>(1, kParallelMacs / std::max<int64_t>(macs, 1)), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) one(i, false);
    });
  } else {
    for (int64_t i = 0; i < B; ++i) one(i, true);
  }
}

template <typename S>
void run_typed(const TensorImpl& x, const TensorImpl& y, TensorImpl* out, const std::vector<int64_t>& x_off,
               const std::vector<int64_t>& y_off, const MatDims& d) {
  batch_gemm<S>(x.data<S>(), y.data<S>(), out->data<S>(), x_off, y_off, d);
}

// float16: multiply in float, round once at the end.
void run_half(const TensorImpl& x, const TensorImpl& y, TensorImpl* out, const std::vector<int64_t>& x_off,
              const std::vector<int64_t>& y_off, const MatDims& d) {
  auto to_float = [](const TensorImpl& t) {
    std::vector<float> v(static_cast<size_t>(t.num_elements()));
    const half* p = t.data<half>();
    for_range(t.num_elements(), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) v[i] = static_cast<float>(p[i]);
    });
    return v;
  };
  std::vector<float> fx = to_float(x), fy = to_float(y), fo(static_cast<size_t>(out->num_elements()));
  batch_gemm<float>(fx.data(), fy.data(), fo.data(), x_off, y_off, d);
  half* po = out->data<half>();
  for_range(out->num_elements(), [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) po[i] = static_cast<half>(fo[i]);
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
    case DType::kFloat16: run_half(x, y, out, x_off, y_off, d); break;
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

void batch_matmul_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  const TensorImpl& y = *c.input(1);
  check_type_pair(c.op, x.dtype(), y.dtype());
  const bool adj_x = c.attrs.get<bool>("adj_x", false), adj_y = c.attrs.get<bool>("adj_y", false);
  const Shape os = batch_matmul_shape(x.shape(), y.shape(), adj_x, adj_y);
  TensorImpl* out = c.allocate_output(0, x.dtype(), os);
  const int ro = os.rank(), rx = x.rank(), ry = y.rank();
  const bool cplx = x.dtype() == DType::kComplex64;
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
EF_REGISTER_CPU_KERNEL("BatchMatMulV2", batch_matmul_kernel);

}  // namespace
}  // namespace ef
