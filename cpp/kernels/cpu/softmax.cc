// CPU Softmax / LogSoftmax over the last axis, numerically stable (shift by the row max), and the
// softmax cross entropies built on the same rows; chunks of rows run in parallel, each chunk's exp
// as one vector pass. float16 computes in float.

// Eigen's AVX-512 packet math trips GCC 12 (maybe-)uninitialized false positives inside
// avx512fintrin.h; the pragma must precede every include to cover those headers.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/elementwise_isa.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename C>
using Row = Eigen::Array<C, Eigen::Dynamic, 1>;

// exp over n contiguous values in place. float: the Exp kernel's block in the elementwise variant
// in use (exp_f32.h's vector exp, the same bits wherever a block starts). double: the C library's,
// per element, since Eigen's vector exp runs its unaligned head through the scalar exp, and a row's
// bits would then depend on where the thread chunk holding it starts.
template <typename C>
void exp_in_place(C* p, int64_t n) {
  if constexpr (std::is_same_v<C, float>) {
    isa_blocks().f32[kUnaryIndexExp](p, p, n);
  } else {
    for (int64_t i = 0; i < n; ++i) p[i] = std::exp(p[i]);
  }
}

// Rows [0, rows) of x ([rows, n] in the compute type C): m[r] = the row's max and e = exp(x - m),
// the exp as one pass over the whole block (rows of a few classes are shorter than a vector).
// NaNs are not picked as the max; they still poison the sums of their rows.
template <typename C>
void shifted_exp(const C* x, C* e, C* m, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    const C* px = x + r * n;
    const C mx = Eigen::Map<const Row<C>>(px, n).maxCoeff();
    C* pe = e + r * n;
    for (int64_t i = 0; i < n; ++i) pe[i] = px[i] - mx;
    m[r] = mx;
  }
  exp_in_place(e, rows * n);
}

// Scratch rows [s, s + count) of a [rows, n] matrix of C, each at the address modulo 64 bytes it
// has in a whole 64-byte-aligned matrix (as in a tensor): Eigen's vectorized max and sum start with
// a scalar head up to the first aligned element, so a row's bits depend on that address, and this
// keeps them independent of where the thread chunks start.
template <typename C>
struct RowScratch {
  static constexpr int64_t kPhase = 64 / sizeof(C);
  std::vector<C> mem;
  C* rows;
  RowScratch(int64_t s, int64_t count, int64_t n) : mem(static_cast<size_t>(count * n + 2 * kPhase)) {
    const uintptr_t p = reinterpret_cast<uintptr_t>(mem.data());
    rows = reinterpret_cast<C*>((p + 63) & ~uintptr_t(63)) + (s * n) % kPhase;
  }
};

// Splits the rows across threads and hands each chunk fn(first row, x, count) with x the chunk's
// logits in C (T's own memory when T is C, else a converted copy).
template <typename T, typename C, typename F>
void for_row_chunks(const T* logits, int64_t rows, int64_t n, F&& fn) {
  const int64_t grain = std::max<int64_t>(1, kElementwiseGrain / 8 / std::max<int64_t>(n, 1));  // exp ~8x a copy
  for_range(rows, [&](int64_t s, int64_t e) {
    if constexpr (std::is_same_v<T, C>) {
      fn(s, logits + s * n, e - s);
    } else {
      RowScratch<C> x(s, e - s, n);
      for (int64_t i = 0; i < (e - s) * n; ++i) x.rows[i] = static_cast<C>(logits[s * n + i]);
      fn(s, static_cast<const C*>(x.rows), e - s);
    }
  }, grain);
}

// The exp rows of a chunk: the output's own rows when T is C (the kernels overwrite them last),
// else scratch.
template <typename T, typename C>
struct ExpRows {
  std::unique_ptr<RowScratch<C>> scratch;
  C* rows;
  ExpRows(T* out, int64_t s, int64_t count, int64_t n) {
    if constexpr (std::is_same_v<T, C>) {
      rows = out + s * n;
    } else {
      scratch = std::make_unique<RowScratch<C>>(s, count, n);
      rows = scratch->rows;
    }
  }
};

template <bool kLog, typename T>
void softmax_typed(const TensorImpl& in, TensorImpl* out) {
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const int64_t n = in.shape()[in.rank() - 1];
  if (n == 0 || out->num_elements() == 0) return;
  const int64_t rows = in.num_elements() / n;
  T* po = out->data<T>();
  for_row_chunks<T, C>(in.data<T>(), rows, n, [&](int64_t s, const C* x, int64_t count) {
    ExpRows<T, C> e(po, s, count, n);
    std::vector<C> m(static_cast<size_t>(count));
    shifted_exp(x, e.rows, m.data(), count, n);
    for (int64_t r = 0; r < count; ++r) {
      const C* px = x + r * n;
      const C* pe = e.rows + r * n;
      T* o = po + (s + r) * n;
      const C sum = Eigen::Map<const Row<C>>(pe, n).sum();
      if constexpr (kLog) {
        const C lse = std::log(sum);
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>((px[i] - m[r]) - lse);
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(pe[i] / sum);
      }
    }
  });
}

template <bool kLog>
void softmax_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  check_type(c.op, in.dtype(), kTypesFloat);
  if (in.rank() == 0)
    throw_error(Code::kInvalidArgument, "logits must have >= 1 dimension, got ", in.shape().to_list_string());
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);  // written before the input is read
  EF_DISPATCH_FLOAT(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), softmax_typed<kLog, T>(in, out));
}

// Cross entropy rows: backprop = softmax(logits) - labels, loss = -sum(labels * log_softmax), with
// log_softmax = (x - max) - log(sum). Dense labels: labels(r, lab) fills a row of label
// probabilities (C). Sparse: labels(r) is the row's class, the one term of the loss (no scan of a
// one-hot row, and no branch on it).
template <bool kSparse, typename T, typename C, typename Labels>
void xent_rows(const T* logits, int64_t rows, int64_t n, Labels labels, TensorImpl* loss, TensorImpl* back) {
  T* pb = back->data<T>();
  T* pl = loss->data<T>();
  for_row_chunks<T, C>(logits, rows, n, [&](int64_t s, const C* x, int64_t count) {
    ExpRows<T, C> e(pb, s, count, n);
    std::vector<C> m(static_cast<size_t>(count)), lab(kSparse ? 0 : static_cast<size_t>(n));
    shifted_exp(x, e.rows, m.data(), count, n);
    for (int64_t r = 0; r < count; ++r) {
      const C* px = x + r * n;
      const C* pe = e.rows + r * n;
      const C sum = Eigen::Map<const Row<C>>(pe, n).sum();
      const C lse = std::log(sum);
      T* o = pb + (s + r) * n;
      C l = 0;
      if constexpr (kSparse) {
        const int64_t k = labels(s + r);
        const C ek = pe[k];  // pe may be o's own row
        l -= (px[k] - m[r]) - lse;
        for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(pe[i] / sum);
        o[k] = static_cast<T>(ek / sum - C(1));
      } else {
        labels(s + r, lab.data());
        for (int64_t i = 0; i < n; ++i) {
          if (lab[i] != C(0)) l -= lab[i] * ((px[i] - m[r]) - lse);
          o[i] = static_cast<T>(pe[i] / sum - lab[i]);
        }
      }
      pl[s + r] = static_cast<T>(l);
    }
  });
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
  xent_rows<true, T, C>(logits.data<T>(), rows, n, [&](int64_t r) { return static_cast<int64_t>(pl[r]); }, loss, back);
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
    xent_rows<false, T, C>(lg, rows, n, [&, lr = lr, lc = lc](int64_t r, C* lab) {
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
