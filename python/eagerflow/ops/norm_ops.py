"""tf.norm / tf.linalg.norm (vector p-norms, the Frobenius, 1- and inf- matrix norms), tf.linalg.trace and
tf.linalg.matvec, composed from ops as TF composes them."""
import numpy as np

from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, linalg_ops, math_ops, matrix_diag_ops, reduction_ops

_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]


def _ord_text(ord):  # pylint: disable=redefined-builtin
    return "inf" if ord is np.inf or ord == np.inf else ord


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # pylint: disable=redefined-builtin
    """The `ord` norm of `tensor` over `axis`: None (all of it as a vector), an axis (vectors along it) or
    two axes (matrices)."""
    if isinstance(axis, (tuple, list)) and len(axis) == 1:
        axis = axis[0]
    is_matrix = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix:
        if axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if ord not in _MATRIX_NORMS:
            raise ValueError(f"'ord' must be a supported matrix norm in {[_ord_text(o) for o in _MATRIX_NORMS]}, "
                             f"got {_ord_text(ord)}".replace("'inf'", "inf"))
    else:
        if not (axis is None or isinstance(axis, (int, np.integer))):
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if not ((isinstance(ord, (int, float)) and not isinstance(ord, bool) and ord > 0) or ord == "euclidean"):
            raise ValueError(f"'ord' must be a supported vector norm, got {_ord_text(ord)}")
    x = convert_to_tensor(tensor)
    if x.dtype.is_complex:
        x = math_ops.abs(x)
    if is_matrix:
        rank = x.shape.rank
        rows, cols = (int(a) % rank for a in axis)
        if ord in ("euclidean", "fro"):
            result = math_ops.sqrt(reduction_ops.reduce_sum(x * x, axis=[rows, cols], keepdims=True))
        elif ord == 2:
            raise NotImplementedError("tf.norm with ord=2 over matrices needs singular values (tf.linalg.svd), "
                                      "which eagerflow does not have yet.")
        else:
            sum_axis, max_axis = (rows, cols) if ord == 1 else (cols, rows)
            result = reduction_ops.reduce_max(reduction_ops.reduce_sum(math_ops.abs(x), axis=sum_axis,
                                                                       keepdims=True), axis=max_axis, keepdims=True)
        if not keepdims:
            result = array_ops.squeeze(result, axis=sorted([rows, cols]))
        return result
    if ord == "euclidean" or ord == 2:
        result = math_ops.sqrt(reduction_ops.reduce_sum(x * x, axis=axis, keepdims=True))
    elif ord == np.inf:
        result = reduction_ops.reduce_max(math_ops.abs(x), axis=axis, keepdims=True)
    elif ord == 1:
        result = reduction_ops.reduce_sum(math_ops.abs(x), axis=axis, keepdims=True)
    else:
        p = math_ops.cast(ord, x.dtype)
        result = math_ops.pow(reduction_ops.reduce_sum(math_ops.pow(math_ops.abs(x), p), axis=axis, keepdims=True),
                              1.0 / p)
    if not keepdims:
        result = array_ops.squeeze(result, axis=None if axis is None else [axis])
        if axis is None:
            result = array_ops.reshape(result, [])
    return result


def trace(x, name=None):
    """Sum of the main diagonal of each innermost matrix."""
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {x.shape.rank}")
    return reduction_ops.reduce_sum(matrix_diag_ops.diag_part(x), axis=-1)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b for matrices a [..., M, N] and vectors b [..., N]."""
    b = array_ops.expand_dims(convert_to_tensor(b), -1)
    return array_ops.squeeze(linalg_ops.matmul(a, b, transpose_a=transpose_a, adjoint_a=adjoint_a), axis=[-1])
