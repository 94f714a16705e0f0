// CPU kernels of Sum, Mean and Prod (the reductions themselves are in reduction_impl.h).
#include "kernels/cpu/reduction_impl.h"

namespace ef {
namespace {

EF_REGISTER_CPU_KERNEL("Sum", (reduction_kernel<SumOp, false>));
EF_REGISTER_CPU_KERNEL("Mean", (reduction_kernel<SumOp, true>));
EF_REGISTER_CPU_KERNEL("Prod", (reduction_kernel<ProdOp, false>));

}  // namespace
}  // namespace ef
