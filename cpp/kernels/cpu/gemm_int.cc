// batch_gemm for uint32_t, uint64_t (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<uint32_t>(const uint32_t*, const uint32_t*, uint32_t*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
template void batch_gemm<uint64_t>(const uint64_t*, const uint64_t*, uint64_t*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
}  // namespace ef
