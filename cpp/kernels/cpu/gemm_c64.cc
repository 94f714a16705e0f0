// batch_gemm for complex64 (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<complex64>(const complex64*, const complex64*, complex64*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
}  // namespace ef
