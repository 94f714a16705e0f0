"""Numerical checks of the matrix-product gradients (MatMul, BatchMatMulV2: registered by
math_grad.py, as in TF) and of linalg_grad.py's registrations."""
import importlib

import numpy as np
import pytest

from gradient_checker import check_gradients, check_graph

_rng = np.random.default_rng(3)


def f(*shape):
    return _rng.standard_normal(shape)


CASES = [
    ("MatMul", [f(2, 3), f(3, 4)], None),
    ("MatMul", [f(3, 2), f(3, 4)], {"transpose_a": True}),
    ("MatMul", [f(2, 3), f(4, 3)], {"transpose_b": True}),
    ("MatMul", [f(3, 2), f(4, 3)], {"transpose_a": True, "transpose_b": True}),
    ("MatMul", [f(0, 3), f(3, 2)], None),
    ("BatchMatMulV2", [f(2, 2, 3), f(2, 3, 2)], None),
    ("BatchMatMulV2", [f(2, 1, 2, 3), f(3, 3, 2)], None),  # broadcast batch dims
    ("BatchMatMulV2", [f(2, 3, 2), f(2, 4, 3)], {"adj_x": True, "adj_y": True}),
    ("BatchMatMulV2", [f(2, 3), f(2, 3, 2)], None),
]


def test_linalg_grad_module_imports_standalone():
    importlib.import_module("eagerflow.ops.linalg_grad")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_numerical_gradient(case):
    op, inputs, attrs = case
    check_gradients(op, inputs, attrs)
    check_graph(op, inputs, attrs)


