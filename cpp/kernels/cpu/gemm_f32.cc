// batch_gemm for float (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<float>(const float*, const float*, float*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
template void gemm_accumulate<float>(const float*, const float*, float*, const MatDims&, float);

void gemm_f32_epilogue(const float* x, const float* y, float* out, const MatDims& d, const GemmEpilogue& epilogue) {
  if (d.M == 0 || d.N == 0) return;
  if (d.K > 0 && blas_usable(d.M, d.N, d.K))
    return gemm_detail::gemm_blas(x, y, out, d.M, d.N, d.K, d.ta, d.tb, true, &epilogue);
  // Eigen's GEMM (and K = 0): the whole product, then the epilogue over blocks of rows.
  batch_gemm<float>(x, y, out, {0}, {0}, d);
  parallel_for(d.M, std::max<int64_t>(1, kElementwiseGrain / d.N), [&](int64_t s, int64_t e) { epilogue(s, e, 0, d.N); });
}
}  // namespace ef
