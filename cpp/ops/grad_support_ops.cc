// Op definitions used by gradient functions: UnsortedSegmentSum, ScatterNd, InvertPermutation,
// StridedSliceGrad and MirrorPadGrad (TF's names, inputs and attrs).
#include "ops/array_shapes.h"
#include "ops/slice_spec.h"

namespace ef {
namespace {

constexpr unsigned kSumTypes = kTypesNumeric;

void infer_invert_permutation(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "T");
  const Shape& s = c.shapes[0];
  EF_INVALID(!s.rank_known() || s.rank() == 1, "invert_permutation expects a 1D vector.");
  c.set_output(0, c.dtypes[0], s.rank_known() ? s : Shape({-1}));
}

void infer_unsorted_segment_sum(InferContext& c) {
  check_type(c.op, c.dtypes[0], kSumTypes);
  check_index_type(c.op, c.dtypes[1], "Tindices");
  check_index_type(c.op, c.dtypes[2], "Tnumsegments");
  const Shape &data = c.shapes[0], &ids = c.shapes[1];
  EF_INVALID(!c.shapes[2].rank_known() || c.shapes[2].rank() == 0, "num_segments should be a scalar, not shape ",
             c.shapes[2].to_list_string());
  int64_t num = -1;
  if (const TensorImpl* v = input_value(c, 2)) {
    num = tensor_to_int_vector(*v)[0];
    EF_INVALID(num >= 0, "Input num_segments == ", num, " must not be negative.");
  }
  if (!data.rank_known() || !ids.rank_known()) return c.set_output(0, c.dtypes[0], Shape::unknown_rank());
  EF_INVALID(ids.rank() <= data.rank(), "data.shape = ", data.to_list_string(),
             " does not start with segment_ids.shape = ", ids.to_list_string());
  for (int d = 0; d < ids.rank(); ++d)
    EF_INVALID(data[d] < 0 || ids[d] < 0 || data[d] == ids[d], "data.shape = ", data.to_list_string(),
               " does not start with segment_ids.shape = ", ids.to_list_string());
  Shape out{num};
  for (int d = ids.rank(); d < data.rank(); ++d) out.push_back(data[d]);
  c.set_output(0, c.dtypes[0], out);
}

void infer_scatter_nd(InferContext& c) {
  check_index_type(c.op, c.dtypes[0], "Tindices", true);
  c.set_output(0, c.dtypes[1], fill_shape(c.op, c.shapes[2], input_value(c, 2)));
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
EF_REGISTER_OP(make_op("UnsortedSegmentSum", {"data", "segment_ids", "num_segments"},
                       {"T", "Tindices", "Tnumsegments"}, infer_unsorted_segment_sum)
                   .with_types({"T", "Tindices", "Tnumsegments"},
                               {{"T", kListNumber}, {"Tindices", kListIndex16}, {"Tnumsegments", kListIndex}}));
EF_REGISTER_OP(make_op("ScatterNd", {"indices", "updates", "shape"}, {"T", "Tindices"}, infer_scatter_nd)
                   .with_types({"Tindices", "T", "Tindices"}, {{"T", nullptr, kTypesNumeric}, {"Tindices", kListIndex16}}));
EF_REGISTER_OP(make_op("StridedSliceGrad", {"shape", "begin", "end", "strides", "dy"},
                       {"T", "Index", "begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"},
                       infer_strided_slice_grad)
                   .with_types({"Index", "Index", "Index", "Index", "T"}, {{"T"}, {"Index", kListIndex}}));
EF_REGISTER_OP(make_op("MirrorPadGrad", {"input", "paddings"}, {"T", "Tpaddings", "mode"}, infer_mirror_pad_grad)
                   .with_types({"T", "Tpaddings"}, {{"T"}, {"Tpaddings", kListIndex}}));

}  // namespace
}  // namespace ef
