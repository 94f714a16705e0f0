// The BLAS behind blas.h: scipy-openblas32's OpenBLAS (symbols prefixed scipy_), kept at one
// thread per call because our parallel_for splits the products (tf.config's thread count holds
// and OpenBLAS's own threads never compete with the pool's).
#include "kernels/cpu/blas.h"

#include <atomic>
#include <climits>
#include <memory>
#include <type_traits>

#ifdef EF_HAVE_BLAS
#include <cblas.h>
#endif

namespace ef {
namespace {

#ifdef EF_HAVE_BLAS
constexpr bool kAvailable = true;
#else
constexpr bool kAvailable = false;
#endif

std::atomic<bool>& enabled() {
  static std::atomic<bool> on{kAvailable};
  return on;
}

#ifdef EF_HAVE_BLAS
void single_threaded() {
  static const bool once = [] {
    scipy_openblas_set_num_threads(1);
    return true;
  }();
  (void)once;
}

CBLAS_TRANSPOSE op(bool t) { return t ? CblasTrans : CblasNoTrans; }
#endif

// op(b) = b^T with a short K: OpenBLAS's AVX-512 small-matrix kernel for that layout reads b with a
// stride of K per element and runs up to 2x slower than on b^T made contiguous (K x N: OpenBLAS's
// own transposing copy, a fraction of the product's time); its AVX2 and older kernels take both
// layouts at the same speed.
constexpr int64_t kTransposeBMaxK = 32;

template <typename S>
void run(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const S* a, int64_t lda, const S* b, int64_t ldb, S* c,
         int64_t ldc, S alpha, S beta) {
#ifdef EF_HAVE_BLAS
  single_threaded();
  const int m = int(M), n = int(N), k = int(K);
  std::unique_ptr<S[]> bt;
  if (tb && K <= kTransposeBMaxK) {
    bt.reset(new S[static_cast<size_t>(K * N)]);
    if constexpr (std::is_same_v<S, float>)
      scipy_cblas_somatcopy(CblasRowMajor, CblasTrans, n, k, 1.0f, b, int(ldb), bt.get(), n);
    else
      scipy_cblas_domatcopy(CblasRowMajor, CblasTrans, n, k, 1.0, b, int(ldb), bt.get(), n);
    b = bt.get();
    ldb = N;
    tb = false;
  }
  if constexpr (std::is_same_v<S, float>)
    scipy_cblas_sgemm(CblasRowMajor, op(ta), op(tb), m, n, k, alpha, a, int(lda), b, int(ldb), beta, c, int(ldc));
  else
    scipy_cblas_dgemm(CblasRowMajor, op(ta), op(tb), m, n, k, alpha, a, int(lda), b, int(ldb), beta, c, int(ldc));
#endif
}

}  // namespace

bool blas_available() { return kAvailable; }
bool blas_enabled() { return enabled().load(); }
void set_blas_enabled(bool on) { enabled().store(on && kAvailable); }
bool blas_usable(int64_t M, int64_t N, int64_t K) {
  return enabled().load(std::memory_order_relaxed) && M <= INT_MAX && N <= INT_MAX && K <= INT_MAX;
}

void blas_gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const float* a, int64_t lda, const float* b,
               int64_t ldb, float* c, int64_t ldc, float alpha, float beta) {
  run(ta, tb, M, N, K, a, lda, b, ldb, c, ldc, alpha, beta);
}
void blas_gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const double* a, int64_t lda, const double* b,
               int64_t ldb, double* c, int64_t ldc, double alpha, double beta) {
  run(ta, tb, M, N, K, a, lda, b, ldb, c, ldc, alpha, beta);
}

}  // namespace ef
