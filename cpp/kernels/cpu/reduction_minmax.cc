// CPU kernels of Max, Min, Any and All (the reductions themselves are in reduction_impl.h).
#include "kernels/cpu/reduction_impl.h"

namespace ef {
namespace {

EF_REGISTER_CPU_KERNEL("Max", (reduction_kernel<MaxOp, false>));
EF_REGISTER_CPU_KERNEL("Min", (reduction_kernel<MinOp, false>));
EF_REGISTER_CPU_KERNEL("Any", (reduction_kernel<AnyOp, false>));
EF_REGISTER_CPU_KERNEL("All", (reduction_kernel<AllOp, false>));

}  // namespace
}  // namespace ef
