"""Dense linear algebra over batches of [..., M, M] matrices: tf.linalg.inv, det, slogdet, solve,
cholesky, triangular_solve (MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, MatrixSolve,
Cholesky, MatrixTriangularSolve)."""
import collections

import numpy as np

from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute, execute1

LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def inv(input, adjoint=False, name=None):  # pylint: disable=redefined-builtin
    """The inverse (of the adjoint, with `adjoint`) of each matrix."""
    return execute1("MatrixInverse", [convert_to_tensor(input)], {"adjoint": bool(adjoint)}, name)


def det(input, name=None):  # pylint: disable=redefined-builtin
    """The determinant of each matrix: shape [...]."""
    return execute1("MatrixDeterminant", [convert_to_tensor(input)], {}, name)


def slogdet(input, name=None):  # pylint: disable=redefined-builtin
    """(sign, log|det|) of each matrix; sign 0 and log|det| -inf for a singular one."""
    sign, log_abs = execute("LogMatrixDeterminant", [convert_to_tensor(input)], {}, name)
    return LogMatrixDeterminant(sign, log_abs)


def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint(matrix) @ X with `adjoint`); batch dims must match."""
    matrix = convert_to_tensor(matrix)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    return execute1("MatrixSolve", [matrix, rhs], {"adjoint": bool(adjoint)}, name)


def cholesky(input, name=None):  # pylint: disable=redefined-builtin
    """The lower-triangular L with L @ adjoint(L) = input, from the input's lower triangle."""
    return execute1("Cholesky", [convert_to_tensor(input)], {}, name)


def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with matrix @ X = rhs for triangular matrices (only the named triangle is read); batch dims
    broadcast."""
    matrix = convert_to_tensor(matrix)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    return execute1("MatrixTriangularSolve", [matrix, rhs], {"lower": bool(lower), "adjoint": bool(adjoint)}, name)


def cholesky_solve(chol, rhs, name=None):
    """X with (chol @ adjoint(chol)) @ X = rhs, from the Cholesky factor `chol`."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True, name=name)


def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swaps the last two dims (and conjugates with `conjugate`)."""
    from eagerflow.ops import array_ops, creation_ops, math_ops  # pylint: disable=import-outside-toplevel
    a = convert_to_tensor(a)
    if a.shape.rank is not None:
        r = a.shape.rank
        if r < 2:
            raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {a} with "
                             f"shape: {a.shape}")
        perm = list(range(r - 2)) + [r - 1, r - 2]
    else:
        r = array_ops.rank(a)
        perm = array_ops.concat([creation_ops.range(r - 2), [r - 1, r - 2]], 0)
    out = array_ops.transpose(a, perm)
    return math_ops.conj(out) if conjugate and a.dtype.is_complex else out


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix."""
    return matrix_transpose(matrix, conjugate=True)


def logdet(matrix, name=None):
    """log(det(matrix)) of Hermitian positive definite matrices, through their Cholesky factor."""
    from eagerflow.ops import math_ops, matrix_diag_ops, reduction_ops  # pylint: disable=import-outside-toplevel
    chol = cholesky(matrix)
    return 2.0 * reduction_ops.reduce_sum(math_ops.log(matrix_diag_ops.diag_part(chol)), axis=[-1])


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse through the SVD; singular values below rcond * max(s) count as 0
    (rcond defaults to 10 * max(M, N) * eps, as TF)."""
    from eagerflow.ops import linalg_ops, math_ops, reduction_ops  # pylint: disable=import-outside-toplevel
    a = convert_to_tensor(a)
    dims = a.shape.as_list()[-2:]
    if rcond is None:
        rcond = 10.0 * max(dims) * float(np.finfo(a.dtype.as_numpy_dtype).eps)
    s, u, v = svd(a, full_matrices=False)
    cutoff = rcond * reduction_ops.reduce_max(s, axis=-1, keepdims=True)
    keep = s > cutoff
    s_inv = math_ops.cast(keep, s.dtype) / (s + math_ops.cast(~keep, s.dtype))
    return linalg_ops.matmul(v * s_inv[..., None, :], u, adjoint_b=True)


Qr = collections.namedtuple("Qr", ["q", "r"])


def eigh(tensor, name=None):
    """(eigenvalues ascending, eigenvectors as columns) of each self-adjoint matrix (its lower
    triangle is read)."""
    e, v = execute("SelfAdjointEigV2", [convert_to_tensor(tensor)], {"compute_v": True}, name)
    return e, v


def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of each self-adjoint matrix."""
    return execute("SelfAdjointEigV2", [convert_to_tensor(tensor)], {"compute_v": False}, name)[0]


