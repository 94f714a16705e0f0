// Op definitions used by gradient functions: ScatterNd, InvertPermutation, StridedSliceGrad and
// MirrorPadGrad (TF's names, inputs and attrs).
#include "ops/array_shapes.h"
#include "ops/scatter_shapes.h"
#include "ops/slice_spec.h"

namespace ef {
namespace {

void infer_invert_permutation(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "T");
  const Shape& s = c.shapes[0];
  EF_INVALID(!s.rank_known() || s.rank() == 1, "invert_permutation expects a 1D vector.");
  c.set_output(0, c.dtypes[0], s.rank_known() ? s : Shape({-1}));
}

void infer_scatter_nd(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "Tindices", true);
  const Shape out = fill_shape(c.op, c.shapes[2], input_value(c, 2));
  check_scatter_nd_static_shapes(c.shapes[0], c.shapes[1], out);
  c.set_output(0, c.dtypes[1], out);
}

void infer_strided_slice_grad(InferContext& c) {
  for (int i = 1; i < 4; ++i) check_index_type(c.op, c.dtypes[i], "Index");
  c.set_output(0, c.dtypes[4], fill_shape(c.op, c.shapes[0], input_value(c, 0)));
}

void infer_mirror_pad_grad(InferContext& c) {
  const Shape& in = c.shapes[0];
  const TensorImpl* p = input_value(c, 1);
  if (!p || !in.rank_known()) return c.set_output(0, c.dtypes[0], in.rank_known() ? Shape(std::vector<int64_t>(in.rank(), -1)) : in);
  std::vector<int64_t> pads = index_values(c.op, *p, "Tpaddings");
  EF_INVALID(static_cast<int64_t>(pads.size()) == 2 * in.rank(), "paddings must be a matrix with 2 columns: ",
             p->shape().to_list_string());
  Shape out;
  for (int d = 0; d < in.rank(); ++d) out.push_back(in[d] < 0 ? -1 : in[d] - pads[2 * d] - pads[2 * d + 1]);
  c.set_output(0, c.dtypes[0], out);
}

EF_REGISTER_OP(make_op("InvertPermutation", {"x"}, {"T"}, infer_invert_permutation)
                   .with_types({"T"}, {{"T", kListIndex}}));
EF_REGISTER_OP(make_op("ScatterNd", {"indices", "updates", "shape"}, {"T", "Tindices"}, infer_scatter_nd)
                   .with_types({"Tindices", "T", "Tindices"}, {{"T", nullptr, kTypesNumeric | kBitsRare}, {"Tindices", kListIndex16}}));
EF_REGISTER_OP(make_op("StridedSliceGrad", {"shape", "begin", "end", "strides", "dy"},
                       {"T", "Index", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"},
                       infer_strided_slice_grad)
                   .with_types({"Index", "Index", "Index", "Index", "T"}, {{"T"}, {"Index", kListIndex}}));
EF_REGISTER_OP(make_op("MirrorPadGrad", {"input", "paddings"}, {"T", "Tpaddings", "mode"}, infer_mirror_pad_grad)
                   .with_types({"T", "Tpaddings"}, {{"T"}, {"Tpaddings", kListIndex}}));

}  // namespace
}  // namespace ef
