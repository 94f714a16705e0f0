"""Gradients of the linear-algebra ops (importing this module registers them), as TF's
linalg_grad.py. MatMul and BatchMatMulV2 register theirs with the other math gradients in
math_grad.py (as in TF)."""
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops import array_ops, creation_ops, linalg_ops, math_ops
from eagerflow.ops import matrix_diag_ops, matrix_ops
from eagerflow.ops.math_grad import _attr, _reduce_to


def _expand2(x):
    return array_ops.expand_dims(array_ops.expand_dims(x, -1), -1)


@RegisterGradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    adj = bool(_attr(op, "adjoint", False))
    inner = linalg_ops.matmul(grad, ainv, adjoint_a=adj, adjoint_b=not adj)
    return [-linalg_ops.matmul(ainv, inner, adjoint_a=not adj)]


@RegisterGradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    return [_expand2(grad * c) * matrix_ops.inv(a, adjoint=True)]


@RegisterGradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
    # The sign is piecewise constant: only log|det| carries a gradient.
    if grad_b is None:
        return [creation_ops.zeros_like(op.inputs[0])]
    return [_expand2(grad_b) * matrix_ops.inv(op.inputs[0], adjoint=True)]


@RegisterGradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adj = bool(_attr(op, "adjoint", False))
    grad_b = matrix_ops.solve(a, grad, adjoint=not adj)
    if adj:
        grad_a = -linalg_ops.matmul(c, grad_b, adjoint_b=True)
    else:
        grad_a = -linalg_ops.matmul(grad_b, c, adjoint_b=True)
    return [grad_a, grad_b]


@RegisterGradient("Cholesky")
def _cholesky_grad(op, grad):
    # Murray's formula (arXiv:1602.07527) as TF: Phi(L^H grad) pulled back through L^-1, symmetrized.
    l = op.outputs[0]
    n = array_ops.shape(l)[-1]
    l_inverse = matrix_ops.triangular_solve(l, creation_ops.eye(n, dtype=l.dtype))
    middle = linalg_ops.matmul(l, grad, adjoint_a=True)
    middle = matrix_diag_ops.set_diag(middle, 0.5 * matrix_diag_ops.diag_part(middle))
    middle = matrix_diag_ops.band_part(middle, -1, 0)
    grad_a = linalg_ops.matmul(linalg_ops.matmul(l_inverse, middle, adjoint_a=True), l_inverse)
    grad_a += matrix_ops.adjoint(grad_a)
    return [grad_a * 0.5]


@RegisterGradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
    a, b = op.inputs
    c = op.outputs[0]
    adj, lower = bool(_attr(op, "adjoint", False)), bool(_attr(op, "lower", True))
    grad_b = matrix_ops.triangular_solve(a, grad, lower=lower, adjoint=not adj)
    if adj:
        grad_a = -linalg_ops.matmul(c, grad_b, adjoint_b=True)
    else:
        grad_a = -linalg_ops.matmul(grad_b, c, adjoint_b=True)
    grad_a = matrix_diag_ops.band_part(grad_a, -1, 0) if lower else matrix_diag_ops.band_part(grad_a, 0, -1)
    # Batch dims broadcast: sum each gradient back to its input's batch shape.
    return [_reduce_to(grad_a, a), _reduce_to(grad_b, b)]


@RegisterGradient("MatrixBandPart")
def _matrix_band_part_grad(op, grad):
    return [matrix_diag_ops.band_part(grad, op.inputs[1], op.inputs[2]), None, None]


def _align(op):
    return _attr(op, "align", "RIGHT_LEFT")


@RegisterGradient("MatrixDiagV3")
def _matrix_diag_grad(op, grad):
    return [matrix_diag_ops.diag_part(grad, k=op.inputs[1], align=_align(op)), None, None, None, None]


@RegisterGradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, grad):
    x = op.inputs[0]
    return [matrix_diag_ops.set_diag(creation_ops.zeros_like(x), grad, k=op.inputs[1], align=_align(op)), None, None]


@RegisterGradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, grad):
    k, d = op.inputs[2], op.inputs[1]
    return [matrix_diag_ops.set_diag(grad, creation_ops.zeros_like(d), k=k, align=_align(op)),
            matrix_diag_ops.diag_part(grad, k=k, align=_align(op)), None]


def _safe_reciprocal(x, epsilon=1e-20):
    return x * math_ops.reciprocal(x * x + epsilon)


@RegisterGradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if grad_e is None:
        grad_e = creation_ops.zeros_like(e)
    if bool(_attr(op, "compute_v", True)):
        v = op.outputs[1]
        # f[i, j] = 1 / (e_j - e_i) off the diagonal, 0 on it.
        f = matrix_diag_ops.set_diag(
            _safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
            creation_ops.zeros_like(e))
        inner = matrix_diag_ops.diag(grad_e)
        if grad_v is not None:
            inner = inner + f * linalg_ops.matmul(v, grad_v, adjoint_a=True)
        grad_a = linalg_ops.matmul(v, linalg_ops.matmul(inner, v, adjoint_b=True))
    else:
        _, v = matrix_ops.eigh(op.inputs[0])
        grad_a = linalg_ops.matmul(v, linalg_ops.matmul(matrix_diag_ops.diag(grad_e), v, adjoint_b=True))
    # The op reads the lower triangle only: symmetrize and keep that triangle.
    grad_a = matrix_diag_ops.band_part(grad_a + matrix_ops.adjoint(grad_a), -1, 0)
    return [matrix_diag_ops.set_diag(grad_a, 0.5 * matrix_diag_ops.diag_part(grad_a))]


