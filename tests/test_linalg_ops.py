"""tf.linalg's dense ops against NumPy: inv, det, slogdet, solve, cholesky, triangular_solve,
band_part, diag, diag_part, set_diag; TF's error classes and messages for bad input."""
import numpy as np
import pytest

import eagerflow as tf

_rng = np.random.default_rng(7)


def _mat(*shape, dtype=np.float64):
    return (_rng.standard_normal(shape) + 3 * np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-4), (np.float64, 1e-10)])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (2, 1, 2, 2), (0, 0), (2, 0, 0)])
def test_square_ops_match_numpy(dtype, tol, shape):
    a = _mat(*shape, dtype=dtype) if shape[-1] else np.zeros(shape, dtype)
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.inv(a, adjoint=True).numpy(), np.linalg.inv(np.swapaxes(a, -1, -2)),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.det(a).numpy(), np.linalg.det(a), rtol=tol, atol=tol)
    sign, logdet = tf.linalg.slogdet(a)
    want_sign, want_log = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign.numpy(), want_sign)
    np.testing.assert_allclose(logdet.numpy(), want_log, rtol=tol, atol=tol)
    assert tf.linalg.det(a).dtype == tf.as_dtype(dtype)
    spd = a @ np.swapaxes(a, -1, -2) + np.eye(shape[-1], dtype=dtype)
    np.testing.assert_allclose(tf.linalg.cholesky(spd).numpy(), np.linalg.cholesky(spd), rtol=tol, atol=tol)


def test_slogdet_is_a_named_tuple_and_singular_values():
    out = tf.linalg.slogdet(np.ones((2, 2), np.float32))
    assert type(out).__name__ == "LogMatrixDeterminant"
    assert out.sign.numpy() == 0 and out.log_abs_determinant.numpy() == -np.inf
    out = tf.linalg.slogdet(np.array([[1., 2], [3, 4]], np.float32))  # values from TF 2.21
    assert out.sign.numpy() == -1.0
    np.testing.assert_allclose(out.log_abs_determinant.numpy(), 0.6931471824645996, rtol=1e-6)
    assert tf.linalg.det(np.ones((2, 2), np.float32)).numpy() == 0.0
    assert tf.linalg.det(np.zeros((3, 0, 0), np.float32)).numpy().tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("adjoint", [False, True])
def test_solve_matches_numpy(adjoint):
    a, b = _mat(2, 3, 3), _rng.standard_normal((2, 3, 4))
    want = np.linalg.solve(np.swapaxes(a, -1, -2) if adjoint else a, b)
    np.testing.assert_allclose(tf.linalg.solve(a, b, adjoint=adjoint).numpy(), want, rtol=1e-10)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_triangular_solve_matches_numpy(lower, adjoint):
    a, b = _mat(2, 3, 3), _rng.standard_normal((3, 2))  # batch dims broadcast
    tri = np.tril(a) if lower else np.triu(a)
    want = np.linalg.solve(np.swapaxes(tri, -1, -2) if adjoint else tri, b)
    got = tf.linalg.triangular_solve(a, b, lower=lower, adjoint=adjoint).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_cholesky_solve():
    a = _mat(3, 3)
    spd = a @ a.T
    b = _rng.standard_normal((3, 2))
    got = tf.linalg.cholesky_solve(tf.linalg.cholesky(spd), b).numpy()
    np.testing.assert_allclose(got, np.linalg.solve(spd, b), rtol=1e-8)


def test_cholesky_of_non_positive_definite_is_nan():
    assert np.isnan(tf.linalg.cholesky(-np.ones((2, 2), np.float32)).numpy()).all()


def _raises(fn, cls, msg):
    with pytest.raises(cls) as e:
        fn()
    assert msg in str(e.value), str(e.value)


