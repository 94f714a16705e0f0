// Shape and dtype rules for MatMul / BatchMatMulV2, shared by the op definitions and kernels.
#pragma once
#include "ops/op_util.h"

namespace ef {

// MatMul's dtypes: half, float, double, int32, int64, complex64; then both inputs alike.
void check_matmul_type(const OpDef& op, DType t);
void check_type_pair(const OpDef& op, DType a, DType b);
// [M, N] of op(a) @ op(b) for rank-2 a, b, with TF's messages for bad ranks/sizes.
Shape matmul_output_shape(const OpDef& op, const Shape& a, const Shape& b, bool ta, bool tb);
// Broadcast batch dims + [M, N] for BatchMatMulV2.
Shape batch_matmul_shape(const Shape& x, const Shape& y, bool adj_x, bool adj_y);

// _FusedMatMul's fused_ops: true for [BiasAdd, Relu], false for [BiasAdd]; anything else is
// UnimplementedError.
bool fused_matmul_relu(const Attrs& attrs);

}  // namespace ef