def qr(input, full_matrices=False, name=None):  # pylint: disable=redefined-builtin
    """Q (orthonormal columns) and upper-triangular R with Q @ R = input."""
    q, r = execute("Qr", [convert_to_tensor(input)], {"full_matrices": bool(full_matrices)}, name)
    return Qr(q, r)


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """s (descending), and with compute_uv (s, u, v) with u @ diag(s) @ adjoint(v) = tensor."""
    s, u, v = execute("Svd", [convert_to_tensor(tensor)], {"compute_uv": bool(compute_uv),
                                                          "full_matrices": bool(full_matrices)}, name)
    return (s, u, v) if compute_uv else s


def cross(a, b, name=None):
    """Cross products of the 3-vectors along the last axis."""
    a = convert_to_tensor(a)
    b = convert_to_tensor(b, dtype=a.dtype)
    return execute1("Cross", [a, b], {}, name)


def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    from eagerflow.ops import array_ops, creation_ops, linalg_ops  # pylint: disable=import-outside-toplevel
    gramian = linalg_ops.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    if hasattr(l2_regularizer, "dtype") or l2_regularizer != 0:
        shape = array_ops.shape(matrix)
        small = shape[-1] if first_kind else shape[-2]
        gramian += l2_regularizer * creation_ops.eye(small, dtype=matrix.dtype)
    return cholesky(gramian)


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """Least-squares solutions X of matrix @ X ≈ rhs. fast: TF's normal equations through Cholesky
    (with l2_regularizer, the ridge solution); otherwise the minimum-norm solution (through SVD here;
    TF's kernel uses a complete orthogonal decomposition, the same solution)."""
    from eagerflow.framework import dtypes  # pylint: disable=import-outside-toplevel
    from eagerflow.ops import linalg_ops, math_ops, reduction_ops  # pylint: disable=import-outside-toplevel
    matrix = convert_to_tensor(matrix)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    if not fast:
        s, u, v = svd(matrix)
        cutoff = reduction_ops.reduce_max(s, axis=-1, keepdims=True) * (
            max(matrix.shape.as_list()[-2:] or [1]) * float(np.finfo(matrix.dtype.as_numpy_dtype).eps))
        keep = s > cutoff
        s_inv = math_ops.cast(keep, s.dtype) / (s + math_ops.cast(~keep, s.dtype))  # 1/s, 0 below the cutoff
        utb = linalg_ops.matmul(u, rhs, adjoint_a=True) * s_inv[..., :, None]
        return linalg_ops.matmul(v, utb)
    reg = math_ops.cast(convert_to_tensor(l2_regularizer, dtype=dtypes.float64), matrix.dtype)
    rows, cols = matrix.shape.as_list()[-2:] if matrix.shape.rank else (None, None)
    if rows is None or cols is None:
        raise NotImplementedError("tf.linalg.lstsq needs the matrix dimensions known statically in eagerflow.")
    if rows >= cols:
        chol = _regularized_gramian_cholesky(matrix, reg, first_kind=True)
        return cholesky_solve(chol, linalg_ops.matmul(matrix, rhs, adjoint_a=True), name=name)
    chol = _regularized_gramian_cholesky(matrix, reg, first_kind=False)
    return linalg_ops.matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)
