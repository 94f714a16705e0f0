"""Gradients of the SparseTensor kernels (importing this module registers them): the values and
the dense operand get gradients, indices and shapes none."""
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops import math_ops
from eagerflow.ops._execute import execute, execute1


@RegisterGradient("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    indices, _, values, _ = op.inputs
    ids = indices
    r = u.rank(indices)
    if r is not None and r < 2:  # a scalar or vector of single-dim indices
        ids = execute1("Reshape", [indices, u.const([-1, 1])])
    values_grad = execute1("GatherNd", [grad, ids])
    total = execute1("Sum", [execute1("Reshape", [grad, u.const([-1])]), u.const([0])], {"keep_dims": False})
    picked = execute1("Sum", [values_grad, u.const([0])], {"keep_dims": False})
    if u.rank(values) == 0:
        values_grad = picked
    return [None, None, values_grad, execute1("Sub", [total, picked])]


@RegisterGradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, grad):
    """out = A @ B (A^H and B^H under the adjoint flags): dB = A^H grad, dA[i, j] = grad[i] . conj(B[j])
    over the stored positions only."""
    indices, values, shape, b = op.inputs
    adj_a, adj_b = bool(u.attr(op, "adjoint_a", False)), bool(u.attr(op, "adjoint_b", False))
    b_grad = execute1("SparseTensorDenseMatMul", [indices, values, shape, grad],
                      {"adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = math_ops.conj(execute1("Transpose", [b_grad, u.const([1, 0])]))
    rows = execute1("GatherV2", [indices, u.const(0), u.const(1)])
    cols = execute1("GatherV2", [indices, u.const(1), u.const(1)])
    bm = math_ops.conj(execute1("Transpose", [b, u.const([1, 0])])) if adj_b else b
    parts_a = execute1("GatherV2", [grad, cols if adj_a else rows, u.const(0)])
    parts_b = execute1("GatherV2", [bm, rows if adj_a else cols, u.const(0)])
    values_grad = execute1("Sum", [execute1("Mul", [parts_a, math_ops.conj(parts_b)]), u.const(1)],
                           {"keep_dims": False})
    if adj_a:
        values_grad = math_ops.conj(values_grad)
    return [None, values_grad, None, b_grad]


@RegisterGradient("SparseReorder")
def _sparse_reorder_grad(op, _indices_grad, values_grad):
    """The values' gradient moved back through the sort (its inverse permutation)."""
    if values_grad is None:
        return [None, None, None]
    indices, _, shape = op.inputs
    n = execute1("GatherV2", [execute1("Shape", [indices], {"out_type": dtypes.int32}), u.const(0), u.const(0)])
    entries = execute1("Range", [u.const(0), n, u.const(1)])
    _, order = execute("SparseReorder", [indices, entries, shape])
    inverse = execute1("InvertPermutation", [order])
    return [None, execute1("GatherV2", [values_grad, inverse, u.const(0)]), None]
