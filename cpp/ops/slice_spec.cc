// StridedSlice / Slice spec computation (see slice_spec.h).
#include "ops/slice_spec.h"

#include <algorithm>

#include "core/errors.h"
#include "ops/array_shapes.h"

namespace ef {

namespace {

constexpr int kNewAxis = -1;
constexpr int kShrunk = -2;

struct DenseDim {
  int64_t begin = 0, end = 0, stride = 1;
  bool begin_mask = true, end_mask = true, shrink = false, known = true;
};

// Masks have 64 bits; a slice spec may have more entries (shifting by >= 64 is undefined).
bool bit(int64_t mask, int i) { return i < 64 && ((mask >> i) & 1); }

}  // namespace

SliceSpec strided_slice_spec(const Shape& in, int n, const int64_t* begin, const int64_t* end, const int64_t* strides,
                             const StridedSliceMasks& m) {
  // TF counts every set bit, also those beyond the spec's length.
  const uint64_t ell = static_cast<uint64_t>(m.ellipsis);
  EF_INVALID((ell & (ell - 1)) == 0, "Multiple ellipses in slice spec not allowed");
  SliceSpec spec;
  if (!in.rank_known()) {
    spec.final_shape = Shape::unknown_rank();
    return spec;
  }
  const int rank = in.rank();
  const bool known = begin != nullptr;
  // Sparse -> dense: an ellipsis (explicit, or implicit after the last entry) covers every input
  // dim not consumed by a later entry; new axes consume no input dim. Ellipsis wins over
  // new-axis, and new-axis over shrink, on the same entry.
  std::vector<DenseDim> dense(rank);
  std::vector<int> final_map;  // per final dim: dense index, kNewAxis; shrunk dims are kShrunk
  auto consumes = [&](int i) { return !bit(m.ellipsis, i) && !bit(m.new_axis, i); };
  int full = 0;
  for (int i = 0; i < n; ++i) {
    if (bit(m.ellipsis, i)) {
      int after = 0;
      for (int j = i + 1; j < n; ++j) after += consumes(j);
      const int next = std::min(rank - after, rank);
      for (; full < next; ++full) final_map.push_back(full);
    } else if (bit(m.new_axis, i)) {
      final_map.push_back(kNewAxis);
    } else {
      if (full == rank) {
        EF_INVALID(rank != 0, "Attempting to slice scalar input.");
        throw_error(Code::kInvalidArgument, "Index out of range using input dim ", full, "; input has only ", rank,
                    " dims");
      }
      DenseDim& d = dense[full];
      d.known = known;
      if (known) {
        d.begin = begin[i];
        d.end = end[i];
        d.stride = strides[i];
      }
      d.begin_mask = bit(m.begin, i);
      d.end_mask = bit(m.end, i);
      d.shrink = bit(m.shrink_axis, i);
      final_map.push_back(d.shrink ? kShrunk : full);
      ++full;
    }
  }
  for (; full < rank; ++full) final_map.push_back(full);

  spec.begin.assign(rank, 0);
  spec.stride.assign(rank, 1);
  spec.size.assign(rank, 0);
  for (int i = 0; i < rank; ++i) {
    const DenseDim& d = dense[i];
    const int64_t dim = in[i];
    if (!d.known) {
      spec.size[i] = d.shrink ? 1 : -1;
      continue;
    }
    const int64_t stride = d.stride;
    EF_INVALID(stride != 0, "strides[", i, "] must be non-zero");
    EF_INVALID(!(d.shrink && stride < 0), "only stride 1 allowed on non-range indexing.");
    spec.stride[i] = stride;
    if (dim < 0) {
      spec.size[i] = d.shrink ? 1 : -1;
      continue;
    }
    if (d.shrink) {
      // The end is begin + 1 whatever was given (x[-1] arrives as begin -1, end 0).
      const int64_t x = d.begin < 0 ? dim + d.begin : d.begin;
      EF_INVALID(x >= 0 && x < dim, "slice index ", x, " of dimension ", i, " out of bounds.");
      spec.begin[i] = x;
      spec.size[i] = 1;
      continue;
    }
    auto canonical = [&](int64_t x, bool masked, bool is_end) -> int64_t {
      if (masked) return stride > 0 ? (is_end ? dim : 0) : (is_end ? -1 : dim - 1);
      const int64_t fwd = x < 0 ? dim + x : x;
      const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
      return std::clamp(fwd, lo, hi);
    };
    const int64_t b = canonical(d.begin, d.begin_mask, false), e = canonical(d.end, d.end_mask, true);
    const int64_t interval = e - b;
    int64_t size = 0;
    if (interval != 0 && (interval < 0) == (stride < 0)) size = interval / stride + (interval % stride != 0);
    spec.begin[i] = b;
    spec.size[i] = size;
    // A dim that takes at most one element never steps: its stride is 1, so kernels never
    // multiply a huge user stride (x[::2**62]) by the dim's element stride. With two or more
    // elements |stride| < dim, and every product stays within the tensor.
    if (size <= 1) spec.stride[i] = 1;
  }
  for (int f : final_map) {
    if (f == kNewAxis) spec.final_shape.push_back(1);
    else if (f != kShrunk) spec.final_shape.push_back(spec.size[f]);
  }
  return spec;
}

SliceSpec slice_spec(const Shape& in, const std::vector<int64_t>& begin, const std::vector<int64_t>& size) {
  const int rank = in.rank();
  SliceSpec spec;
  spec.begin.assign(rank, 0);
  spec.stride.assign(rank, 1);
  spec.size.assign(rank, -1);
  for (int i = 0; i < rank; ++i) {
    const int64_t dim = in[i], b = begin[i];
    int64_t s = size[i];
    spec.begin[i] = b;
    if (dim < 0) {
      spec.size[i] = s;
      continue;
    }
    // begin first: dim - b overflows for a hugely negative begin.
    EF_INVALID(b >= 0 && b <= dim, "Expected begin[", i, "] in [0, ", dim, "], but got ", b);
    if (s == -1) s = dim - b;
    EF_INVALID(s >= 0 && s <= dim - b, "Expected size[", i, "] in [0, ", dim - b, "], but got ", s);
    spec.size[i] = s;
  }
  spec.final_shape = Shape(spec.size);
  return spec;
}

SliceSpec strided_slice_inputs(const OpDef& op, const Shape& in, const DType* dtypes, const Shape* shapes,
                               const TensorImpl* const* values, const Attrs& attrs) {
  check_index_type(op, dtypes[0], "Index", true);
  check_same_dtype(op, dtypes[0], dtypes[1], 2);
  check_same_dtype(op, dtypes[0], dtypes[2], 3);
  const bool ranks_ok = shapes[0].rank() == 1 && shapes[1].rank() == 1 && shapes[2].rank() == 1;
  // At most 32 entries, as in TF (the masks are int32 attrs there).
  EF_INVALID(ranks_ok && shapes[0][0] == shapes[1][0] && shapes[0][0] == shapes[2][0] && shapes[0][0] <= 32,
             "Expected begin, end, and strides to be 1D equal size tensors, but got shapes ",
             shapes[0].to_list_string(), ", ", shapes[1].to_list_string(), ", and ", shapes[2].to_list_string(),
             " instead.");
  StridedSliceMasks m;
  m.begin = attrs.get<int64_t>("begin_mask", 0);
  m.end = attrs.get<int64_t>("end_mask", 0);
  m.ellipsis = attrs.get<int64_t>("ellipsis_mask", 0);
  m.new_axis = attrs.get<int64_t>("new_axis_mask", 0);
  m.shrink_axis = attrs.get<int64_t>("shrink_axis_mask", 0);
  const int n = static_cast<int>(shapes[0][0]);
  if (values[0] && values[1] && values[2]) {
    std::vector<int64_t> b = tensor_to_int_vector(*values[0]), e = tensor_to_int_vector(*values[1]),
                         s = tensor_to_int_vector(*values[2]);
    return strided_slice_spec(in, n, b.data(), e.data(), s.data(), m);
  }
  return strided_slice_spec(in, n, nullptr, nullptr, nullptr, m);
}

SliceSpec slice_inputs(const OpDef& op, const Shape& in, const DType* dtypes, const Shape* shapes,
                       const TensorImpl* const* values) {
  check_index_type(op, dtypes[0], "Index");
  check_same_dtype(op, dtypes[0], dtypes[1], 2);
  if (!in.rank_known()) {
    SliceSpec spec;
    spec.final_shape = in;
    return spec;
  }
  const int r = in.rank();
  EF_INVALID(shapes[0].rank() == 1 && shapes[1].rank() == 1 && shapes[0][0] == r && shapes[1][0] == r,
             "Expected begin and size arguments to be 1-D tensors of size ", r, ", but got shapes ",
             shapes[0].to_list_string(), " and ", shapes[1].to_list_string(), " instead.");
  if (!values[0] || !values[1]) {
    SliceSpec spec;
    spec.final_shape = Shape(std::vector<int64_t>(r, -1));
    return spec;
  }
  return slice_spec(in, tensor_to_int_vector(*values[0]), tensor_to_int_vector(*values[1]));
}

}  // namespace ef
