// CPU kernels of the dense linear-algebra ops on Eigen's decompositions, one matrix of the batch at
// a time: MatrixInverse, MatrixDeterminant, LogMatrixDeterminant and MatrixSolve through
// PartialPivLU (an exactly zero pivot means singular, as TF's test), Cholesky through LLT (NaN
// where the input is not positive definite, as TF's CPU kernel leaves no factor), and
// MatrixTriangularSolve with broadcast batch dims.
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

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
Eigen::PartialPivLU<Mat<T>> lu_of(const MapC<T>& a, bool adjoint) {
  return adjoint ? Eigen::PartialPivLU<Mat<T>>(a.adjoint()) : Eigen::PartialPivLU<Mat<T>>(a);
}

template <typename T>
bool lu_singular(const Eigen::PartialPivLU<Mat<T>>& lu) {
  return lu.rows() > 0 && !(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0));
}


template <typename T>
void inverse(const TensorImpl& in, TensorImpl* out, bool adjoint) {
  const int64_t m = in.shape()[in.rank() - 1], nb = num_matrices(in.shape());
  for (int64_t b = 0; b < nb && m > 0; ++b) {
    MapC<T> a(in.data<T>() + b * m * m, m, m);
    Eigen::PartialPivLU<Mat<T>> lu = lu_of<T>(a, adjoint);
    if (lu_singular(lu)) throw_error(Code::kInvalidArgument, "Input is not invertible.");
    Map<T>(out->data<T>() + b * m * m, m, m) = lu.inverse();
  }
}

void inverse_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);
  EF_MATRIX_DISPATCH(in.dtype(), inverse<T>(in, out, c.attrs.get<bool>("adjoint", false)));
}

// sign and log|det| of each matrix; sign 0 and log -inf when singular.
template <typename T>
void log_det(const TensorImpl& in, T* sign, T* log_abs, T* det) {
  const int64_t m = in.shape()[in.rank() - 1], nb = num_matrices(in.shape());
  for (int64_t b = 0; b < nb; ++b) {
    T s = 1, l = 0;
    if (m > 0) {
      Eigen::PartialPivLU<Mat<T>> lu{MapC<T>(in.data<T>() + b * m * m, m, m)};
      s = static_cast<T>(lu.permutationP().determinant());
      for (int64_t i = 0; i < m; ++i) {
        const T d = lu.matrixLU()(i, i);
        if (d == T(0)) {
          s = 0;
          l = -std::numeric_limits<T>::infinity();
          break;
        }
        if (d < 0) s = -s;
        l += std::log(std::abs(d));
      }
    }
    if (sign) sign[b] = s;
    if (log_abs) log_abs[b] = l;
    if (det) det[b] = s == T(0) ? T(0) : s * std::exp(l);
  }
}

void determinant_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  EF_MATRIX_DISPATCH(in.dtype(), log_det<T>(in, nullptr, nullptr, out->data<T>()));
}

void log_determinant_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* sign = c.allocate_output(0, in.dtype(), ic.out_shapes[0], false);
  TensorImpl* log_abs = c.allocate_output(1, in.dtype(), ic.out_shapes[1], false);
  EF_MATRIX_DISPATCH(in.dtype(), log_det<T>(in, sign->data<T>(), log_abs->data<T>(), nullptr));
}

template <typename T>
void solve(const TensorImpl& a, const TensorImpl& rhs, TensorImpl* out, bool adjoint) {
  const int64_t m = a.shape()[a.rank() - 1], k = rhs.shape()[rhs.rank() - 1], nb = num_matrices(a.shape());
  for (int64_t b = 0; b < nb && m > 0; ++b) {
    MapC<T> am(a.data<T>() + b * m * m, m, m);
    Eigen::PartialPivLU<Mat<T>> lu = lu_of<T>(am, adjoint);
    if (lu_singular(lu)) throw_error(Code::kInvalidArgument, "Input matrix is not invertible.");
    if (k > 0) Map<T>(out->data<T>() + b * m * k, m, k) = lu.solve(MapC<T>(rhs.data<T>() + b * m * k, m, k));
  }
}

