// batch_gemm for complex128 (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<complex128>(const complex128*, const complex128*, complex128*, const std::vector<int64_t>&,
                                     const std::vector<int64_t>&, const MatDims&);
}  // namespace ef