def test_bad_input_errors_match_tf():
    err = tf.errors.InvalidArgumentError
    ones = np.ones((2, 3), np.float32)
    _raises(lambda: tf.linalg.inv(ones), err, "Input matrix must be square.")
    _raises(lambda: tf.linalg.inv(np.ones((2, 2), np.float32)), err, "Input is not invertible.")
    _raises(lambda: tf.linalg.inv(np.ones(2, np.float32)), err, "Input tensor 0 must have rank >= 2, got 1")
    _raises(lambda: tf.linalg.inv(np.ones((2, 2), np.int32)), err,
            "Value for attr 'T' of int32 is not in the list of allowed values: double, float, half, complex64, "
            "complex128")
    _raises(lambda: tf.linalg.det(ones), err, "Input matrix must be square.")
    _raises(lambda: tf.linalg.cholesky(ones), err, "Input matrix must be square.")
    _raises(lambda: tf.linalg.solve(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32)), err,
            "Input matrix is not invertible.")
    _raises(lambda: tf.linalg.solve(ones, np.ones((2, 1), np.float32)), err,
            "First input (lhs) must be a square matrix.")
    _raises(lambda: tf.linalg.solve(np.eye(2, dtype=np.float32), np.ones((3, 1), np.float32)), err,
            "Input matrix and rhs are incompatible.")
    _raises(lambda: tf.linalg.triangular_solve(ones, np.ones((2, 1), np.float32)), err,
            "In[0] matrices in the last dimensions must be square (3 =/= 2)")
    _raises(lambda: tf.linalg.triangular_solve(np.eye(2, dtype=np.float32), np.ones((3, 1), np.float32)), err,
            "In[0] mismatch In[1] shape: 2 vs. 3: [2,2] [3,1] 1 0")
    _raises(lambda: tf.linalg.band_part(np.ones(3, np.float32), 0, -1), err,
            "input must be at least 2-dim, received shape: [3]")
    _raises(lambda: tf.linalg.band_part(np.ones((3, 3), np.float32), 5, -1), err,
            "num_lower must be negative or less or equal to number of rows (3) got: 5")
    _raises(lambda: tf.linalg.diag_part(np.ones(3, np.float32)), err,
            "input must be at least 2-dim, received shape: [3]")
    _raises(lambda: tf.linalg.diag(np.float32(1)), err, "diagonal must be at least 1-dim, received shape: []")
    _raises(lambda: tf.linalg.set_diag(ones, np.ones(3, np.float32)), err, "Expected diagonal shape: [2]")


def test_triangular_solve_with_zero_pivot_gives_inf():
    got = tf.linalg.triangular_solve(np.array([[0., 0], [1, 1]], np.float32), np.ones((2, 1), np.float32))
    assert got.numpy().ravel().tolist() == [np.inf, -np.inf]  # as TF 2.21


@pytest.mark.parametrize("lo,up", [(0, -1), (-1, 0), (1, 1), (0, 0), (-1, -1), (2, 0), (3, 4), (3, 1)])
@pytest.mark.parametrize("shape", [(2, 3, 4), (4, 3), (300, 301), (2, 0, 3)])
def test_band_part_matches_numpy(lo, up, shape):
    m, n = shape[-2:]
    if lo > m or up > n:
        return  # an InvalidArgumentError, as TF's
    x = _rng.standard_normal(shape).astype(np.float32)
    i, j = np.arange(m)[:, None], np.arange(n)[None, :]
    mask = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    np.testing.assert_array_equal(tf.linalg.band_part(x, lo, up).numpy(), np.where(mask, x, 0))


