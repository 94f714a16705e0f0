// CPU kernels of the segment reductions. Both families map each row of data (the elements under
// one segment id) to an output row and fold it in; an empty segment keeps the reduction's identity
// in the unsorted ops (lowest() for max, 1 for prod) and 0 in the sorted ones except prod (1).
#include <complex>
#include <limits>
#include <type_traits>

#include "kernels/cpu/copy.h"
#include "kernels/cpu/wrapping.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {
namespace {

enum class Reduction { kSum, kMean, kProd, kMax, kMin };

// The unsorted max / min start from the type's extremes (TF's Lowest / Highest); the sorted ones
// reduce each segment from -inf / +inf as TF's do (a segment of -inf stays -inf).
template <typename T>
T identity(Reduction r, bool sorted) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    return r == Reduction::kProd ? T(1) : T(0);
  } else {
    using L = std::numeric_limits<T>;
    const bool inf = sorted && L::has_infinity;
    switch (r) {
      case Reduction::kProd: return T(1);
      case Reduction::kMax: return inf ? T(-L::infinity()) : L::lowest();
      case Reduction::kMin: return inf ? L::infinity() : L::max();
      default: return T(0);
    }
  }
}

template <typename T>
void fold(Reduction r, T& o, T v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    o = r == Reduction::kProd ? o * v : o + v;
  } else {
    switch (r) {
      case Reduction::kProd: o = wrap_mul(o, v); break;
      case Reduction::kMax: if (v > o) o = v; break;
      case Reduction::kMin: if (v < o) o = v; break;
      default: o = wrap_add(o, v);
    }
  }
}

// out[rows[i]] (+)= data[i], blocks of `inner` elements; rows[i] < 0 is dropped. `sorted` gives
// empty segments 0 (prod: 1) and divides means by their counts.
template <typename T>
void reduce_rows(Reduction r, bool sorted, const T* src, T* out, const std::vector<int64_t>& rows, int64_t num,
                 int64_t inner) {
  if (num * inner == 0) return;  // allocated already, so the product does not overflow
  const T init = identity<T>(r, sorted);
  fill_n<T>(out, num * inner, init);
  std::vector<int64_t> count(static_cast<size_t>(num), 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] < 0) continue;
    ++count[rows[i]];
    T* o = out + rows[i] * inner;
    const T* s = src + static_cast<int64_t>(i) * inner;
    for (int64_t k = 0; k < inner; ++k) fold(r, o[k], s[k]);
  }
  if (!sorted) return;
  for (int64_t j = 0; j < num; ++j) {
    T* o = out + j * inner;
    if (count[j] == 0 && r != Reduction::kProd) {
      fill_n<T>(o, inner, T(0));
    } else if (r == Reduction::kMean && count[j] > 1) {
      for (int64_t k = 0; k < inner; ++k) {
        if constexpr (std::is_integral_v<T>) o[k] = static_cast<T>(o[k] / static_cast<T>(count[j]));
        else o[k] = o[k] / static_cast<T>(static_cast<float>(count[j]));
      }
    }
  }
}

