// CPU Softmax / LogSoftmax over the last axis, numerically stable (shift by the row max), and the
// softmax cross entropies built on the same rows; rows run in parallel, each through Eigen's
// vectorized exp. float16 computes in float.

// Eigen's AVX-512 packet math trips GCC 12 (maybe-)uninitialized false positives inside
// avx512fintrin.h; the pragma must precede every include to cover those headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Eigen/Core>
#include <algorithm>
#include <string>
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

// Cross entropy rows: backprop = softmax(logits) - labels, loss = -sum(labels * log_softmax).
// A row is one label index (sparse) or a row of label probabilities; C is the compute type.
template <typename T, typename C, typename Labels>
void xent_rows(const T* logits, int64_t rows, int64_t n, Labels labels, TensorImpl* loss, TensorImpl* back) {
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / 8 / std::max<int64_t>(n, 1));
  for_range(rows, [&](int64_t s, int64_t e) {
    std::vector<C> x(static_cast<size_t>(n)), lp(static_cast<size_t>(n)), lab(static_cast<size_t>(n));
    for (int64_t r = s; r < e; ++r) {
      const T* px = logits + r * n;
      for (int64_t i = 0; i < n; ++i) x[i] = static_cast<C>(px[i]);
      softmax_row<true, C>(x.data(), lp.data(), n);
      labels(r, lab.data());
      C l = 0;
      T* pb = back->data<T>() + r * n;
      for (int64_t i = 0; i < n; ++i) {
        if (lab[i] != C(0)) l -= lab[i] * lp[i];
        pb[i] = static_cast<T>(std::exp(lp[i]) - lab[i]);
      }
      loss->data<T>()[r] = static_cast<T>(l);
    }
  }, grain);
}

template <typename T, typename L>
void sparse_xent_typed(const TensorImpl& logits, const TensorImpl& labels, TensorImpl* loss, TensorImpl* back) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const int64_t rows = logits.shape()[0], n = logits.shape()[1];
  const L* pl = labels.data<L>();
  for (int64_t r = 0; r < rows; ++r) {
    if (pl[r] < 0 || pl[r] >= n) {
      std::string all;
      for (int64_t i = 0; i < rows; ++i) all += (i ? " " : "") + std::to_string(pl[i]);
      throw_error(Code::kInvalidArgument, "Received a label value of ", pl[r],
                  " which is outside the valid range of [0, ", n, ").  Label values: ", all);
    }
  }
  xent_rows<T, C>(logits.data<T>(), rows, n, [&](int64_t r, C* lab) {
    std::fill(lab, lab + n, C(0));
    lab[pl[r]] = C(1);
  }, loss, back);
}

void sparse_xent_kernel(KernelContext& c) {
  const TensorImpl& logits = *c.input(0);
  const TensorImpl& labels = *c.input(1);
  check_type(c.op, logits.dtype(), kTypesFloat);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* loss = c.allocate_output(0, logits.dtype(), ic.out_shapes[0], false);
  TensorImpl* back = c.allocate_output(1, logits.dtype(), ic.out_shapes[1], false);
  if (logits.shape()[0] == 0) return;
  EF_DISPATCH_FLOAT(logits.dtype(), throw_no_kernel(c.op, "T", logits.dtype()), {
    if (labels.dtype() == DType::kInt64) sparse_xent_typed<T, int64_t>(logits, labels, loss, back);
    else sparse_xent_typed<T, int32_t>(logits, labels, loss, back);
  });
}

void xent_kernel(KernelContext& c) {
  const TensorImpl& logits = *c.input(0);
  const TensorImpl& labels = *c.input(1);
  check_type(c.op, logits.dtype(), kTypesFloat);
  InferContext ic = infer_for_kernel(c);
  const Shape& out = ic.out_shapes[1];
  TensorImpl* loss = c.allocate_output(0, logits.dtype(), ic.out_shapes[0], false);
  TensorImpl* back = c.allocate_output(1, logits.dtype(), out, false);
  const int64_t rows = out[0], n = out[1];
  if (rows == 0 || n == 0) return;
  // A broadcast dim of 1 repeats that row or column of its operand.
  auto strides = [&](const Shape& s) { return std::make_pair(s[0] == 1 ? 0 : s[1], s[1] == 1 ? 0 : 1); };
  const auto [fr, fc] = strides(logits.shape());
  const auto [lr, lc] = strides(labels.shape());
  EF_DISPATCH_FLOAT(logits.dtype(), throw_no_kernel(c.op, "T", logits.dtype()), {
    using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
    std::vector<T> wide;  // logits with their broadcast dims made whole
    const T* lg = logits.data<T>();
    if (fr == 0 || fc == 0) {
      wide.resize(static_cast<size_t>(rows * n));
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t i = 0; i < n; ++i) wide[r * n + i] = lg[r * fr + i * fc];
      lg = wide.data();
    }
    const T* pl = labels.data<T>();
    xent_rows<T, C>(lg, rows, n, [&, lr = lr, lc = lc](int64_t r, C* lab) {
      for (int64_t i = 0; i < n; ++i) lab[i] = static_cast<C>(pl[r * lr + i * lc]);
    }, loss, back);
  });
}

EF_REGISTER_CPU_KERNEL("SparseSoftmaxCrossEntropyWithLogits", sparse_xent_kernel);
EF_REGISTER_CPU_KERNEL("SoftmaxCrossEntropyWithLogits", xent_kernel);
EF_REGISTER_CPU_KERNEL("Softmax", softmax_kernel<false>);
EF_REGISTER_CPU_KERNEL("LogSoftmax", softmax_kernel<true>);

}  // namespace
}  // namespace ef
