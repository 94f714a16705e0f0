"""Dense linear algebra over batches of [..., M, M] matrices: tf.linalg.inv, det, slogdet, solve,
cholesky, triangular_solve (MatrixInverse, MatrixDeterminant, LogMatrixDeterminant, MatrixSolve,
Cholesky, MatrixTriangularSolve)."""
import collections

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


def adjoint(matrix, name=None):
    """The conjugate transpose of each matrix."""
    from eagerflow.ops import array_ops, creation_ops, math_ops  # pylint: disable=import-outside-toplevel
    matrix = convert_to_tensor(matrix)
    if matrix.shape.rank is not None:
        r = matrix.shape.rank
        perm = list(range(r - 2)) + [r - 1, r - 2]
    else:
        r = array_ops.rank(matrix)
        perm = array_ops.concat([creation_ops.range(r - 2), [r - 1, r - 2]], 0)
    out = array_ops.transpose(matrix, perm)
    return math_ops.conj(out) if matrix.dtype.is_complex else out


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
