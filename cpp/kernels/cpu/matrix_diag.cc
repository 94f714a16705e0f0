// CPU kernels of MatrixBandPart and MatrixDiagV3 / MatrixDiagPartV3 / MatrixSetDiagV3 (one
// diagonal or a band, packed with `align`): index arithmetic over each [M, N] matrix of the batch.
#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/cpu/broadcast.h"
#include "ops/matrix_ops.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

int64_t num_batches(const Shape& s, int inner) {
  int64_t n = 1;
  for (int i = 0; i + inner < s.rank(); ++i) n *= s[i];
  return n;
}

void band_part_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  infer_for_kernel(c);
  const int64_t lo = tensor_to_int_vector(*c.input(1)).at(0), up = tensor_to_int_vector(*c.input(2)).at(0);
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);
  const int64_t m = in.shape()[in.rank() - 2], n = in.shape()[in.rank() - 1];
  const int64_t rows = n ? in.num_elements() / n : 0;
  EF_DISPATCH_POD(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), {
    const T* x = in.data<T>();
    T* o = out->data<T>();
    // Row i keeps columns [i - lo, i + up] (a negative bound keeps the whole side): zeros, a copy,
    // zeros.
    for_range(rows, [&](int64_t s, int64_t e) {
      for (int64_t r = s; r < e; ++r) {
        const int64_t i = r % m;
        const int64_t j0 = lo < 0 ? 0 : std::clamp<int64_t>(i - lo, 0, n);
        const int64_t j1 = up < 0 ? n : std::clamp<int64_t>(i + up + 1, j0, n);
        T* dst = o + r * n;
        std::fill(dst, dst + j0, T());
        std::copy(x + r * n + j0, x + r * n + j1, dst + j0);
        std::fill(dst + j1, dst + n, T());
      }
    }, std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)));
  });
}

// Visits each element of diagonals k.lo..k.hi of an m x n matrix with its index into the packed
// [k.num(), max_len] array: diagonal d is row k.hi - d; element j sits at (j + max(-d, 0), j + max(d, 0)).
template <typename F>
void for_each_diag_element(int64_t m, int64_t n, const DiagRange& k, const std::string& align, F&& f) {
  const int64_t max_len = max_diag_length(m, n, k);
  for (int64_t d = k.hi; d >= k.lo; --d) {
    const int64_t len = diag_length(m, n, d), off = diag_offset(align, d, len, max_len);
    const int64_t r0 = std::max<int64_t>(-d, 0), c0 = std::max<int64_t>(d, 0);
    for (int64_t j = 0; j < len; ++j) f((k.hi - d) * max_len + off + j, (j + r0) * n + j + c0);
  }
}

std::string align_of(const KernelContext& c) { return c.attrs.get<std::string>("align", "RIGHT_LEFT"); }

void diag_part_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  const DiagRange k = diag_range(c.input(1));
  TensorImpl* out = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  const int64_t m = in.shape()[in.rank() - 2], n = in.shape()[in.rank() - 1];
  const int64_t packed = k.num() * max_diag_length(m, n, k), nb = num_batches(in.shape(), 2);
  const std::string align = align_of(c);
  EF_DISPATCH_POD(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), {
    const T* x = in.data<T>();
    const T pad = c.input(2)->data<T>()[0];
    T* o = out->data<T>();
    std::fill(o, o + out->num_elements(), pad);
    for (int64_t b = 0; b < nb; ++b)
      for_each_diag_element(m, n, k, align, [&](int64_t p, int64_t e) { o[b * packed + p] = x[b * m * n + e]; });
  });
}

void diag_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  const DiagRange k = diag_range(c.input(1));
  const Shape& os = ic.out_shapes[0];
  TensorImpl* out = c.allocate_output(0, in.dtype(), os, false);
  const int64_t m = os[os.rank() - 2], n = os[os.rank() - 1];
  const int64_t packed = k.num() * max_diag_length(m, n, k), nb = num_batches(os, 2);
  const std::string align = align_of(c);
  EF_DISPATCH_POD(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), {
    const T* x = in.data<T>();
    const T pad = c.input(4)->data<T>()[0];
    T* o = out->data<T>();
    std::fill(o, o + out->num_elements(), pad);
    for (int64_t b = 0; b < nb; ++b)
      for_each_diag_element(m, n, k, align, [&](int64_t p, int64_t e) { o[b * m * n + e] = x[b * packed + p]; });
  });
}

void set_diag_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  const TensorImpl& diag = *c.input(1);
  infer_for_kernel(c);
  const DiagRange k = diag_range(c.input(2));
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);
  const int64_t m = in.shape()[in.rank() - 2], n = in.shape()[in.rank() - 1];
  const int64_t packed = k.num() * max_diag_length(m, n, k), nb = num_batches(in.shape(), 2);
  const std::string align = align_of(c);
  EF_DISPATCH_POD(in.dtype(), throw_no_kernel(c.op, "T", in.dtype()), {
    const T* x = in.data<T>();
    const T* dv = diag.data<T>();
    T* o = out->data<T>();
    std::copy(x, x + in.num_elements(), o);
    for (int64_t b = 0; b < nb; ++b)
      for_each_diag_element(m, n, k, align, [&](int64_t p, int64_t e) { o[b * m * n + e] = dv[b * packed + p]; });
  });
}

EF_REGISTER_CPU_KERNEL("MatrixBandPart", band_part_kernel);
EF_REGISTER_CPU_KERNEL("MatrixDiagPartV3", diag_part_kernel);
EF_REGISTER_CPU_KERNEL("MatrixDiagV3", diag_kernel);
EF_REGISTER_CPU_KERNEL("MatrixSetDiagV3", set_diag_kernel);

}  // namespace
}  // namespace ef
