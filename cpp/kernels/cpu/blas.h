// Optional BLAS for the float/double GEMM: OpenBLAS from the scipy-openblas32 package when the core
// was built with it (EAGERFLOW_BLAS), Eigen's GEMM otherwise or when turned off at run time.
#pragma once
#include <cstdint>

namespace ef {

// True when the core was built against a BLAS.
bool blas_available();
// Whether float/double products go to the BLAS (default: blas_available()); off selects Eigen's
// GEMM, so both can be compared and tested in one process.
bool blas_enabled();
void set_blas_enabled(bool on);

// Whether a product of these sizes goes to the BLAS: it is on and every size (hence every leading
// dimension) fits its 32-bit integers.
bool blas_usable(int64_t M, int64_t N, int64_t K);

// One single-threaded row-major product c[M, N] = alpha * op(a) @ op(b) + beta * c with leading
// dimensions lda/ldb/ldc, for sizes blas_usable accepted; the caller splits work across threads.
void blas_gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const float* a, int64_t lda, const float* b,
               int64_t ldb, float* c, int64_t ldc, float alpha = 1.f, float beta = 0.f);
void blas_gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, const double* a, int64_t lda, const double* b,
               int64_t ldb, double* c, int64_t ldc, double alpha = 1.0, double beta = 0.0);

}  // namespace ef
