// CPU kernels of the segment reductions. Both families map each row of data (the elements under
// one segment id) to an output row and fold it in; an empty segment keeps the reduction's identity
// in the unsorted ops (lowest() for max, 1 for prod) and 0 in the sorted ones except prod (1).
#include <algorithm>
#include <atomic>
#include <complex>
#include <limits>
#include <type_traits>

#include "kernels/cpu/copy.h"
#include "kernels/cpu/nd_index.h"
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

template <Reduction R, typename T>
void fold(T& o, T v) {
  if constexpr (std::is_same_v<T, complex64> || std::is_same_v<T, complex128>) {
    o = R == Reduction::kProd ? o * v : o + v;
  } else if constexpr (R == Reduction::kProd) {
    o = wrap_mul(o, v);
  } else if constexpr (R == Reduction::kMax) {
    o = v > o ? v : o;  // a select and a store, not a branch (random data mispredicts it)
  } else if constexpr (R == Reduction::kMin) {
    o = v < o ? v : o;
  } else {
    o = wrap_add(o, v);
  }
}

// out[rows[i]] (+)= data[i], blocks of `inner` elements; rows[i] < 0 is dropped. `sorted` gives
// empty segments 0 (prod: 1). Sorted sums and means go through sum_sorted_segments instead. R is a
// template constant: no switch per element.
template <Reduction R, typename T>
void reduce_rows(bool sorted, const T* src, T* out, const std::vector<int64_t>& rows, int64_t num, int64_t inner) {
  if (num * inner == 0) return;  // allocated already, so the product does not overflow
  fill_n<T>(out, num * inner, identity<T>(R, sorted));
  const int64_t n = static_cast<int64_t>(rows.size());
  if (inner == 1) {
    for (int64_t i = 0; i < n; ++i)
      if (rows[i] >= 0) fold<R>(out[rows[i]], src[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (rows[i] < 0) continue;
      T* o = out + rows[i] * inner;
      const T* s = src + i * inner;
      for (int64_t k = 0; k < inner; ++k) fold<R>(o[k], s[k]);
    }
  }
  if (!sorted || R == Reduction::kProd) return;
  std::vector<char> hit(static_cast<size_t>(num), 0);
  for (int64_t i = 0; i < n; ++i)
    if (rows[i] >= 0) hit[rows[i]] = 1;
  for (int64_t j = 0; j < num; ++j)
    if (!hit[j]) fill_n<T>(out + j * inner, inner, T(0));
}

// Sorted SegmentSum / SegmentMean: each segment's rows are contiguous and sum in T from 0, one row
// after another, as TF's kernel sums them (bfloat16 step by step, integers wrapping); a segment's
// sum stays in a register (one row) or in its output row (vectorized across the row), and segments
// run in parallel.
template <bool kMean, typename T>
void sum_sorted_segments(const T* src, T* out, const std::vector<int64_t>& start, int64_t inner) {
  const int64_t num = static_cast<int64_t>(start.size()) - 1, n = start.back();
  auto add = [](T a, T b) {
    fold<Reduction::kSum>(a, b);
    return a;
  };
  auto mean = [](T sum, int64_t count) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(sum / static_cast<T>(count));
    else return sum / static_cast<T>(static_cast<float>(count));
  };
  const auto finish = [&](T acc, int64_t count) { return kMean && count > 1 ? mean(acc, count) : acc; };
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain * num / std::max<int64_t>(n * inner, 1));
  for_range(num, [&](int64_t b, int64_t e) {
    int64_t j = b;
    if (inner == 1) {
      // Scalars: four segments at a time, each still summed in order, so four independent chains of
      // adds hide the add's latency (one chain is latency-bound).
      constexpr int kChains = 4;
      for (; j + kChains <= e; j += kChains) {
        T acc[kChains];
        int64_t common = start[j + 1] - start[j];
        for (int q = 0; q < kChains; ++q) {
          acc[q] = T(0);
          common = std::min(common, start[j + q + 1] - start[j + q]);
        }
        for (int64_t i = 0; i < common; ++i)
          for (int q = 0; q < kChains; ++q) acc[q] = add(acc[q], src[start[j + q] + i]);
        for (int q = 0; q < kChains; ++q) {
          for (int64_t i = start[j + q] + common; i < start[j + q + 1]; ++i) acc[q] = add(acc[q], src[i]);
          out[j + q] = finish(acc[q], start[j + q + 1] - start[j + q]);
        }
      }
      for (; j < e; ++j) {
        T acc = T(0);
        for (int64_t i = start[j]; i < start[j + 1]; ++i) acc = add(acc, src[i]);
        out[j] = finish(acc, start[j + 1] - start[j]);
      }
      return;
    }
    for (; j < e; ++j) {
      const int64_t s0 = start[j], s1 = start[j + 1];
      T* __restrict o = out + j * inner;
      fill_n<T>(o, inner, T(0));
      for (int64_t i = s0; i < s1; ++i) {
        const T* __restrict x = src + i * inner;
        for (int64_t k = 0; k < inner; ++k) o[k] = add(o[k], x[k]);
      }
      if (kMean && s1 - s0 > 1)
        for (int64_t k = 0; k < inner; ++k) o[k] = mean(o[k], s1 - s0);
    }
  }, grain);
}

