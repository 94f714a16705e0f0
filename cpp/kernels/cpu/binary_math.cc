// CPU kernels of the table's functions and bitwise ops (ops/binary_op_table.h): a translation
// unit of their own so the binary kernels compile in parallel.
#include "kernels/cpu/binary_functors.h"
#include "kernels/cpu/binary_kernel.h"
#include "ops/binary_op_table.h"

namespace ef {
namespace {

EF_BINARY_MATH_OPS(EF_TABLE_BINARY_KERNEL)

}  // namespace
}  // namespace ef