void run_reduction(KernelContext& c, Reduction r, bool sorted, const std::vector<int64_t>& rows, Shape out_shape,
                   int64_t inner) {
  const TensorImpl& data = *c.input(0);
  TensorImpl* out = c.allocate_output(0, data.dtype(), checked_shape(std::move(out_shape)));
  const int64_t num = out->shape()[0];
  switch (data.dtype()) {
    EF_CASES_REAL(reduce_rows<T>(r, sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    EF_CASE(kComplex64, complex64, reduce_rows<T>(r, sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    EF_CASES_RARE(reduce_rows<T>(r, sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    default: throw_no_kernel(c.op, "T", data.dtype());
  }
}

template <Reduction R>
void segment_kernel(KernelContext& c) {
  const TensorImpl &data = *c.input(0), &ids = *c.input(1);
  EF_INVALID(data.rank() >= 1, "input must be at least rank 1");
  EF_INVALID(ids.rank() == 1, "segment_ids should be a vector.");
  EF_INVALID(data.shape()[0] == ids.shape()[0],
             "segment_ids should be the same size as dimension 0 of input.");
  std::vector<int64_t> rows = tensor_to_int_vector(ids);
  const int64_t n = static_cast<int64_t>(rows.size());
  EF_INVALID(n == 0 || rows.back() < std::numeric_limits<int64_t>::max(), "Segment id ", rows.back(),
             " out of range");
  const int64_t num = n ? rows.back() + 1 : 0;
  EF_INVALID(n == 0 || num > 0, "segment ids must be >= 0");
  for (int64_t i = 1; i < n; ++i) EF_INVALID(rows[i] >= rows[i - 1], "segment ids are not increasing");
  for (int64_t i = 0; i < n; ++i)
    EF_INVALID(rows[i] >= 0 && rows[i] < num, "Segment id ", rows[i], " out of range [0, ", num,
               "), possibly because 'segment_ids' input is not sorted.");
  Shape out_shape = data.shape();
  out_shape.set_dim(0, num);
  int64_t inner = 1;
  for (int d = 1; d < data.rank(); ++d) inner *= data.shape()[d];
  run_reduction(c, R, true, rows, out_shape, inner);
}

template <Reduction R>
void unsorted_segment_kernel(KernelContext& c) {
  const TensorImpl &data = *c.input(0), &ids = *c.input(1), &num_t = *c.input(2);
  EF_INVALID(num_t.rank() == 0, "num_segments should be a scalar, not shape ", num_t.shape().to_list_string());
  const int64_t num = tensor_to_int_vector(num_t)[0];
  EF_INVALID(num >= 0, "Input num_segments == ", num, " must not be negative.");
  const Shape &ds = data.shape(), &is = ids.shape();
  bool prefix = is.rank() <= ds.rank();
  for (int d = 0; prefix && d < is.rank(); ++d) prefix = ds[d] == is[d];
  EF_INVALID(prefix, "data.shape = ", ds.to_list_string(), " does not start with segment_ids.shape = ",
             is.to_list_string());
  Shape out_shape{num};
  int64_t inner = 1;
  for (int d = is.rank(); d < ds.rank(); ++d) {
    out_shape.push_back(ds[d]);
    inner *= ds[d];
  }
  std::vector<int64_t> rows = tensor_to_int_vector(ids);
  for (size_t i = 0; i < rows.size(); ++i)
    EF_INVALID(rows[i] < num, "segment_ids[", i, "] = ", rows[i], " is out of range [0, ", num, ")");
  run_reduction(c, R, false, rows, out_shape, inner);
}

EF_REGISTER_CPU_KERNEL("SegmentSum", segment_kernel<Reduction::kSum>);
EF_REGISTER_CPU_KERNEL("SegmentMean", segment_kernel<Reduction::kMean>);
EF_REGISTER_CPU_KERNEL("SegmentProd", segment_kernel<Reduction::kProd>);
EF_REGISTER_CPU_KERNEL("SegmentMax", segment_kernel<Reduction::kMax>);
EF_REGISTER_CPU_KERNEL("SegmentMin", segment_kernel<Reduction::kMin>);
EF_REGISTER_CPU_KERNEL("UnsortedSegmentSum", unsorted_segment_kernel<Reduction::kSum>);
EF_REGISTER_CPU_KERNEL("UnsortedSegmentProd", unsorted_segment_kernel<Reduction::kProd>);
EF_REGISTER_CPU_KERNEL("UnsortedSegmentMax", unsorted_segment_kernel<Reduction::kMax>);
EF_REGISTER_CPU_KERNEL("UnsortedSegmentMin", unsorted_segment_kernel<Reduction::kMin>);

}  // namespace
}  // namespace ef