@pytest.mark.parametrize("k", [0, 1, -1, 2])
def test_diag_ops_match_numpy(k):
    x = _rng.standard_normal((2, 3, 4))
    part = tf.linalg.diag_part(x, k=k).numpy()
    want = np.stack([np.diagonal(m, offset=k) for m in x])
    np.testing.assert_array_equal(part, want)
    new = _rng.standard_normal(want.shape)
    got = tf.linalg.set_diag(x, new, k=k).numpy()
    expect = x.copy()
    for b in range(2):
        n = want.shape[-1]
        r0, c0 = max(-k, 0), max(k, 0)
        expect[b][np.arange(n) + r0, np.arange(n) + c0] = new[b]
    np.testing.assert_array_equal(got, expect)
    d = _rng.standard_normal(3)
    np.testing.assert_array_equal(tf.linalg.diag(d, k=k).numpy(), np.diag(d, k=k))


def test_diag_int_and_padding():
    got = tf.linalg.diag([[1, 2], [3, 4]], padding_value=9)
    assert got.dtype == tf.int32
    assert got.numpy().tolist() == [[[1, 9], [9, 2]], [[3, 9], [9, 4]]]
    assert tf.linalg.diag([1, 2], num_rows=3, num_cols=2).shape == (3, 2)
    assert tf.linalg.diag_part(np.ones((2, 3), np.float32)).numpy().tolist() == [1.0, 1.0]


