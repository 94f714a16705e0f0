// CPU kernels of LowerBound / UpperBound (binary search per row), Unique / UniqueWithCounts (a hash
// map from value to first position; every NaN is its own value, as TF's)
// and DenseBincount.
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <unordered_map>

#include "kernels/cpu/broadcast.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename T, typename I>
void bounds(bool upper, const TensorImpl& s, const TensorImpl& v, TensorImpl* out) {
  const int64_t rows = s.shape()[0];
  const int64_t n = rows ? s.num_elements() / rows : 0, m = rows ? v.num_elements() / rows : 0;
  for_range(rows * m, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const T* row = s.data<T>() + (i / m) * n;
      const T x = v.data<T>()[i];
      const T* p = upper ? std::upper_bound(row, row + n, x) : std::lower_bound(row, row + n, x);
      out->data<I>()[i] = static_cast<I>(p - row);
    }
  }, 1024);
}

template <bool kUpper>
void bound_kernel(KernelContext& c) {
  const TensorImpl &s = *c.input(0), &v = *c.input(1);
  EF_INVALID(s.rank() >= 1 && v.rank() >= 1, "Shape must be at least rank 1 but is rank 0");
  EF_INVALID(s.shape()[0] == v.shape()[0], "Leading dim_size of both tensors must match.");
  const DType out_type = c.attrs.get<DType>("out_type", DType::kInt32);
  TensorImpl* out = c.allocate_output(0, out_type, v.shape());
  if (v.num_elements() == 0) return;
  EF_DISPATCH_REAL(s.dtype(), throw_no_kernel(c.op, "T", s.dtype()), {
    if (out_type == DType::kInt64) bounds<T, int64_t>(kUpper, s, v, out);
    else bounds<T, int32_t>(kUpper, s, v, out);
  });
}

template <typename T>
struct KeyHash {
  size_t operator()(const T& x) const {
    if constexpr (is_storage_float<T>::value) {
      return std::hash<uint16_t>()(x.bits);
    } else if constexpr (std::is_floating_point_v<T>) {
      return std::hash<T>()(x == 0 ? T(0) : x);
    } else {
      return std::hash<T>()(x);
    }
  }
};

// TF hashes half and bfloat16 by their bits: -0.0 and 0.0 are two values there (float and double
// compare them equal). NaN never equals itself.
template <typename T>
struct KeyEqual {
  bool operator()(const T& a, const T& b) const {
    if constexpr (is_storage_float<T>::value) return a.bits == b.bits && !isnan(a);
    else return a == b;
  }
};

template <typename T, typename I>
void unique(KernelContext& c, bool counts) {
  const TensorImpl& x = *c.input(0);
  const int64_t n = x.num_elements();
  const T* in = x.data<T>();
  std::unordered_map<T, int64_t, KeyHash<T>, KeyEqual<T>> first;
  first.reserve(static_cast<size_t>(n));
  std::vector<int64_t> order, count;
  TensorImpl* idx = c.allocate_output(1, c.attrs.get<DType>("out_idx", DType::kInt32), x.shape());
  for (int64_t i = 0; i < n; ++i) {
    auto [it, fresh] = first.try_emplace(in[i], static_cast<int64_t>(order.size()));
    if (fresh) {
      order.push_back(i);
      count.push_back(0);
    }
    ++count[it->second];
    idx->data<I>()[i] = static_cast<I>(it->second);
  }
  const int64_t k = static_cast<int64_t>(order.size());
  TensorImpl* y = c.allocate_output(0, x.dtype(), Shape({k}));
  for (int64_t j = 0; j < k; ++j) y->data<T>()[j] = in[order[j]];
  if (!counts) return;
  TensorImpl* cnt = c.allocate_output(2, idx->dtype(), Shape({k}));
  for (int64_t j = 0; j < k; ++j) cnt->data<I>()[j] = static_cast<I>(count[j]);
}

