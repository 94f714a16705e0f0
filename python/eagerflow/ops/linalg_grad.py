"""Gradients of the linear-algebra ops (importing this module registers them).

The registry has no linalg ops beyond MatMul and BatchMatMulV2, whose gradients live with the
other math gradients in math_grad.py (as in TF). Gradients of MatrixInverse, MatrixDeterminant,
Cholesky, Einsum, ... go here when those ops are added."""
