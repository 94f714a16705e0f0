// CPU TopKV2 (the k largest of each last-axis row, ties by lower index first, NaN as the largest)
// and InTopKV2 (whether each target's prediction is among its row's k largest; ties at the
// boundary count as in, as TF's).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else if constexpr (is_storage_float<T>::value) return ef::isnan(v);
  else return false;
}

// a before b: larger first (NaN largest), then the lower index.
template <typename T>
struct Before {
  const T* row;
  bool operator()(int64_t a, int64_t b) const {
    const bool na = is_nan(row[a]), nb = is_nan(row[b]);
    if (na || nb) return na && !nb ? true : (na == nb ? a < b : false);
    if (row[a] != row[b]) return row[a] > row[b];
    return a < b;
  }
};

// Radix keys whose ascending order is Before's: the value's order-preserving bit pattern, inverted
// (largest first), every NaN 0 (first) and -0 as +0 (ties keep index order).
template <typename T>
auto descending_key(T v) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) {
    uint64_t u;
    if constexpr (std::is_same_v<T, double>) {
      if (std::isnan(v)) return uint64_t(0);
      if (v == 0) v = 0;
      std::memcpy(&u, &v, 8);
      u = (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
    } else if constexpr (std::is_signed_v<T>) {
      u = static_cast<uint64_t>(v) ^ (uint64_t(1) << 63);
    } else {
      u = v;
    }
    return ~u;
  } else if constexpr (std::is_floating_point_v<T> || is_storage_float<T>::value) {
    float f = static_cast<float>(v);
    if (std::isnan(f)) return uint32_t(0);
    if (f == 0) f = 0;
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u = (u >> 31) ? ~u : (u | 0x80000000u);
    return ~u;
  } else if constexpr (std::is_signed_v<T>) {
    return ~(static_cast<uint32_t>(static_cast<int32_t>(v)) ^ 0x80000000u);
  } else {
    return ~static_cast<uint32_t>(v);
  }
}

// A key and the element's position in one item, so a radix pass moves one array: 32-bit keys
// pack into a uint64 (key in the high half), 64-bit keys pair with the position.
template <typename K>
struct RadixItem;
template <>
struct RadixItem<uint32_t> {
  uint64_t v;
  static RadixItem make(uint32_t key, uint32_t pos) { return {(uint64_t(key) << 32) | pos}; }
  uint32_t key() const { return static_cast<uint32_t>(v >> 32); }
  uint32_t pos() const { return static_cast<uint32_t>(v); }
};
template <>
struct RadixItem<uint64_t> {
  uint64_t k;
  uint32_t p;
  static RadixItem make(uint64_t key, uint32_t pos) { return {key, pos}; }
  uint64_t key() const { return k; }
  uint32_t pos() const { return p; }
};

// Stable LSD radix sort by key, kDigit bits a pass (8 for short rows, whose cost is the
// histograms; 11 for long ones: fewer passes); passes where every key has the same digit are
// skipped.
template <int kDigit, typename K>
void radix_sort(std::vector<RadixItem<K>>& a, std::vector<RadixItem<K>>& tmp) {
  constexpr int kBuckets = 1 << kDigit, kPasses = (8 * sizeof(K) + kDigit - 1) / kDigit;
  const size_t n = a.size();
  std::vector<uint32_t> hist(kPasses * kBuckets, 0);
  for (size_t i = 0; i < n; ++i) {
    const K k = a[i].key();
    for (int p = 0; p < kPasses; ++p) ++hist[p * kBuckets + ((k >> (kDigit * p)) & (kBuckets - 1))];
  }
  for (int p = 0; p < kPasses; ++p) {
    uint32_t* h = hist.data() + p * kBuckets;
    if (*std::max_element(h, h + kBuckets) == n) continue;
    uint32_t sum = 0;
    for (int d = 0; d < kBuckets; ++d) {
      const uint32_t c = h[d];
      h[d] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; ++i) tmp[h[(a[i].key() >> (kDigit * p)) & (kBuckets - 1)]++] = a[i];
    a.swap(tmp);
  }
}

template <typename T>
struct RadixBuffers {
  using K = decltype(descending_key(T()));
  std::vector<RadixItem<K>> items, tmp;
  explicit RadixBuffers(int64_t n) : items(n), tmp(n) {}
};