template <bool kCounts>
void unique_kernel(KernelContext& c) {
  const TensorImpl& x = *c.input(0);
  EF_INVALID(x.rank() == 1, "unique expects a 1D vector.");
  const bool wide = c.attrs.get<DType>("out_idx", DType::kInt32) == DType::kInt64;
  switch (x.dtype()) {
    EF_CASES_REAL(wide ? unique<T, int64_t>(c, kCounts) : unique<T, int32_t>(c, kCounts))
    EF_CASES_WIDE_UINT(wide ? unique<T, int64_t>(c, kCounts) : unique<T, int32_t>(c, kCounts))
    EF_CASE(kBFloat16, bfloat16, wide ? unique<T, int64_t>(c, kCounts) : unique<T, int32_t>(c, kCounts))
    EF_CASE(kBool, bool, wide ? unique<T, int64_t>(c, kCounts) : unique<T, int32_t>(c, kCounts))
    EF_CASE(kString, std::string, wide ? unique<T, int64_t>(c, kCounts) : unique<T, int32_t>(c, kCounts))
    default: throw_no_kernel(c.op, "T", x.dtype());
  }
}

template <typename T>
void bincount(const std::vector<int64_t>& in, const TensorImpl& w, bool binary, int64_t rows, int64_t size, T* out) {
  const int64_t n = rows ? static_cast<int64_t>(in.size()) / rows : 0;
  const bool weighted = w.num_elements() > 0;
  std::fill(out, out + rows * size, T(0));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t i = r * n; i < (r + 1) * n; ++i) {
      if (in[i] >= size) continue;
      T& o = out[r * size + in[i]];
      if (binary) o = T(1);
      else o += weighted ? w.data<T>()[i] : T(1);
    }
  }
}

void dense_bincount_kernel(KernelContext& c) {
  const TensorImpl &in = *c.input(0), &size_t_ = *c.input(1), &w = *c.input(2);
  EF_INVALID(size_t_.rank() == 0, "Shape must be rank 0 but is rank ", size_t_.rank());
  const int64_t size = tensor_to_int_vector(size_t_)[0];
  EF_INVALID(size >= 0, "size (", size, ") must be non-negative");
  EF_INVALID(in.rank() <= 2, "Shape must be at most rank 2 but is rank ", in.rank());
  EF_INVALID(w.num_elements() == 0 || w.shape() == in.shape(),
             "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all weights "
             "equal to 1. Received ", w.shape().to_list_string());
  const std::vector<int64_t> values = tensor_to_int_vector(in);
  for (int64_t v : values) EF_INVALID(v >= 0, "Input arr must be non-negative!");
  const int64_t rows = in.rank() == 2 ? in.shape()[0] : 1;
  TensorImpl* out = c.allocate_output(0, w.dtype(), checked_shape(in.rank() == 2 ? Shape({rows, size}) : Shape({size})));
  const bool binary = c.attrs.get<bool>("binary_output", false);
  switch (w.dtype()) {
    EF_CASE(kInt32, int32_t, bincount<T>(values, w, binary, rows, size, out->data<T>()))
    EF_CASE(kInt64, int64_t, bincount<T>(values, w, binary, rows, size, out->data<T>()))
    EF_CASE(kFloat32, float, bincount<T>(values, w, binary, rows, size, out->data<T>()))
    EF_CASE(kFloat64, double, bincount<T>(values, w, binary, rows, size, out->data<T>()))
    default: throw_no_kernel(c.op, "T", w.dtype());
  }
}

EF_REGISTER_CPU_KERNEL("LowerBound", bound_kernel<false>);
EF_REGISTER_CPU_KERNEL("UpperBound", bound_kernel<true>);
EF_REGISTER_CPU_KERNEL("Unique", unique_kernel<false>);
EF_REGISTER_CPU_KERNEL("UniqueWithCounts", unique_kernel<true>);
EF_REGISTER_CPU_KERNEL("DenseBincount", dense_bincount_kernel);

}  // namespace
}  // namespace ef
