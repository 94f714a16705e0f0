// Ops that exist for gradients: StopGradient (identity that blocks backprop) and
// BroadcastGradientArgs (the axes to sum a broadcast gradient over, for shapes known only at run time).
#include "core/errors.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_broadcast_gradient_args(InferContext& c) {
  DType t = c.dtypes.empty() ? DType::kInt32 : c.dtypes[0];
  c.set_output(0, t, Shape({-1}));
  c.set_output(1, t, Shape({-1}));
}

EF_REGISTER_OP(make_op("StopGradient", {"input"}, {"T"}, infer_same_as_input0)
                   .with_types({"T"}, {{"T", nullptr, kTypesAll | kBitsHandle}}));
EF_REGISTER_OP(make_op("BroadcastGradientArgs", {"s0", "s1"}, {"T"}, infer_broadcast_gradient_args)
                   .with_types({"T", "T"}, {{"T", kListIndex}}));

}  // namespace
}  // namespace ef
