// NoOp: an op with no inputs and no outputs, run only for its control edges (tf.no_op,
// tf.compat.v1.global_variables_initializer).
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_no_op(InferContext&) {}
void no_op_kernel(KernelContext&) {}

EF_REGISTER_OP([] {
  OpDef d;
  d.name = "NoOp";
  d.infer = infer_no_op;
  return std::move(d).with_types({}, {});
}());
EF_REGISTER_CPU_KERNEL("NoOp", no_op_kernel);

}  // namespace
}  // namespace ef
