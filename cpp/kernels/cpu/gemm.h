// Batched matrix products (the BLAS or Eigen's GEMM, split across threads by rows, columns or batches).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/dtype.h"

namespace ef {

// c[M, N] = op(a) @ op(b) per batch; a is stored row-major as [M, K] ([K, M] when ta), b as
// [K, N] ([N, K] when tb); ca/cb conjugate (complex adjoint).
struct MatDims {
  int64_t M, N, K;
  bool ta, tb, ca, cb;
};

// Runs every batch's product; x_off/y_off give each output batch's input matrices (broadcast).
// Instantiated for float, double, complex64, complex128 and uint32/uint64 (wrapping integer products).
template <typename S>
void batch_gemm(const S* x, const S* y, S* out, const std::vector<int64_t>& x_off, const std::vector<int64_t>& y_off,
                const MatDims& d);

// A block [r0, r1) x [c0, c1) of a product's output, handed to a GEMM epilogue.
using GemmEpilogue = std::function<void(int64_t r0, int64_t r1, int64_t c0, int64_t c1)>;

// One float product (d.ca/d.cb unused) split across threads exactly as batch_gemm splits it, so
// the products are the same bits; `epilogue` then runs on each thread's block of `out` right after
// that block's product, while the block is still in cache (MatMul + BiasAdd + Relu as one pass).
void gemm_f32_epilogue(const float* x, const float* y, float* out, const MatDims& d, const GemmEpilogue& epilogue);

// out[M, N] += alpha * op(x) @ op(y) for float and double (d.ca/d.cb unused): one BLAS call per
// thread's block with beta = 1, so the product is added into `out` as it leaves the GEMM's
// registers, with no temporary and no separate pass (the SGD update W -= lr * op(x) @ op(y)).
template <typename S>
void gemm_accumulate(const S* x, const S* y, S* out, const MatDims& d, S alpha);

}  // namespace ef
