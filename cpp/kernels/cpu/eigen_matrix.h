// What the matrix kernels share: row-major Eigen views of one matrix of a [..., M, N] batch, the batch
// count, and the float32/float64 dispatch of their kernels.
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/shape.h"

namespace ef {

template <typename T>
using RowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using ConstMatrixMap = Eigen::Map<const RowMajorMatrix<T>>;
template <typename T>
using MatrixMap = Eigen::Map<RowMajorMatrix<T>>;

// The number of matrices in a [..., M, N] batch.
inline int64_t num_matrices(const Shape& s) {
  int64_t n = 1;
  for (int i = 0; i + 2 < s.rank(); ++i) n *= s[i];
  return n;
}

}  // namespace ef

// Runs the statement with T = float or double for DT; other dtypes have no kernel (`c` is the kernel
// context in scope).
#define EF_MATRIX_DISPATCH(DT, ...)                                  \
  switch (DT) {                                                      \
    case DType::kFloat32: { using T = float; __VA_ARGS__; break; }  \
    case DType::kFloat64: { using T = double; __VA_ARGS__; break; } \
    default: throw_no_kernel(c.op, "T", DT);                         \
  }