void solve_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, a.dtype(), ic.out_shapes[0], false);
  EF_MATRIX_DISPATCH(a.dtype(), solve<T>(a, *c.input(1), out, c.attrs.get<bool>("adjoint", false)));
}

template <typename T>
void cholesky(const TensorImpl& in, TensorImpl* out) {
  const int64_t m = in.shape()[in.rank() - 1], nb = num_matrices(in.shape());
  for (int64_t b = 0; b < nb && m > 0; ++b) {
    Eigen::LLT<Mat<T>, Eigen::Lower> llt{MapC<T>(in.data<T>() + b * m * m, m, m)};
    Map<T> o(out->data<T>() + b * m * m, m, m);
    if (llt.info() != Eigen::Success) o.setConstant(std::numeric_limits<T>::quiet_NaN());
    else o = llt.matrixL();
  }
}

void cholesky_kernel(KernelContext& c) {
  const TensorImpl& in = *c.input(0);
  infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, in.dtype(), in.shape(), false);
  EF_MATRIX_DISPATCH(in.dtype(), cholesky<T>(in, out));
}

// Offset (in matrices) into an input of batch shape `in` of each batch of the broadcast `out`.
std::vector<int64_t> batch_offsets(const Shape& out, const Shape& in) {
  const int ro = out.rank(), ri = in.rank() - 2;
  int64_t nb = 1;
  for (int i = 0; i < ro; ++i) nb *= out[i];
  std::vector<int64_t> offs(static_cast<size_t>(nb));
  for (int64_t b = 0; b < nb; ++b) {
    int64_t rem = b, off = 0, stride = 1;
    for (int i = ro - 1; i >= 0; --i) {
      const int64_t idx = rem % out[i];
      rem /= out[i];
      const int ii = i - (ro - ri);
      if (ii >= 0) {
        if (in[ii] != 1) off += idx * stride;
        stride *= in[ii];
      }
    }
    offs[b] = off;
  }
  return offs;
}

template <typename T>
void triangular_solve(const TensorImpl& a, const TensorImpl& rhs, TensorImpl* out, bool lower, bool adjoint) {
  const Shape batch = batch_of(out->shape());
  const std::vector<int64_t> ao = batch_offsets(batch, a.shape()), bo = batch_offsets(batch, rhs.shape());
  const int64_t m = a.shape()[a.rank() - 1], k = rhs.shape()[rhs.rank() - 1];
  if (m == 0 || k == 0) return;
  for (size_t b = 0; b < ao.size(); ++b) {
    MapC<T> am(a.data<T>() + ao[b] * m * m, m, m);
    MapC<T> bm(rhs.data<T>() + bo[b] * m * k, m, k);
    Map<T> o(out->data<T>() + b * m * k, m, k);
    if (lower && !adjoint) o = am.template triangularView<Eigen::Lower>().solve(bm);
    else if (lower) o = am.adjoint().template triangularView<Eigen::Upper>().solve(bm);
    else if (!adjoint) o = am.template triangularView<Eigen::Upper>().solve(bm);
    else o = am.adjoint().template triangularView<Eigen::Lower>().solve(bm);
  }
}

void triangular_solve_kernel(KernelContext& c) {
  const TensorImpl& a = *c.input(0);
  InferContext ic = infer_for_kernel(c);
  TensorImpl* out = c.allocate_output(0, a.dtype(), ic.out_shapes[0], false);
  const bool lower = c.attrs.get<bool>("lower", true), adjoint = c.attrs.get<bool>("adjoint", false);
  EF_MATRIX_DISPATCH(a.dtype(), triangular_solve<T>(a, *c.input(1), out, lower, adjoint));
}

EF_REGISTER_CPU_KERNEL("MatrixInverse", inverse_kernel);
EF_REGISTER_CPU_KERNEL("MatrixDeterminant", determinant_kernel);
EF_REGISTER_CPU_KERNEL("LogMatrixDeterminant", log_determinant_kernel);
EF_REGISTER_CPU_KERNEL("MatrixSolve", solve_kernel);
EF_REGISTER_CPU_KERNEL("Cholesky", cholesky_kernel);
EF_REGISTER_CPU_KERNEL("MatrixTriangularSolve", triangular_solve_kernel);

}  // namespace
}  // namespace ef
