#pragma once
// The GEMM of MatMul / BatchMatMulV2 and the convolutions: float/double through the BLAS when
// there is one (blas.h), the other dtypes (and the fallback) through Eigen, instantiated per dtype
// in gemm_*.cc so the heavy Eigen products compile in parallel (and matmul.cc does not parse Eigen).
// Eigen's AVX-512 complex GEMM packing trips GCC 12 (maybe-)uninitialized false positives
// inside avxintrin.h; the pragma must precede every include to cover those headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"

#include <Eigen/Core>
#include <vector>

#include "kernels/cpu/blas.h"
#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/gemm.h"

namespace ef {
namespace gemm_detail {

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

// Splits the rows (or columns) of c across threads like gemm_run, one BLAS call per block
// (c = alpha * op(a) @ op(b) + beta * c), then the epilogue, when given, on that block.
template <typename S>
void gemm_blas(const S* a, const S* b, S* c, int64_t M, int64_t N, int64_t K, bool ta, bool tb, bool parallel,
               const GemmEpilogue* epilogue = nullptr, S alpha = S(1), S beta = S(0)) {
  const int64_t lda = ta ? M : K, ldb = tb ? K : N, nt = num_threads();
  if (!parallel || nt <= 1 || M * N * K < kParallelMacs) {
    blas_gemm(ta, tb, M, N, K, a, lda, b, ldb, c, N, alpha, beta);
    if (epilogue) (*epilogue)(0, M, 0, N);
  } else if (M >= N) {
    const int64_t grain = ((M + nt - 1) / nt + 7) / 8 * 8;
    parallel_for(M, grain, [&](int64_t s, int64_t e) {
      blas_gemm(ta, tb, e - s, N, K, a + (ta ? s : s * K), lda, b, ldb, c + s * N, N, alpha, beta);
      if (epilogue) (*epilogue)(s, e, 0, N);
    });
  } else {
    const int64_t grain = ((N + nt - 1) / nt + 15) / 16 * 16;
    parallel_for(N, grain, [&](int64_t s, int64_t e) {
      blas_gemm(ta, tb, M, e - s, K, a, lda, b + (tb ? s * K : s), ldb, c + s, N, alpha, beta);
      if (epilogue) (*epilogue)(0, M, s, e);
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
  if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double>) {
    if (blas_usable(M, N, K)) return gemm_blas(a, b, c, M, N, K, ta, tb, parallel);
  }
  Eigen::Map<const RowMat<S>> Am(a, ta ? K : M, ta ? M : K), Bm(b, tb ? N : K, tb ? K : N);
  constexpr bool kComplex = std::is_same_v<S, complex64> || std::is_same_v<S, complex128>;
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

}  // namespace gemm_detail

template <typename S>
void gemm_accumulate(const S* x, const S* y, S* out, const MatDims& d, S alpha) {
  if (d.M == 0 || d.N == 0 || d.K == 0) return;
  if (blas_usable(d.M, d.N, d.K))
    return gemm_detail::gemm_blas<S>(x, y, out, d.M, d.N, d.K, d.ta, d.tb, true, nullptr, alpha, S(1));
  // Eigen: the scalar factor folds into its GEMM's alpha; rows or columns split across threads as
  // gemm_run splits the plain product, so each block's GEMM blocks K the same way.
  using Mat = gemm_detail::RowMat<S>;
  Eigen::Map<const Mat> A(x, d.ta ? d.K : d.M, d.ta ? d.M : d.K), B(y, d.tb ? d.N : d.K, d.tb ? d.K : d.N);
  Eigen::Map<Mat> C(out, d.M, d.N);
  auto run = [&](const auto& opa, const auto& opb) {
    const int64_t nt = num_threads();
    if (nt <= 1 || d.M * d.N * d.K < gemm_detail::kParallelMacs) {
      C.noalias() += alpha * (opa * opb);
    } else if (d.M >= d.N) {
      parallel_for(d.M, ((d.M + nt - 1) / nt + 7) / 8 * 8, [&](int64_t s, int64_t e) {
        C.middleRows(s, e - s).noalias() += alpha * (opa.middleRows(s, e - s) * opb);
      });
    } else {
      parallel_for(d.N, ((d.N + nt - 1) / nt + 7) / 8 * 8, [&](int64_t s, int64_t e) {
        C.middleCols(s, e - s).noalias() += alpha * (opa * opb.middleCols(s, e - s));
      });
    }
  };
  auto with_a = [&](const auto& opa) {
    if (d.tb) run(opa, B.transpose());
    else run(opa, B);
  };
  if (d.ta) with_a(A.transpose());
  else with_a(A);
}

template <typename S>
void batch_gemm(const S* x, const S* y, S* out, const std::vector<int64_t>& x_off, const std::vector<int64_t>& y_off,
                const MatDims& d) {
  const int64_t B = static_cast<int64_t>(x_off.size());
  const int64_t xs = d.M * d.K, ys = d.K * d.N, os = d.M * d.N, macs = d.M * d.N * d.K;
  auto one = [&](int64_t i, bool parallel) {
    gemm_detail::gemm<S>(x + x_off[i] * xs, y + y_off[i] * ys, out + i * os, d.M, d.N, d.K, d.ta, d.tb, d.ca, d.cb, parallel);
  };
  if (B > 1 && (macs < gemm_detail::kParallelMacs || B >= 4 * num_threads())) {
    parallel_for(B, std::max<int64_t>(1, gemm_detail::kParallelMacs / std::max<int64_t>(macs, 1)), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) one(i, false);
    });
  } else {
    for (int64_t i = 0; i < B; ++i) one(i, true);
  }
}

}  // namespace ef