template <Reduction R>
void run_reduction(KernelContext& c, bool sorted, const std::vector<int64_t>& rows, Shape out_shape, int64_t inner) {
  const TensorImpl& data = *c.input(0);
  TensorImpl* out = c.allocate_output(0, data.dtype(), checked_shape(std::move(out_shape)));
  const int64_t num = out->shape()[0];
  switch (data.dtype()) {
    EF_CASES_REAL(reduce_rows<R, T>(sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    EF_CASE(kComplex64, complex64, reduce_rows<R, T>(sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    EF_CASES_RARE(reduce_rows<R, T>(sorted, data.data<T>(), out->data<T>(), rows, num, inner))
    default: throw_no_kernel(c.op, "T", data.dtype());
  }
}

// TF's checks of sorted segment ids (n of them, read in place); the number of segments, ids[n - 1] + 1.
template <typename I>
int64_t sorted_segment_count(const I* ids, int64_t n) {
  EF_INVALID(n == 0 || int64_t(ids[n - 1]) < std::numeric_limits<int64_t>::max(), "Segment id ", ids[n - 1],
             " out of range");
  const int64_t num = n ? int64_t(ids[n - 1]) + 1 : 0;
  EF_INVALID(n == 0 || num > 0, "segment ids must be >= 0");
  // Branch-free passes over chunks in parallel (the ids are read once, at memory speed); sorted
  // ids lie in [ids[0], ids[n - 1]].
  std::atomic<bool> decreases{false};
  for_range(n, [&](int64_t b, int64_t e) {
    bool d = false;
    for (int64_t i = std::max<int64_t>(b, 1); i < e; ++i) d |= ids[i] < ids[i - 1];
    if (d) decreases.store(true, std::memory_order_relaxed);
  });
  EF_INVALID(!decreases.load(), "segment ids are not increasing");
  EF_INVALID(n == 0 || ids[0] >= 0, "Segment id ", ids[0], " out of range [0, ", num,
             "), possibly because 'segment_ids' input is not sorted.");
  return num;
}

// The first row of each of the num segments, and n (binary searches: no pass over the ids).
template <typename I>
std::vector<int64_t> segment_starts(const I* ids, int64_t n, int64_t num) {
  std::vector<int64_t> start(static_cast<size_t>(num + 1));
  for (int64_t j = 0; j <= num; ++j) start[j] = std::lower_bound(ids, ids + n, static_cast<I>(j)) - ids;
  return start;
}

// SegmentSum / SegmentMean.
void sum_segments(KernelContext& c, bool mean, Shape out_shape, int64_t inner) {
  const TensorImpl &data = *c.input(0), &ids = *c.input(1);
  TensorImpl* out = c.allocate_output(0, data.dtype(), checked_shape(std::move(out_shape)));
  if (out->num_elements() == 0) return;
  const int64_t n = ids.num_elements(), num = out->shape()[0];
  const std::vector<int64_t> start = with_index_data(ids, [&](const auto* p) { return segment_starts(p, n, num); });
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (mean) sum_sorted_segments<true, T>(data.data<T>(), out->data<T>(), start, inner);
    else sum_sorted_segments<false, T>(data.data<T>(), out->data<T>(), start, inner);
  };
  switch (data.dtype()) {
    EF_CASES_REAL(run(std::common_type<T>()))
    EF_CASE(kComplex64, complex64, run(std::common_type<T>()))
    EF_CASES_RARE(run(std::common_type<T>()))
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
  const int64_t n = ids.num_elements();
  const int64_t num = with_index_data(ids, [&](const auto* p) { return sorted_segment_count(p, n); });
  Shape out_shape = data.shape();
  out_shape.set_dim(0, num);
  int64_t inner = 1;
  for (int d = 1; d < data.rank(); ++d) inner *= data.shape()[d];
  if constexpr (R == Reduction::kSum || R == Reduction::kMean) {
    sum_segments(c, R == Reduction::kMean, out_shape, inner);
  } else {
    run_reduction<R>(c, true, tensor_to_int_vector(ids), out_shape, inner);
  }
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
  int64_t top = -1;  // a max scan that vectorizes (negative ids are dropped, as TF's)
  for (const int64_t r : rows) top = r > top ? r : top;
  if (top >= num) {
    for (size_t i = 0; i < rows.size(); ++i)
      EF_INVALID(rows[i] < num, "segment_ids[", i, "] = ", rows[i], " is out of range [0, ", num, ")");
  }
  run_reduction<R>(c, false, rows, out_shape, inner);
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
