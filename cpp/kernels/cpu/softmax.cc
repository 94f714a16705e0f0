// CPU Softmax / LogSoftmax over the last axis, numerically stable (shift by the row max);
// rows run in parallel, each through Eigen's vectorized exp. float16 computes in float.

// Eigen's AVX-512 packet math trips GCC 12 (maybe-)uninitialized false positives inside
// avx512fintrin.h; the pragma must precede every include to cover those headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Eigen/Core>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename C>
using Row = Eigen::Array<C, Eigen::Dynamic, 1>;

// One row in the compute type C: out = softmax(x) or log_softmax(x).
template <bool kLog, typename C>
void softmax_row(const C* x, C* out, int64_t n) {
  Eigen::Map<const Row<C>> in(x, n);
  Eigen::Map<Row<C>> o(out, n);
  const C m = in.maxCoeff();  // NaNs are not picked; they still poison the sum below
  o = in - m;
  if constexpr (kLog) {
    const C lse = std::log(o.exp().sum());
    o -= lse;
  } else {
    o = o.exp();
    o /= o.sum();
  }
}

template <bool kLog, typename T>
void softmax_typed(const TensorImpl& in, TensorImpl* out) {
  const int64_t n = in.shape()[in.rank() - 1];
  if (n == 0 || out->num_elements() == 0) return;
  const int64_t rows = in.num_elements() / n;
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / 8 / n);  // exp is ~8x a copy
  if constexpr (std::is_same_v<T, half>) {
    for_range(rows, [&](int64_t s, int64_t e) {
      std::vector<float> xf(static_cast<size_t>(n)), of(static_cast<size_t>(n));
      for (int64_t r = s; r < e; ++r) {
        const half* px = in.data<half>() + r * n;
        for (int64_t i = 0; i < n; ++i) xf[i] = static_cast<float>(px[i]);
        softmax_row<kLog, float>(xf.data(), of.data(), n);
        half* po = out->data<half>() + r * n;
        for (int64_t i = 0; i < n; ++i) po[i] = static_cast<half>(of[i]);
      }
    }, grain);
  } else {
    for_range(rows, [&](int64_t s, int64_t e) {
      for (int64_t r = s; r < e; ++r) softmax_row<kLog, T>(in.data<T>() + r * n, out->data<T>() + r * n, n);
    }, grain);
  }
}

template <bool kLog>
void softmax_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesFloat);
  if (in.rank() == 0)
    throw_error(Code::kInvalidArgument, "logits must have >= 1 dimension, got ", in.shape().to_list_string());
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape());
  EF_DISPATCH_FLOAT(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), softmax_typed<kLog, T>(in, out));
}

EF_REGISTER_CPU_KERNEL("Softmax", softmax_kernel<false>);
EF_REGISTER_CPU_KERNEL("LogSoftmax", softmax_kernel<true>);

}  // namespace
}  // namespace ef