def test_in_graph_function():
    @tf.function
    def f(a, b):
        return tf.linalg.solve(a, b), tf.linalg.det(a), tf.linalg.diag_part(a)

    a, b = _mat(3, 3), _rng.standard_normal((3, 1))
    x, d, p = f(a, b)
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), rtol=1e-10)
    np.testing.assert_allclose(d.numpy(), np.linalg.det(a), rtol=1e-10)
    np.testing.assert_array_equal(p.numpy(), np.diagonal(a))


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-4), (np.float64, 1e-10)])
def test_eigh_matches_numpy(dtype, tol):
    a = _rng.standard_normal((2, 4, 4)).astype(dtype)
    a = a + np.swapaxes(a, -1, -2)
    e, v = tf.linalg.eigh(a)
    want_e, _ = np.linalg.eigh(a)
    np.testing.assert_allclose(e.numpy(), want_e, rtol=tol, atol=tol)
    np.testing.assert_allclose(tf.linalg.eigvalsh(a).numpy(), want_e, rtol=tol, atol=tol)
    v = v.numpy()
    np.testing.assert_allclose(v @ (e.numpy()[..., None] * np.swapaxes(v, -1, -2)), a, rtol=10 * tol, atol=10 * tol)
    # Values from TF 2.21 (same signs: both use Eigen's solver).
    e, v = tf.linalg.eigh(np.float32([[2, 1], [1, 3]]))
    np.testing.assert_allclose(e.numpy(), [1.3819659, 3.6180334], rtol=1e-6)
    np.testing.assert_allclose(v.numpy(), [[-0.8506507, -0.52573115], [0.52573115, -0.8506507]], rtol=1e-5)


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (2, 4, 4), (0, 3)])
@pytest.mark.parametrize("full", [False, True])
def test_qr_reconstructs_and_matches_tf(shape, full):
    a = _rng.standard_normal(shape)
    q, r = tf.linalg.qr(a, full_matrices=full)
    want_q, want_r = np.linalg.qr(a, mode="complete" if full else "reduced")
    assert q.shape == want_q.shape and r.shape == want_r.shape
    np.testing.assert_allclose(q.numpy() @ r.numpy(), a, atol=1e-10)
    np.testing.assert_allclose(np.abs(r.numpy()), np.abs(want_r), atol=1e-10)
    np.testing.assert_array_equal(np.tril(r.numpy()[..., 1:, :]), 0 * np.tril(r.numpy()[..., 1:, :]))
    out = tf.linalg.qr(np.float32([[1, 2], [3, 4], [5, 6]]))  # TF 2.21's values
    assert type(out).__name__ == "Qr"
    np.testing.assert_allclose(out.q.numpy(), [[-0.16903079, 0.897085], [-0.5070925, 0.2760267],
                                               [-0.8451542, -0.34503305]], rtol=1e-5)
    np.testing.assert_allclose(out.r.numpy(), [[-5.91608, -7.437357], [0, 0.82807845]], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(3, 2), (2, 3), (2, 4, 4), (3, 0)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_matches_numpy(shape, full):
    a = _rng.standard_normal(shape)
    s, u, v = tf.linalg.svd(a, full_matrices=full)
    want_u, want_s, want_vh = np.linalg.svd(a, full_matrices=full)
    np.testing.assert_allclose(s.numpy(), want_s, atol=1e-10)
    assert u.shape == want_u.shape and v.shape == np.swapaxes(want_vh, -1, -2).shape
    p = s.shape[-1]
    recon = u.numpy()[..., :p] * s.numpy()[..., None, :] @ np.swapaxes(v.numpy()[..., :p], -1, -2)
    np.testing.assert_allclose(recon, a, atol=1e-10)
    np.testing.assert_allclose(tf.linalg.svd(a, compute_uv=False).numpy(), want_s, atol=1e-10)


def test_cross_matches_numpy():
    a, b = _rng.standard_normal((2, 4, 3)), _rng.standard_normal((2, 4, 3))
    np.testing.assert_allclose(tf.linalg.cross(a, b).numpy(), np.cross(a, b), rtol=1e-12)
    assert tf.linalg.cross([1, 2, 3], [4, 5, 6]).numpy().tolist() == [-3, 6, -3]


def test_decomposition_errors_match_tf():
    err = tf.errors.InvalidArgumentError
    _raises(lambda: tf.linalg.eigh(np.ones((2, 3), np.float32)), err, "Input matrix must be square.")
    _raises(lambda: tf.linalg.qr(np.ones(3, np.float32)), err, "Input tensor 0 must have rank >= 2, got 1")
    _raises(lambda: tf.linalg.svd(np.ones(3, np.float32)), err, "Input tensor 0 must have rank >= 2, got 1")
    _raises(lambda: tf.linalg.cross(np.ones(2, np.float32), np.ones(2, np.float32)), tf.errors.FailedPreconditionError,
            "Cross-products are only defined for 3-element vectors.")
    _raises(lambda: tf.linalg.cross(np.ones(3, np.float32), np.ones((2, 3), np.float32)), err,
            "Both inputs must be of same shape: [3] vs. [2,3]")
    _raises(lambda: tf.linalg.solve(np.ones((2, 2, 2), np.float32), np.ones((2, 1), np.float32)), err,
            "All input tensors must have the same rank.")
    _raises(lambda: tf.linalg.solve(np.ones((2, 2, 2), np.float32), np.ones((1, 2, 1), np.float32)), err,
            "All input tensors must have the same outer dimensions.")
    _raises(lambda: tf.linalg.triangular_solve(np.ones((2, 2, 2), np.float32), np.ones((3, 2, 1), np.float32)), err,
            "In[0] and In[1] must have compatible batch dimensions: [2,2,2] vs. [3,2,1]")


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4)])
@pytest.mark.parametrize("fast", [True, False])
def test_lstsq_matches_numpy(shape, fast):
    a = _rng.standard_normal(shape)
    b = _rng.standard_normal(shape[:-1] + (2,))
    got = tf.linalg.lstsq(a, b, fast=fast).numpy()
    if len(shape) == 2:
        np.testing.assert_allclose(got, np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-8)
    else:
        np.testing.assert_allclose(got, np.linalg.solve(a, b), atol=1e-8)


def test_lstsq_values_from_tf():
    a, b = np.float32([[1, 2], [3, 4], [5, 6]]), np.float32([[1], [2], [4]])
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, l2_regularizer=0.5).numpy().ravel(), [0.42293978, 0.2724009],
                               rtol=1e-4)
    np.testing.assert_allclose(tf.linalg.lstsq(a.T, b[:2]).numpy().ravel(), [0.8333241, 0.33333063, -0.16666245],
                               rtol=1e-4)


