// The BLAS behind blas.h: scipy-openblas32's OpenBLAS (symbols prefixed scipy_), kept at one
// thread per call because our parallel_for splits the products (tf.config's thread count holds
// and OpenBLAS's own threads never compete with the pool's).
#include "kernels/cpu/blas.h"

#include <atomic>
#include <climits>
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

template <typename S>
void run(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const S* a, int64_t lda, const S* b, int64_t ldb, S* c,
         int64_t ldc, S alpha, S beta) {
#ifdef EF_HAVE_BLAS
  single_threaded();
  const int m = int(M), n = int(N), k = int(K);
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
