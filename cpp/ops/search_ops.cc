// Op definitions: LowerBound / UpperBound (tf.searchsorted: per row of the 2-D sorted_inputs, the
// insertion points of that row of values), Unique / UniqueWithCounts (first-occurrence order) and
// DenseBincount (tf.math.bincount: per-row counts or weight sums of values below `size`).
#include "ops/array_shapes.h"

namespace ef {
namespace {

void infer_bound(InferContext& c) {
  for (int i = 0; i < 2; ++i)
    EF_INVALID(!c.shapes[i].rank_known() || c.shapes[i].rank() >= 1, "Shape must be at least rank 1 but is rank ",
               c.shapes[i].rank());
  const Shape &s = c.shapes[0], &v = c.shapes[1];
  EF_INVALID(!s.rank_known() || !v.rank_known() || s[0] < 0 || v[0] < 0 || s[0] == v[0],
             "Dimensions must be equal, but are ", s[0], " and ", v[0]);
  c.set_output(0, c.attrs.get<DType>("out_type", DType::kInt32), v);
}

void infer_unique(InferContext& c) {
  const Shape& x = c.shapes[0];
  EF_INVALID(!x.rank_known() || x.rank() == 1, "Shape must be rank 1 but is rank ", x.rank());
  const DType idx = c.attrs.get<DType>("out_idx", DType::kInt32);
  c.set_output(0, c.dtypes[0], Shape({-1}));
  c.set_output(1, idx, x.rank_known() ? x : Shape({-1}));
  if (c.op.name == "UniqueWithCounts") c.set_output(2, idx, Shape({-1}));
}

void infer_dense_bincount(InferContext& c) {
  const Shape& in = c.shapes[0];
  EF_INVALID(!in.rank_known() || in.rank() <= 2, "Shape must be at most rank 2 but is rank ", in.rank());
  EF_INVALID(!c.shapes[1].rank_known() || c.shapes[1].rank() == 0, "Shape must be rank 0 but is rank ",
             c.shapes[1].rank());
  int64_t size = -1;
  if (const TensorImpl* v = input_value(c, 1)) {
    size = tensor_to_int_vector(*v)[0];
    EF_INVALID(size >= 0, "size (", size, ") must be non-negative");
  }
  if (!in.rank_known()) return c.set_output(0, c.dtypes[2], Shape::unknown_rank());
  c.set_output(0, c.dtypes[2], in.rank() == 2 ? Shape({in[0], size}) : Shape({size}));
}

OpDef bound(const char* name) {
  return make_op(name, {"sorted_inputs", "values"}, {"T", "out_type"}, infer_bound)
      .with_types({"T", "T"}, {{"T", nullptr, kTypesReal}, {"out_type", kListIndex}});
}

OpDef unique(const char* name) {
  return make_op(name, {"x"}, {"T", "out_idx"}, infer_unique)
      .with_types({"T"}, {{"T", nullptr, kTypesReal | kBitsWideUInt | kBitsBFloat16 | kTypesBool | kTypesString},
                          {"out_idx", kListIndex}});
}

EF_REGISTER_OP(bound("LowerBound"));
EF_REGISTER_OP(bound("UpperBound"));
EF_REGISTER_OP(unique("Unique"));
EF_REGISTER_OP(unique("UniqueWithCounts"));
EF_REGISTER_OP(make_op("DenseBincount", {"input", "size", "weights"}, {"Tidx", "T", "binary_output"},
                       infer_dense_bincount)
                   .with_types({"Tidx", "Tidx", "T"}, {{"Tidx", kListIndex}, {"T", "int32, int64, float, double"}}));

}  // namespace
}  // namespace ef
