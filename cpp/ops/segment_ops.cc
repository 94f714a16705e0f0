// Op definitions of the segment reductions: Segment{Sum,Mean,Max,Min,Prod} (sorted ids, one per row
// of data; the output has last id + 1 rows) and UnsortedSegment{Sum,Max,Min,Prod} (ids of any
// shape prefixing data's, num_segments rows, id -1 drops its row).
#include "ops/array_shapes.h"

namespace ef {
namespace {

// TF's allowed list of the max / min, in the order its errors print it.
constexpr const char* kListSegmentMinMax =
    "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64";
constexpr uint32_t kTypesOrdered = kTypesReal | kBitsWideUInt | kBitsBFloat16;

void infer_segment(InferContext& c) {
  const Shape &data = c.shapes[0], &ids = c.shapes[1];
  EF_INVALID(!ids.rank_known() || ids.rank() == 1, "Shape must be rank 1 but is rank ", ids.rank());
  EF_INVALID(!data.rank_known() || data.rank() >= 1, "Shape must be at least rank 1 but is rank ", data.rank());
  if (!data.rank_known()) return c.set_output(0, c.dtypes[0], Shape::unknown_rank());
  EF_INVALID(!ids.rank_known() || data[0] < 0 || ids[0] < 0 || data[0] == ids[0], "Dimensions must be equal, but are ",
             ids[0], " and ", data[0]);
  Shape out = data;
  out.set_dim(0, -1);  // the last id + 1: known only when the ids are
  c.set_output(0, c.dtypes[0], out);
}

void infer_unsorted_segment(InferContext& c) {
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
    EF_INVALID(data[d] < 0 || ids[d] < 0 || data[d] == ids[d], "Dimensions must be equal, but are ", data[d], " and ",
               ids[d]);
  Shape out{num};
  for (int d = ids.rank(); d < data.rank(); ++d) out.push_back(data[d]);
  c.set_output(0, c.dtypes[0], checked_shape(out));
}

OpDef segment(const char* name, const char* types, uint32_t kernels) {
  return make_op(name, {"data", "segment_ids"}, {"T", "Tindices"}, infer_segment)
      .with_types({"T", "Tindices"}, {{"T", types, kernels}, {"Tindices", kListIndex}});
}

OpDef unsorted(const char* name, const char* types, uint32_t kernels, const char* index_types = kListIndex) {
  return make_op(name, {"data", "segment_ids", "num_segments"}, {"T", "Tindices", "Tnumsegments"},
                 infer_unsorted_segment)
      .with_types({"T", "Tindices", "Tnumsegments"},
                  {{"T", types, kernels}, {"Tindices", index_types}, {"Tnumsegments", kListIndex}});
}

EF_REGISTER_OP(segment("SegmentSum", kListNumber, kTypesNumeric | kBitsRare));
EF_REGISTER_OP(segment("SegmentMean", kListNumber, kTypesNumeric | kBitsRare));
EF_REGISTER_OP(segment("SegmentProd", kListNumber, kTypesNumeric | kBitsRare));
EF_REGISTER_OP(segment("SegmentMax", kListSegmentMinMax, kTypesOrdered));
EF_REGISTER_OP(segment("SegmentMin", kListSegmentMinMax, kTypesOrdered));
EF_REGISTER_OP(unsorted("UnsortedSegmentSum", kListNumber, kTypesNumeric | kBitsRare, kListIndex16));
EF_REGISTER_OP(unsorted("UnsortedSegmentProd", kListNumber, kTypesNumeric | kBitsRare));
EF_REGISTER_OP(unsorted("UnsortedSegmentMax", kListSegmentMinMax, kTypesOrdered));
EF_REGISTER_OP(unsorted("UnsortedSegmentMin", kListSegmentMinMax, kTypesOrdered));

}  // namespace
}  // namespace ef