def _spd(*batch, n=3):
    a = _rng.standard_normal(batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def _well_conditioned(*shape):
    return _rng.standard_normal(shape) + 3 * np.eye(shape[-1])


DECOMP_CASES = [
    ("MatrixInverse", [_well_conditioned(3, 3)], None),
    ("MatrixInverse", [_well_conditioned(2, 3, 3)], {"adjoint": True}),
    ("MatrixDeterminant", [_well_conditioned(3, 3)], None),
    ("MatrixDeterminant", [_well_conditioned(2, 2, 2)], None),
    ("LogMatrixDeterminant", [_well_conditioned(2, 3, 3)], None),
    ("MatrixSolve", [_well_conditioned(3, 3), f(3, 2)], None),
    ("MatrixSolve", [_well_conditioned(2, 3, 3), f(2, 3, 1)], {"adjoint": True}),
    ("MatrixTriangularSolve", [_well_conditioned(3, 3), f(3, 2)], {"lower": True}),
    ("MatrixTriangularSolve", [_well_conditioned(3, 3), f(3, 2)], {"lower": False, "adjoint": True}),
    ("MatrixTriangularSolve", [_well_conditioned(2, 3, 3), f(3, 2)], {"lower": True, "adjoint": True}),
    ("MatrixTriangularSolve", [_well_conditioned(3, 3), f(2, 3, 2)], {"lower": False}),
]


@pytest.mark.parametrize("case", DECOMP_CASES, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_decomposition_numerical_gradient(case):
    op, inputs, attrs = case
    check_gradients(op, inputs, attrs, atol=1e-5, rtol=1e-5)
    check_graph(op, inputs, attrs)


K0 = np.array(0, np.int32)
DIAG_CASES = [
    ("MatrixBandPart", [f(2, 3, 4), np.int64(1), np.int64(0)], None),
    ("MatrixBandPart", [f(4, 3), np.int64(-1), np.int64(1)], None),
    ("MatrixDiagPartV3", [f(2, 3, 4), K0, np.float64(0)], None),
    ("MatrixDiagPartV3", [f(3, 4), np.array(1, np.int32), np.float64(0)], None),
    ("MatrixDiagV3", [f(2, 3), K0, np.array(-1, np.int32), np.array(-1, np.int32), np.float64(0)], None),
    ("MatrixDiagV3", [f(3), np.array(-1, np.int32), np.array(-1, np.int32), np.array(-1, np.int32),
                      np.float64(0)], None),
    ("MatrixSetDiagV3", [f(2, 3, 4), f(2, 3), K0], None),
    ("MatrixSetDiagV3", [f(3, 4), f(3), np.array(1, np.int32)], None),
    ("MatrixDiagPartV3", [f(2, 3, 4), np.array([-1, 2], np.int32), np.float64(0)], {"align": "LEFT_RIGHT"}),
    ("MatrixDiagV3", [f(2, 2, 3), np.array([-1, 0], np.int32), np.array(-1, np.int32), np.array(-1, np.int32),
                      np.float64(0)], None),
    ("MatrixSetDiagV3", [f(3, 4), f(2, 3), np.array([0, 1], np.int32)], None),
]


@pytest.mark.parametrize("case", DIAG_CASES, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_band_and_diag_numerical_gradient(case):
    op, inputs, attrs = case
    wrt = [0, 1] if op == "MatrixSetDiagV3" else [0]
    check_gradients(op, inputs, attrs, wrt=wrt)
    check_graph(op, inputs, attrs, wrt=wrt)


def test_cholesky_gradient_of_symmetric_input():
    # Cholesky reads one triangle, and its gradient is symmetrized (as TF's): check it through
    # A -> cholesky((A + A^T) / 2), whose Jacobian is well defined.
    import eagerflow as tf

    a0 = _spd(2)

    def fn(a):
        a = tf.constant(a) if not isinstance(a, tf.Tensor) else a
        return tf.linalg.cholesky((a + tf.linalg.adjoint(a)) / 2)

    x = tf.constant(a0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    up = _rng.standard_normal(y.shape)
    got = tape.gradient(y, x, output_gradients=tf.constant(up)).numpy()
    num = np.zeros_like(a0)
    eps = 1e-6
    for idx in np.ndindex(a0.shape):
        d = np.zeros_like(a0)
        d[idx] = eps
        num[idx] = np.sum(up * (fn(a0 + d).numpy() - fn(a0 - d).numpy())) / (2 * eps)
    np.testing.assert_allclose(got, num, atol=1e-6, rtol=1e-5)


def _sym(*batch, n=3):
    a = _rng.standard_normal(batch + (n, n))
    return a + np.swapaxes(a, -1, -2) + np.diag(np.arange(n) * 3.0)  # well separated eigenvalues


@pytest.mark.parametrize("a,attrs", [(_sym(), {"compute_v": True}), (_sym(2), {"compute_v": True}),
                                     (_sym(), {"compute_v": False})])
def test_self_adjoint_eig_numerical_gradient(a, attrs):
    check_gradients("SelfAdjointEigV2", [a], attrs, atol=1e-5, rtol=1e-5)
    check_graph("SelfAdjointEigV2", [a], attrs)


@pytest.mark.parametrize("shape,full", [((3, 3), False), ((4, 2), False), ((2, 4), False), ((2, 3, 2), False),
                                        ((3, 3), True), ((2, 3), True)])
def test_qr_numerical_gradient(shape, full):
    a = f(*shape)
    check_gradients("Qr", [a], {"full_matrices": full}, atol=1e-5, rtol=1e-5)
    check_graph("Qr", [a], {"full_matrices": full}, unknown_dims=False)


@pytest.mark.parametrize("shape,attrs", [((3, 3), {}), ((4, 2), {}), ((2, 4), {}), ((2, 3, 2), {}),
                                         ((3, 2), {"compute_uv": False}), ((3, 2), {"full_matrices": True}),
                                         ((2, 3), {"full_matrices": True})])
def test_svd_numerical_gradient(shape, attrs):
    a = f(*shape)
    check_gradients("Svd", [a], attrs, atol=1e-5, rtol=1e-5)
    check_graph("Svd", [a], attrs, unknown_dims=False)


def test_qr_gradient_needs_static_dims():
    import eagerflow as tf

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)])
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            q, _ = tf.linalg.qr(x)
        return tape.gradient(q, x)

    with pytest.raises(NotImplementedError, match="QrGrad not implemented with dynamic shapes"):
        grad(f(3, 2))


CROSS = [("Cross", [f(2, 3), f(2, 3)], None)]


@pytest.mark.parametrize("case", CROSS, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_cross_numerical_gradient(case):
    op, inputs, attrs = case
    check_gradients(op, inputs, attrs)
    check_graph(op, inputs, attrs)