template <typename T, typename I>
void top_k_radix(const T* row, int64_t n, int64_t k, T* values, I* indices, RadixBuffers<T>& b) {
  using K = typename RadixBuffers<T>::K;
  for (int64_t i = 0; i < n; ++i) b.items[i] = RadixItem<K>::make(descending_key(row[i]), static_cast<uint32_t>(i));
  if (n < (1 << 16)) radix_sort<8>(b.items, b.tmp);
  else radix_sort<11>(b.items, b.tmp);
  for (int64_t j = 0; j < k; ++j) {
    const uint32_t p = b.items[j].pos();
    values[j] = row[p];
    indices[j] = static_cast<I>(p);
  }
}

template <typename T, typename I>
void top_k(const TensorImpl& in, int64_t k, TensorImpl* values, TensorImpl* indices) {
  const int64_t n = in.shape()[in.rank() - 1];
  const int64_t rows = n ? in.num_elements() / n : 0;
  // A (near) full sort: radix beats a comparison sort; a small k keeps the partial heap sort.
  const bool radix = n >= 64 && k * 8 >= n && n <= std::numeric_limits<uint32_t>::max();
  for_range(rows, [&](int64_t s, int64_t e) {
    std::vector<int64_t> order(radix ? 0 : static_cast<size_t>(n));
    RadixBuffers<T> buffers(radix ? n : 0);
    for (int64_t r = s; r < e; ++r) {
      const T* row = in.data<T>() + r * n;
      if (radix) {
        top_k_radix(row, n, k, values->data<T>() + r * k, indices->data<I>() + r * k, buffers);
        continue;
      }
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + k, order.end(), Before<T>{row});
      for (int64_t j = 0; j < k; ++j) {
        values->data<T>()[r * k + j] = row[order[j]];
        indices->data<I>()[r * k + j] = static_cast<I>(order[j]);
      }
    }
  }, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)));
}

void top_k_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesReal | kBitsWideUInt | kBitsBFloat16);
  if (c.input(1)->rank() != 0)
    throw_error(Code::kInvalidArgument, "k must be 0-D, got shape ", c.input(1)->shape().to_list_string());
  InferContext ic = infer_for_kernel(c);
  const int64_t k = tensor_to_int_vector(*c.input(1)).at(0);
  Shape out = in.shape();
  out.set_dim(out.rank() - 1, k);
  const DType index_type = ic.out_dtypes[1];
  if (index_type != DType::kInt32 && index_type != DType::kInt64)
    throw_error(Code::kInvalidArgument, "index_type must be int32 or int64, got ", tf_type_string(index_type));
  TensorImpl* values = c.allocate_output(0, in.dtype(), out, false);
  TensorImpl* indices = c.allocate_output(1, index_type, out, false);
  if (values->num_elements() == 0) return;
  const bool wide = index_type == DType::kInt64;
  switch (in.dtype()) {
    EF_CASES_REAL(wide ? top_k<T, int64_t>(in, k, values, indices) : top_k<T, int32_t>(in, k, values, indices))
    EF_CASES_WIDE_UINT(wide ? top_k<T, int64_t>(in, k, values, indices) : top_k<T, int32_t>(in, k, values, indices))
    EF_CASE(kBFloat16, bfloat16, wide ? top_k<T, int64_t>(in, k, values, indices) : top_k<T, int32_t>(in, k, values, indices))
    default: throw_no_kernel(c.op, "T", in.dtype());
  }
}

void in_top_k_kernel(KernelContext& c) {
  const TensorImpl& pred = *c.input(0);
  const TensorImpl& targets = *c.input(1);
  infer_for_kernel(c);
  const int64_t k = tensor_to_int_vector(*c.input(2)).at(0);
  const int64_t rows = pred.shape()[0], n = pred.shape()[1];
  TensorImpl* out = c.allocate_output(0, DType::kBool, Shape({rows}));
  const std::vector<int64_t> t = tensor_to_int_vector(targets);
  const float* p = pred.data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t target = t[r];
    bool in = false;
    if (target >= 0 && target < n && std::isfinite(p[r * n + target])) {
      const float v = p[r * n + target];
      int64_t larger = 0;
      for (int64_t j = 0; j < n; ++j) larger += p[r * n + j] > v;
      in = larger < k;
    }
    out->data<bool>()[r] = in;
  }
}

EF_REGISTER_CPU_KERNEL("TopKV2", top_k_kernel);
EF_REGISTER_CPU_KERNEL("InTopKV2", in_top_k_kernel);

}  // namespace
}  // namespace ef
