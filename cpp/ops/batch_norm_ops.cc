// Op definitions: FusedBatchNormV3 and FusedBatchNormGradV3 (channels last or first, 4-D or 5-D x).
#include "ops/batch_norm_shape.h"
#include "ops/op_util.h"

namespace ef {
namespace {

void infer_fused_batch_norm(InferContext& c) {
  const BatchNormGeometry g = batch_norm_geometry(c.shapes[0], c.attrs);
  const bool training = c.attrs.get<bool>("is_training", true);
  const char* names[4] = {"scale", "offset", "mean", "variance"};
  for (int i = 0; i < 4; ++i) check_batch_norm_vector(names[i], c.shapes[i + 1], g.channels, training && i >= 2);
  const Shape vec({g.channels});
  c.set_output(0, c.dtypes[0], c.shapes[0]);
  for (int i = 1; i <= 4; ++i) c.set_output(i, c.dtypes[1], vec);
  c.set_output(5, c.dtypes[1], Shape({0}));
}

void infer_fused_batch_norm_grad(InferContext& c) {
  const BatchNormGeometry g = batch_norm_geometry(c.shapes[1], c.attrs);
  const Shape vec({g.channels});
  c.set_output(0, c.dtypes[0], c.shapes[1]);
  c.set_output(1, c.dtypes[2], vec);
  c.set_output(2, c.dtypes[2], vec);
  c.set_output(3, c.dtypes[2], Shape({0}));
  c.set_output(4, c.dtypes[2], Shape({0}));
}

constexpr const char* kListBatchNormT = "half, bfloat16, float";

EF_REGISTER_OP(make_op("FusedBatchNormV3", {"x", "scale", "offset", "mean", "variance"},
                       {"T", "U", "epsilon", "exponential_avg_factor", "data_format", "is_training"},
                       infer_fused_batch_norm)
                   .with_types({"T", "U", "U", "U", "U"},
                               {{"T", kListBatchNormT, dtype_bit(DType::kFloat32)}, {"U", "float"}}));
EF_REGISTER_OP(make_op("FusedBatchNormGradV3",
                       {"y_backprop", "x", "scale", "reserve_space_1", "reserve_space_2", "reserve_space_3"},
                       {"T", "U", "epsilon", "data_format", "is_training"}, infer_fused_batch_norm_grad)
                   .with_types({"T", "T", "float", "U", "U", "U"},
                               {{"T", kListBatchNormT, dtype_bit(DType::kFloat32)}, {"U", "float"}}));

}  // namespace
}  // namespace ef
