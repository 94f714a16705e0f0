// CPU kernels of the matrix decompositions on Eigen, one matrix of the batch at a time:
// SelfAdjointEigV2 (SelfAdjointEigenSolver: ascending eigenvalues, from the lower triangle), Qr
// (HouseholderQR, as TF's CPU kernel, so the signs match) and Svd (JacobiSVD: descending singular
// values), and Cross (3-vectors along the last axis).
#include <type_traits>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <Eigen/SVD>

#include "kernels/cpu/broadcast.h"
#include "kernels/cpu/eigen_matrix.h"
#include "ops/matrix_ops.h"
#include "ops/op_util.h"
#include "ops/signature.h"

namespace ef {
namespace {

template <typename T>
using Mat = RowMajorMatrix<T>;
template <typename T>
using MapC = ConstMatrixMap<T>;
template <typename T>
using Map = MatrixMap<T>;


template <typename T>
void eigh(const TensorImpl& in, TensorImpl* e, TensorImpl* v, bool compute_v) {
  const int64_t n = in.shape()[in.rank() - 1], nb = num_matrices(in.shape());
  for (int64_t b = 0; b < nb && n > 0; ++b) {
    Eigen::SelfAdjointEigenSolver<Mat<T>> es(MapC<T>(in.data<T>() + b * n * n, n, n),
                                             compute_v ? Eigen::ComputeEigenvectors : Eigen::EigenvaluesOnly);
    if (es.info() != Eigen::Success)
      throw_error(Code::kInvalidArgument,
                  "Self-adjoint eigen decomposition was not successful. The input might not be valid.");
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(e->data<T>() + b * n, n) = es.eigenvalues();
    if (compute_v) Map<T>(v->data<T>() + b * n * n, n, n) = es.eigenvectors();
  }
}

void eigh_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  const bool compute_v = c.attrs.get<bool>("compute_v", true);
  TensorImpl* e = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  TensorImpl* v = c.allocate_output(1, in.dtype(), ic.out_shapes[1], false);
  EF_MATRIX_DISPATCH(in.dtype(), eigh<T>(in, e, v, compute_v));
}

template <typename T>
void qr(const TensorImpl& in, TensorImpl* q, TensorImpl* r, bool full) {
  const int64_t m = in.shape()[in.rank() - 2], n = in.shape()[in.rank() - 1], p = std::min(m, n);
  const int64_t qc = full ? m : p, rr = full ? m : p, nb = num_matrices(in.shape());
  for (int64_t b = 0; b < nb && q->num_elements() + r->num_elements() > 0; ++b) {
    Eigen::HouseholderQR<Mat<T>> dec{Mat<T>(MapC<T>(in.data<T>() + b * m * n, m, n))};
    Map<T> ro(r->data<T>() + b * rr * n, rr, n);
    ro = dec.matrixQR().topRows(rr).template triangularView<Eigen::Upper>();
    Map<T>(q->data<T>() + b * m * qc, m, qc) = dec.householderQ() * Mat<T>::Identity(m, qc);
  }
}

void qr_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* q = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  TensorImpl* r = c.allocate_output(1, in.dtype(), ic.out_shapes[1], false);
  EF_MATRIX_DISPATCH(in.dtype(), qr<T>(in, q, r, c.attrs.get<bool>("full_matrices", false)));
}

template <typename T>
void svd(const TensorImpl& in, TensorImpl* s, TensorImpl* u, TensorImpl* v, bool uv, bool full) {
  const int64_t m = in.shape()[in.rank() - 2], n = in.shape()[in.rank() - 1], p = std::min(m, n);
  const int64_t nb = num_matrices(in.shape()), uc = full ? m : p, vc = full ? n : p;
  const int opts = !uv  ? 0
                   : full ? (Eigen::ComputeFullU | Eigen::ComputeFullV)
                          : (Eigen::ComputeThinU | Eigen::ComputeThinV);
  for (int64_t b = 0; b < nb; ++b) {
    if (p == 0) {  // no singular values; full U and V of an empty matrix are identities
      if (uv && full) {
        Map<T>(u->data<T>() + b * m * m, m, m).setIdentity();
        Map<T>(v->data<T>() + b * n * n, n, n).setIdentity();
      }
      continue;
    }
    Eigen::JacobiSVD<Mat<T>> dec(MapC<T>(in.data<T>() + b * m * n, m, n), opts);
    Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>>(s->data<T>() + b * p, p) = dec.singularValues();
    if (uv) {
      Map<T>(u->data<T>() + b * m * uc, m, uc) = dec.matrixU();
      Map<T>(v->data<T>() + b * n * vc, n, vc) = dec.matrixV();
    }
  }
}

void svd_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  const bool uv = c.attrs.get<bool>("compute_uv", true), full = c.attrs.get<bool>("full_matrices", false);
  TensorImpl* s = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  TensorImpl* u = c.allocate_output(1, in.dtype(), ic.out_shapes[1], false);
  TensorImpl* v = c.allocate_output(2, in.dtype(), ic.out_shapes[2], false);
  EF_MATRIX_DISPATCH(in.dtype(), svd<T>(in, s, u, v, uv, full));
}

void cross_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  const TensorImpl& b = *c.input(1);
  infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, a.dtype(), a.shape(), false);
  const int64_t n = a.num_elements() / 3;
  EF_DISPATCH_REAL(a.dtype(), throw_no_kernel(c.op, "T", a.dtype()), {
    // Integers wrap like TF's (unsigned arithmetic: signed overflow is undefined in C++).
    using W = std::conditional_t<std::is_integral_v<T>, uint64_t, T>;
    const T* x = a.data<T>();
    const T* y = b.data<T>();
    T* o = out->data<T>();
    for (int64_t i = 0; i < n; ++i) {
      const W u0 = W(x[3 * i]), u1 = W(x[3 * i + 1]), u2 = W(x[3 * i + 2]);
      const W w0 = W(y[3 * i]), w1 = W(y[3 * i + 1]), w2 = W(y[3 * i + 2]);
      o[3 * i] = T(W(u1 * w2) - W(u2 * w1));
      o[3 * i + 1] = T(W(u2 * w0) - W(u0 * w2));
      o[3 * i + 2] = T(W(u0 * w1) - W(u1 * w0));
    }
  });
}

EF_REGISTER_CPU_KERNEL("SelfAdjointEigV2", eigh_kernel);
EF_REGISTER_CPU_KERNEL("Qr", qr_kernel);
EF_REGISTER_CPU_KERNEL("Svd", svd_kernel);
EF_REGISTER_CPU_KERNEL("Cross", cross_kernel);

}  // namespace
}  // namespace ef
