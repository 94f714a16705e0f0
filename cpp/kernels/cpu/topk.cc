// CPU TopKV2 (the k largest of each last-axis row, ties by lower index first, NaN as the largest)
// and InTopKV2 (whether each target's prediction is among its row's k largest; ties at the
// boundary count as in, as TF's).
#include <algorithm>
#include <cmath>
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
  else if constexpr (std::is_same_v<T, half>) return ef::isnan(v);
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

template <typename T, typename I>
void top_k(const TensorImpl& in, int64_t k, TensorImpl* values, TensorImpl* indices) {
  const int64_t n = in.shape()[in.rank() - 1];
  const int64_t rows = n ? in.num_elements() / n : 0;
  for_range(rows, [&](int64_t s, int64_t e) {
    std::vector<int64_t> order(static_cast<size_t>(n));
    for (int64_t r = s; r < e; ++r) {
      const T* row = in.data<T>() + r * n;
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
  check_type(c.op, in.dtype(), kTypesReal);
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
  EF_DISPATCH_REAL(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), {
    if (index_type == DType::kInt64) top_k<T, int64_t>(in, k, values, indices);
    else top_k<T, int32_t>(in, k, values, indices);
  });
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
