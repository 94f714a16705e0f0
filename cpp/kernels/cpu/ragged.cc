// CPU kernel of RaggedTensorToTensor: the default fills the output, then each row's values are
// copied to the front of its padded row (rows and values past the requested shape are dropped).
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/cpu/copy.h"
#include "ops/array_shapes.h"
#include "ops/signature.h"

namespace ef {
namespace {

void ragged_to_tensor_kernel(KernelContext& c) {
  const TensorImpl &shape_t = *c.input(0), &values = *c.input(1), &def = *c.input(2);
  check_index_type(c.op, shape_t.dtype(), "Tshape");
  const size_t k = c.num_inputs() - 3;
  EF_INVALID(k >= 1, "Expected at least one row partition tensor");
  const auto types = c.attrs.get<std::vector<std::string>>("row_partition_types", {});
  EF_INVALID(types.size() == k, "Expected ", k, " row partition types, got ", types.size());
  for (const std::string& t : types)
    EF_REQUIRE(t == "ROW_SPLITS", Code::kUnimplemented, "RaggedTensorToTensor takes ROW_SPLITS partitions here, got ",
               t);
  EF_INVALID(values.rank() >= 1, "values must have rank at least 1");
  std::vector<std::vector<int64_t>> splits(k);
  for (size_t i = 0; i < k; ++i) {
    const TensorImpl& s = *c.input(3 + i);
    EF_INVALID(s.rank() == 1 && s.num_elements() >= 1, "Row partition ", i, " must be a non-empty vector");
    splits[i] = index_values(c.op, s, "Tindex");
    const int64_t next = i + 1 < k ? static_cast<int64_t>(c.input(4 + i)->num_elements()) - 1 : values.shape()[0];
    EF_INVALID(splits[i][0] == 0, "First value of ragged splits must be 0.");
    for (size_t j = 1; j < splits[i].size(); ++j)
      EF_INVALID(splits[i][j] >= splits[i][j - 1], "Ragged splits must be non-decreasing.");
    EF_INVALID(splits[i].back() == next, "Final value of ragged splits must match the length of the values (",
               splits[i].back(), " vs ", next, ")");
  }
  const int rank = static_cast<int>(k) + values.rank();
  std::vector<int64_t> dims(rank);
  dims[0] = static_cast<int64_t>(splits[0].size()) - 1;
  for (size_t i = 0; i < k; ++i) {
    int64_t longest = 0;
    for (size_t j = 1; j < splits[i].size(); ++j) longest = std::max(longest, splits[i][j] - splits[i][j - 1]);
    dims[i + 1] = longest;
  }
  for (int d = 1; d < values.rank(); ++d) dims[k + d] = values.shape()[d];
  if (shape_t.rank() == 1) {
    std::vector<int64_t> want = index_values(c.op, shape_t, "Tshape");
    EF_INVALID(static_cast<int>(want.size()) == rank, "rt_input.shape and shape=", list_string(want),
               " are incompatible: rank ", rank, " vs ", want.size());
    for (int d = 0; d < rank; ++d) {
      if (want[d] < 0) continue;
      EF_INVALID(d <= static_cast<int>(k) || want[d] == dims[d], "rt_input.shape and shape=", list_string(want),
                 " are incompatible: dimension ", d, " is ", dims[d]);
      dims[d] = want[d];
    }
  } else {
    EF_INVALID(shape_t.rank() == 0, "shape must be a scalar or a vector");
  }
  int64_t inner = 1;
  for (int d = static_cast<int>(k) + 1; d < rank; ++d) inner *= dims[d];
  EF_INVALID(def.num_elements() == 1 || def.num_elements() == inner,
             "default_value must be a scalar or have the shape of the values' inner dimensions");
  const Shape out_shape = checked_shape(Shape(dims));
  TensorImpl* out = c.allocate_output(0, values.dtype(), out_shape, false);
  std::vector<int64_t> strides(rank + 1, 1);
  for (int d = rank - 1; d >= 0; --d) strides[d] = strides[d + 1] * dims[d];
  EF_DISPATCH_POD(values.dtype(), throw_no_kernel(c.op, "T", values.dtype()), {
    T* o = out->data<T>();
    const T* dv = def.data<T>();
    const int64_t n = out->num_elements();
    if (def.num_elements() == 1) fill_n<T>(o, n, dv[0]);
    else
      for (int64_t i = 0; i < n; i += inner) std::copy(dv, dv + inner, o + i);
    const T* v = values.data<T>();
    // Row r of level i lands at its output offset; the last level copies `inner` values per item.
    struct Frame { size_t level; int64_t row, off; };
    std::vector<Frame> todo;
    for (int64_t r = std::min(dims[0], static_cast<int64_t>(splits[0].size()) - 1) - 1; r >= 0; --r)
      todo.push_back({0, r, r * strides[1]});
    while (!todo.empty()) {
      const Frame f = todo.back();
      todo.pop_back();
      const int64_t begin = splits[f.level][f.row];
      const int64_t len = std::min(splits[f.level][f.row + 1] - begin, dims[f.level + 1]);
      const int64_t stride = strides[f.level + 2];
      if (f.level + 1 < k) {
        for (int64_t j = len - 1; j >= 0; --j) todo.push_back({f.level + 1, begin + j, f.off + j * stride});
      } else {
        for (int64_t j = 0; j < len; ++j) std::copy(v + (begin + j) * inner, v + (begin + j + 1) * inner,
                                                    o + f.off + j * stride);
      }
    }
  });
}

}  // namespace

EF_REGISTER_CPU_KERNEL("RaggedTensorToTensor", ragged_to_tensor_kernel);

}  // namespace ef