@pytest.mark.parametrize("shape", [(4, 3), (3, 4)])
def test_lstsq_gradient_numerical(shape):
    a0, b0 = _rng.standard_normal(shape), _rng.standard_normal(shape[:-1] + (2,))
    up = _rng.standard_normal((shape[1], 2))

    def loss(a, b):
        return float(np.sum(up * tf.linalg.lstsq(a, b, l2_regularizer=0.1).numpy()))

    a, b = tf.constant(a0), tf.constant(b0)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = tf.reduce_sum(tf.constant(up) * tf.linalg.lstsq(a, b, l2_regularizer=0.1))
    ga, gb = tape.gradient(y, [a, b])
    eps = 1e-6
    for x0, g, which in ((a0, ga, 0), (b0, gb, 1)):
        num = np.zeros_like(x0)
        for idx in np.ndindex(x0.shape):
            d = np.zeros_like(x0)
            d[idx] = eps
            args_p = (x0 + d, b0) if which == 0 else (a0, x0 + d)
            args_m = (x0 - d, b0) if which == 0 else (a0, x0 - d)
            num[idx] = (loss(*args_p) - loss(*args_m)) / (2 * eps)
        np.testing.assert_allclose(g.numpy(), num, atol=1e-6, rtol=1e-5)


def test_diag_bands_match_tf():
    # Values from TF 2.21.
    x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    assert tf.linalg.diag_part(x, k=(-1, 2)).numpy().tolist() == [[0, 2, 7], [1, 6, 11], [0, 5, 10], [4, 9, 0]]
    assert tf.linalg.diag_part(x, k=(-1, 2), align="LEFT_RIGHT").numpy().tolist() == [
        [2, 7, 0], [1, 6, 11], [0, 5, 10], [0, 4, 9]]
    assert tf.linalg.diag_part(x, k=(1, 1)).shape == (3,)
    assert tf.linalg.diag(np.float32([[1, 2], [3, 4]]), k=(0, 1)).numpy().tolist() == [[3, 2], [0, 4]]
    got = tf.linalg.diag(np.float32([[1, 2, 3], [4, 5, 6]]), k=(-1, 0), num_rows=3, num_cols=3, padding_value=9)
    assert got.numpy().tolist() == [[1, 9, 9], [4, 2, 9], [9, 5, 3]]
    got = tf.linalg.set_diag(np.zeros((3, 4), np.float32), np.float32([[1, 2, 3], [4, 5, 6]]), k=(0, 1))
    assert got.numpy().tolist() == [[4, 1, 0, 0], [0, 5, 2, 0], [0, 0, 6, 3]]
    err = tf.errors.InvalidArgumentError
    _raises(lambda: tf.linalg.diag_part(x, k=(2, 1)), err,
            "lower_diag_index must not be larger than upper_diag_index: 2 > 1")
    _raises(lambda: tf.linalg.diag_part(x, k=(-5, 1)), err, "lower_diag_index is out of bound: -5. It must be "
            "between -3 and 4")
    _raises(lambda: tf.linalg.diag_part(x, k=(0, 1, 2)), err,
            "diag_index must have only one or two elements, received 3 elements.")


def test_pinv_logdet_matrix_transpose():
    a = _rng.standard_normal((2, 4, 3))
    np.testing.assert_allclose(tf.linalg.pinv(a).numpy(), np.linalg.pinv(a), atol=1e-10)
    spd = a @ np.swapaxes(a, -1, -2) + np.eye(4)
    np.testing.assert_allclose(tf.linalg.logdet(spd).numpy(), np.linalg.slogdet(spd)[1], rtol=1e-10)
    assert tf.linalg.logdet(np.float32([[4, 2], [2, 3]])).numpy() == np.float32(2.0794415)  # TF 2.21's value
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(a).numpy(), np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError, match=r"Argument `a` should be a \(batch\) matrix with rank >= 2"):
        tf.linalg.matrix_transpose(np.ones(3, np.float32))
