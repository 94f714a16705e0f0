// CPU kernels of the table's division ops (ops/binary_op_table.h: RealDiv, FloorDiv, FloorMod,
// TruncateDiv, TruncateMod): a translation unit of their own so the binary kernels compile in
// parallel.
#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/binary_kernel.h"
#include "ops/binary_op_table.h"

namespace ef {
namespace {

EF_BINARY_DIVISION_OPS(EF_TABLE_BINARY_KERNEL)

}  // namespace
}  // namespace ef
