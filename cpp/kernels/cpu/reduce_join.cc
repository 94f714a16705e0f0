// CPU kernel of ReduceJoin: joins the strings along the reduction axes with a separator; the first
// listed axis varies fastest in the joined order (TF's order for reduction_indices).
#include <string>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/array_shapes.h"

namespace ef {
namespace {

void reduce_join_kernel(KernelContext& c) {
  const TensorImpl &in = *c.input(0), &axes_t = *c.input(1);
  for (int64_t a : tensor_to_int_vector(axes_t))
    EF_REQUIRE(a >= -in.rank() && a < in.rank(), Code::kOutOfRange, "Invalid reduction dimension ", a,
               " for input with ", in.rank(), " dimension(s)");
  const InferContext ic = infer_for_kernel(c);  // validates the axes with TF's messages
  const Shape& out_shape = ic.out_shapes[0];
  const std::string sep = c.attrs.get<std::string>("separator", "");
  const int rank = in.rank();
  std::vector<int> axes;
  std::vector<bool> reduced(rank, false);
  for (int64_t a : tensor_to_int_vector(axes_t)) {
    axes.push_back(static_cast<int>(a < 0 ? a + rank : a));
    reduced[axes.back()] = true;
  }
  std::vector<int64_t> stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d) stride[d] = stride[d + 1] * in.shape()[d + 1];
  // Offsets of the kept dims' multi-index in output order, and of the reduced ones in join order.
  std::vector<int> kept;
  for (int d = 0; d < rank; ++d)
    if (!reduced[d]) kept.push_back(d);
  auto offsets = [&](const std::vector<int>& dims, bool first_fastest) {
    std::vector<int64_t> offs{0};
    const int k = static_cast<int>(dims.size());
    for (int j = 0; j < k; ++j) {
      const int d = dims[first_fastest ? k - 1 - j : j];
      std::vector<int64_t> next;
      next.reserve(offs.size() * static_cast<size_t>(in.shape()[d]));
      for (int64_t o : offs)
        for (int64_t i = 0; i < in.shape()[d]; ++i) next.push_back(o + i * stride[d]);
      offs.swap(next);
    }
    return offs;
  };
  const std::vector<int64_t> outer = offsets(kept, false), inner = offsets(axes, true);
  TensorImpl* out = c.allocate_output(0, DType::kString, out_shape, false);
  std::string* po = out->data<std::string>();
  const std::string* pi = in.data<std::string>();
  for_range(static_cast<int64_t>(outer.size()), [&](int64_t s, int64_t e) {
    for (int64_t o = s; o < e; ++o) {
      std::string& r = po[o];
      for (size_t j = 0; j < inner.size(); ++j) {
        if (j) r += sep;
        r += pi[outer[o] + inner[j]];
      }
    }
  }, 1024);
}

EF_REGISTER_CPU_KERNEL("ReduceJoin", reduce_join_kernel);

}  // namespace
}  // namespace ef
