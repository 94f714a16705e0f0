// Ops that exist for gradients: StopGradient (identity that blocks backprop) and
// BroadcastGradientArgs (the axes to sum a broadcast gradient over, for shapes known only at run time),
// BroadcastArgs (the broadcast of two shape vectors: tf.broadcast_dynamic_shape).
#include <algorithm>

#include "core/errors.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_broadcast_gradient_args(InferContext& c) {
  DType t = c.dtypes.empty() ? DType::kInt32 : c.dtypes[0];
  c.set_output(0, t, Shape({-1}));
  c.set_output(1, t, Shape({-1}));
}

void infer_broadcast_args(InferContext& c) {
  DType t = c.dtypes.empty() ? DType::kInt32 : c.dtypes[0];
  int64_t n = -1;  // the longer shape's length, when both lengths are known
  if (c.shapes.size() == 2 && c.shapes[0].rank() == 1 && c.shapes[1].rank() == 1 && c.shapes[0].dim(0) >= 0 &&
      c.shapes[1].dim(0) >= 0)
    n = std::max(c.shapes[0].dim(0), c.shapes[1].dim(0));
  c.set_output(0, t, Shape({n}));
}

EF_REGISTER_OP(make_op("StopGradient", {"input"}, {"T"}, infer_same_as_input0)
                   .with_types({"T"}, {{"T", nullptr, kTypesAll | kBitsHandle}}));
EF_REGISTER_OP(make_op("BroadcastGradientArgs", {"s0", "s1"}, {"T"}, infer_broadcast_gradient_args)
                   .with_types({"T", "T"}, {{"T", kListIndex}}));
EF_REGISTER_OP(make_op("BroadcastArgs", {"s0", "s1"}, {"T"}, infer_broadcast_args)
                   .with_types({"T", "T"}, {{"T", kListIndex}}));

}  // namespace
}  // namespace ef
