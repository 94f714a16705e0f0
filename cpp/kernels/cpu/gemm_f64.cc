// batch_gemm for double (see gemm_impl.h).
#include "kernels/cpu/gemm_impl.h"

namespace ef {
template void batch_gemm<double>(const double*, const double*, double*, const std::vector<int64_t>&,
                                 const std::vector<int64_t>&, const MatDims&);
template void gemm_accumulate<double>(const double*, const double*, double*, const MatDims&, double);
}  // namespace ef
