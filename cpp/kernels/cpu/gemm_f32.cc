// batch_gemm for float (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<float>(const float*, const float*, float*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
}  // namespace ef