def _static_dims(t):
    dims = t.shape.as_list() if t.shape.rank is not None else None
    if dims is None or dims[-2] is None or dims[-1] is None:
        raise NotImplementedError("QrGrad not implemented with dynamic shapes. Received r.shape: " + str(t.shape))
    return dims[-2], dims[-1]


@RegisterGradient("Qr")
def _qr_grad(op, dq, dr):
    q, r = op.outputs
    if dq is None:
        dq = creation_ops.zeros_like(q)
    if dr is None:
        dr = creation_ops.zeros_like(r)
    r_rows, num_cols = _static_dims(r)
    num_rows, q_cols = _static_dims(q)
    if r_rows > num_cols and num_rows == q_cols:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. Received "
                                  f"r.shape={r.shape} with nrows={r_rows}and ncols={num_cols}.")

    def tri_solve(x, r):
        # x @ adjoint(inverse(r)) for upper-triangular r.
        return matrix_ops.adjoint(matrix_ops.triangular_solve(r, matrix_ops.adjoint(x), lower=False, adjoint=False))

    def square_and_deep(q, r, dq, dr):
        qdq = linalg_ops.matmul(q, dq, adjoint_a=True)
        qdq_ = qdq - matrix_ops.adjoint(qdq)
        rdr = linalg_ops.matmul(r, dr, adjoint_b=True)
        rdr_ = rdr - matrix_ops.adjoint(rdr)
        tril = matrix_diag_ops.band_part(qdq_ + rdr_, -1, 0)
        grad_a = linalg_ops.matmul(q, dr + tri_solve(tril, r))
        grad_b = tri_solve(dq - linalg_ops.matmul(q, qdq), r)
        return grad_a + grad_b

    if num_rows >= num_cols:
        return [square_and_deep(q, r, dq, dr)]
    # A wide matrix a = [x, y], r = [u, v]: the square case for x, and dy = q @ dv.
    a = op.inputs[0]
    y = a[..., :, num_rows:]
    u = r[..., :, :num_rows]
    dv = dr[..., :, num_rows:]
    du = dr[..., :, :num_rows]
    dy = linalg_ops.matmul(q, dv)
    dx = square_and_deep(q, u, dq + linalg_ops.matmul(y, dv, adjoint_b=True), du)
    return [array_ops.concat([dx, dy], axis=-1)]


@RegisterGradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    # TF's formula (J. Townsend, "Differentiating the singular value decomposition").
    a = op.inputs[0]
    s, u, v = op.outputs
    if grad_s is None:
        grad_s = creation_ops.zeros_like(s)
    grad_s_mat = matrix_diag_ops.diag(grad_s)
    if not bool(_attr(op, "compute_uv", True)):
        _, u, v = matrix_ops.svd(a, compute_uv=True)
        return [linalg_ops.matmul(u, linalg_ops.matmul(grad_s_mat, v, adjoint_b=True))]
    full_matrices = bool(_attr(op, "full_matrices", False))
    dims = a.shape.as_list() if a.shape.rank is not None else [None, None]
    m, n = dims[-2], dims[-1]
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix shape.")
    grad_u = creation_ops.zeros_like(u) if grad_u is None else grad_u
    grad_v = creation_ops.zeros_like(v) if grad_v is None else grad_v
    use_adjoint = m > n
    if use_adjoint:  # the gradient of adjoint(a) = v s adjoint(u), transposed at the end
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True")
    s_mat = matrix_diag_ops.diag(s)
    s_2 = math_ops.square(s)
    f = matrix_diag_ops.set_diag(_safe_reciprocal(array_ops.expand_dims(s_2, -2) - array_ops.expand_dims(s_2, -1)),
                                 creation_ops.zeros_like(s))
    s_inv_mat = matrix_diag_ops.diag(_safe_reciprocal(s))
    v1 = v[..., :, :m]
    grad_v1 = grad_v[..., :, :m]
    f_u = f * linalg_ops.matmul(u, grad_u, adjoint_a=True)
    f_v = f * linalg_ops.matmul(v1, grad_v1, adjoint_a=True)
    term1_nouv = (grad_s_mat + linalg_ops.matmul(f_u + matrix_ops.adjoint(f_u), s_mat) +
                  linalg_ops.matmul(s_mat, f_v + matrix_ops.adjoint(f_v)))
    grad_a = linalg_ops.matmul(u, linalg_ops.matmul(term1_nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = matrix_ops.adjoint(grad_v1)
        term2_nous = gv1t - linalg_ops.matmul(linalg_ops.matmul(gv1t, v1), v1, adjoint_b=True)
        if full_matrices:
            v2 = v[..., :, m:n]
            grad_v2 = grad_v[..., :, m:n]
            term2_nous -= linalg_ops.matmul(linalg_ops.matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
        grad_a = grad_a + linalg_ops.matmul(linalg_ops.matmul(u, s_inv_mat), term2_nous)
    return [matrix_ops.adjoint(grad_a) if use_adjoint else grad_a]


@RegisterGradient("Cross")
def _cross_grad(op, grad):
    u, v = op.inputs
    return [matrix_ops.cross(v, grad), matrix_ops.cross(grad, u)]
