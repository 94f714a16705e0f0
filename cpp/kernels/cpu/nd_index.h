// Index vectors into the leading dims of a shape, as GatherNd and the ND scatters read them: the
// flat offset of each, in one branch-free pass over the indices in place.
#pragma once
#include <cstdint>
#include <vector>

#include "core/shape.h"
#include "core/tensor.h"

namespace ef {

// f(p) with p the elements of an integer index tensor, read in place for int16, int32 and int64
// (other dtypes through a converted copy that lives until f returns).
template <class F>
decltype(auto) with_index_data(const TensorImpl& t, F&& f) {
  switch (t.dtype()) {
    case DType::kInt16: return f(t.data<int16_t>());
    case DType::kInt32: return f(t.data<int32_t>());
    case DType::kInt64: return f(t.data<int64_t>());
    default: return f(static_cast<const int64_t*>(tensor_to_int_vector(t).data()));
  }
}

// offsets[i] = the flat offset of index vector i (k entries of idx into the leading dims of
// `shape`) times `scale`; false when an index is out of range. Unsigned arithmetic: a bad index's
// offset may wrap, and is never used.
template <typename I>
bool nd_offsets(const I* idx, int64_t count, int64_t k, const Shape& shape, int64_t scale, int64_t* offsets) {
  std::vector<uint64_t> dims(static_cast<size_t>(k));
  for (int64_t d = 0; d < k; ++d) dims[d] = static_cast<uint64_t>(shape[static_cast<int>(d)]);
  bool bad = false;
  for (int64_t i = 0; i < count; ++i) {
    uint64_t off = 0;
    for (int64_t d = 0; d < k; ++d) {
      const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(idx[i * k + d]));
      bad |= v >= dims[d];
      off = off * dims[d] + v;
    }
    offsets[i] = static_cast<int64_t>(off * static_cast<uint64_t>(scale));
  }
  return !bad;
}

// nd_offsets over an index tensor (int32 and int64 read in place). When one is out of range,
// `report(i, index)` gets the first such vector (its number and its k values) and must throw.
template <class Report>
std::vector<int64_t> nd_offsets(const TensorImpl& indices, int64_t count, int64_t k, const Shape& shape,
                                int64_t scale, Report report) {
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  const bool ok = with_index_data(indices, [&](const auto* idx) {
    return nd_offsets(idx, count, k, shape, scale, offsets.data());
  });
  if (ok) return offsets;
  const std::vector<int64_t> idx = tensor_to_int_vector(indices);
  for (int64_t i = 0; i < count; ++i) {
    bool in = true;
    for (int64_t d = 0; d < k; ++d) in &= idx[i * k + d] >= 0 && idx[i * k + d] < shape[static_cast<int>(d)];
    if (!in) report(i, std::vector<int64_t>(idx.begin() + i * k, idx.begin() + (i + 1) * k));
  }
  return offsets;
}

}  // namespace ef
