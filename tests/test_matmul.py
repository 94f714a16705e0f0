"""tf.matmul (MatMul / BatchMatMulV2) and tf.nn.softmax / log_softmax against NumPy."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops import _execute

DTYPES = [np.float16, np.float32, np.float64, np.int32, np.int64, np.complex64]
TOL = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-12, np.complex64: 1e-5}


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-9, 10, size=shape).astype(dtype)
    if dtype == np.complex64:
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def close(got, want, dtype):
    assert got.dtype.as_numpy_dtype == dtype
    assert got.shape == want.shape, (got.shape, want.shape)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got.numpy(), want)
    else:
        ref = want.astype(np.float32) if dtype == np.float16 else want
        np.testing.assert_allclose(got.numpy(), ref, rtol=TOL[dtype], atol=TOL[dtype] * 10)


def op_t(x, adjoint):
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if adjoint else x


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_2d_vs_numpy(dtype):
    for m, k, n in [(2, 3, 4), (1, 1, 1), (5, 1, 3), (17, 33, 9), (64, 70, 80)]:
        for ta in (False, True):
            for tb in (False, True):
                a = sample((k, m) if ta else (m, k), dtype, m)
                b = sample((n, k) if tb else (k, n), dtype, n)
                want = np.matmul(a.T if ta else a, b.T if tb else b)
                if dtype == np.float16:
                    want = np.matmul((a.T if ta else a).astype(np.float32), (b.T if tb else b).astype(np.float32))
                close(tf.matmul(a, b, transpose_a=ta, transpose_b=tb), want, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_batch_matmul_broadcast_vs_numpy(dtype):
    shapes = [((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)),
              ((1, 3, 4), (6, 4, 2)), ((0, 3, 4), (4, 1, 4, 2)), ((2, 0, 4), (2, 4, 3)), ((2, 3, 0), (2, 0, 3))]
    for i, (sa, sb) in enumerate(shapes):
        a, b = sample(sa, dtype, i), sample(sb, dtype, i + 50)
        want = np.matmul(a.astype(np.float32), b.astype(np.float32)) if dtype == np.float16 else np.matmul(a, b)
        close(tf.matmul(a, b), want, dtype)
    for adj_x in (False, True):
        for adj_y in (False, True):
            a = sample((3, 4, 2) if adj_x else (3, 2, 4), dtype, 1)
            b = sample((3, 5, 4) if adj_y else (3, 4, 5), dtype, 2)
            got = _execute.execute1("BatchMatMulV2", [tf.constant(a), tf.constant(b)], {"adj_x": adj_x, "adj_y": adj_y})
            aa, bb = (op_t(a, True) if adj_x else a), (op_t(b, True) if adj_y else b)
            want = np.matmul(aa.astype(np.float32), bb.astype(np.float32)) if dtype == np.float16 else np.matmul(aa, bb)
            close(got, want, dtype)


def test_adjoint_complex():
    a, b = sample((3, 2), np.complex64, 1), sample((4, 3), np.complex64, 2)
    close(tf.matmul(a, b, adjoint_a=True, adjoint_b=True), np.conj(a.T) @ np.conj(b.T), np.complex64)
    close(tf.matmul(a, b, transpose_a=True, transpose_b=True), a.T @ b.T, np.complex64)
    close(tf.linalg.matmul(a, b.T, adjoint_a=True), np.conj(a.T) @ b.T, np.complex64)
    ab, bb = sample((2, 3, 2), np.complex64, 3), sample((2, 3, 4), np.complex64, 4)
    close(tf.matmul(ab, bb, adjoint_a=True), np.matmul(op_t(ab, True), bb), np.complex64)
    # Real adjoint is a transpose.
    x = sample((3, 2), np.float32)
    close(tf.matmul(x, x, adjoint_a=True), x.T @ x, np.float32)
    assert tf.matmul([[1 + 1j]], [[1 + 1j]], adjoint_a=True).numpy()[0, 0] == 2


def test_large_and_many_small_products():
    a, b = sample((300, 400), np.float32, 1), sample((400, 500), np.float32, 2)
    close(tf.matmul(a, b), a @ b, np.float32)  # parallel over rows
    close(tf.matmul(a[:40], b), a[:40] @ b, np.float32)  # parallel over columns (M < N)
    close(tf.matmul(b, a, transpose_a=True, transpose_b=True), b.T @ a.T, np.float32)
    x, y = sample((2000, 4, 3), np.float64, 3), sample((2000, 3, 5), np.float64, 4)
    close(tf.matmul(x, y), np.matmul(x, y), np.float64)  # parallel over batches
    x, y = sample((2, 200, 300), np.float32, 5), sample((300, 100), np.float32, 6)
    close(tf.matmul(x, y), np.matmul(x, y), np.float32)  # few big batches, broadcast y


def test_integer_overflow_wraps():
    r = tf.matmul(np.array([[2**30, 2**30]], np.int32), np.array([[4], [4]], np.int32))
    assert r.numpy()[0, 0] == 0
    r = tf.matmul(np.array([[2**62]], np.int64), np.array([[2]], np.int64))
    assert r.numpy()[0, 0] == -2**63
    r = tf.matmul(np.array([[2**31 - 1, 1]], np.int32), np.array([[1], [1]], np.int32))
    assert r.numpy()[0, 0] == -2**31


def test_empty_and_python_inputs():
    assert tf.matmul(np.ones([0, 3], np.float32), np.ones([3, 0], np.float32)).shape == (0, 0)
    np.testing.assert_array_equal(tf.matmul(np.ones([2, 0], np.float32), np.ones([0, 4], np.float32)).numpy(),
                                  np.zeros([2, 4]))
    r = tf.matmul([[1, 2]], [[3], [4]])
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[11]]
    r = tf.matmul(np.ones([2, 2], np.int8), np.ones([2, 2], np.int8), output_type=tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[2, 2], [2, 2]]


def test_matmul_errors():
    f = np.ones([2, 3], np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\] \[Op:MatMul\]"):
        tf.matmul(f, f)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Matrix size-incompatible: In\[0\]: \[2,3,2\], In\[1\]: \[2,3,2\] \[Op:BatchMatMulV2\]"):
        tf.matmul(np.ones([2, 3, 2], np.float32), np.ones([2, 3, 2], np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] and In\[1\] has different ndims: \[3\] vs. \[3,2\]"):
        tf.matmul(np.ones([3], np.float32), np.ones([3, 2], np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] and In\[1\] ndims must be == 2: 1"):
        tf.matmul(np.ones([3], np.float32), np.ones([3], np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] ndims must be >= 2: 1"):
        _execute.execute1("BatchMatMulV2", [tf.constant([1.0]), tf.constant([[1.0]])], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[1\] ndims must be >= 2: 1"):
        tf.matmul(np.ones([2, 3, 2], np.float32), np.ones([2], np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"must have compatible batch dimensions: \[2,3,2\] vs. \[3,2,2\]"):
        tf.matmul(np.ones([2, 3, 2], np.float32), np.ones([3, 2, 2], np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute MatMul as input #1\(zero-based\) was expected to be a float tensor but is a double"):
        tf.matmul(tf.constant(f), tf.constant(np.ones([3, 2], np.float64)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int8 is not in the list"):
        tf.matmul(np.ones([2, 2], np.int8), np.ones([2, 2], np.int8))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
        tf.matmul(np.ones([2, 2], bool), np.ones([2, 2], bool))
    with pytest.raises(ValueError, match="Only one of `transpose_a` and `adjoint_a` can be True"):
        tf.matmul(f, f, transpose_a=True, adjoint_a=True)
    with pytest.raises(ValueError, match="Only one of `transpose_b` and `adjoint_b` can be True"):
        tf.matmul(f, f, transpose_b=True, adjoint_b=True)


def test_matmul_infer_matches_kernel():
    a, b = tf.constant(sample((3, 4), np.float32)), tf.constant(sample((5, 4), np.float32))
    x, y = tf.constant(sample((2, 1, 3, 4), np.float64)), tf.constant(sample((5, 4, 6), np.float64))
    cases = [("MatMul", [a, b], {"transpose_b": True}), ("MatMul", [b, a], {"transpose_a": False, "transpose_b": True}),
             ("BatchMatMulV2", [x, y], {}), ("BatchMatMulV2", [y, x], {"adj_x": True, "adj_y": True}),
             ("Softmax", [a], {}), ("LogSoftmax", [x], {})]
    for name, inputs, attrs in cases:
        op = _execute.op_def(name)
        (dt, dims), = _core.infer(op, inputs, attrs)
        out = _core.execute1(op, inputs, attrs)
        assert dt == out._dtype_enum and tuple(dims) == out._shape_tuple, name
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        _core.infer(_execute.op_def("MatMul"), [a, b], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="compatible batch dimensions"):
        _core.infer(_execute.op_def("BatchMatMulV2"), [x, tf.constant(sample((3, 5, 4, 6), np.float64))], {})


# --- softmax ---

def np_softmax(x, axis=-1, log=False):
    x = x.astype(np.float64)
    if x.size == 0:
        return x
    s = x - np.max(x, axis=axis, keepdims=True)
    lse = np.log(np.sum(np.exp(s), axis=axis, keepdims=True))
    return s - lse if log else np.exp(s - lse)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax_vs_numpy(dtype):
    tol = {np.float16: 2e-3, np.float32: 1e-6, np.float64: 1e-12}[dtype]
    for i, shape in enumerate([(5,), (3, 4), (2, 3, 7), (1, 1), (0, 3), (3, 0), (64, 1000)]):
        x = (sample(shape, np.float64, i) * 5).astype(dtype)
        for fn, log in ((tf.nn.softmax, False), (tf.nn.log_softmax, True), (tf.math.softmax, False)):
            got = fn(x)
            assert got.dtype.as_numpy_dtype == dtype and got.shape == x.shape
            np.testing.assert_allclose(got.numpy().astype(np.float64), np_softmax(x, log=log), rtol=tol, atol=tol)
            np.testing.assert_allclose(fn(x, axis=-1).numpy().astype(np.float64), np_softmax(x, log=log), rtol=tol,
                                       atol=tol)


def test_softmax_stability_and_special_values():
    np.testing.assert_allclose(tf.nn.softmax(np.array([1000.0, 0.0], np.float32)).numpy(), [1.0, 0.0])
    np.testing.assert_allclose(tf.nn.log_softmax(np.array([1000.0, 0.0], np.float32)).numpy(), [0.0, -1000.0])
    np.testing.assert_allclose(tf.nn.softmax(np.array([-1000.0, -1000.0], np.float32)).numpy(), [0.5, 0.5])
    assert np.isnan(tf.nn.softmax(np.array([-np.inf, -np.inf], np.float32)).numpy()).all()
    assert np.isnan(tf.nn.softmax(np.array([np.nan, 1.0], np.float32)).numpy()).all()
    assert np.isnan(tf.nn.softmax(np.array([1.0, np.inf], np.float32)).numpy()).all()
    row = tf.nn.softmax(np.array([[1.0, 2.0], [np.nan, 1.0]], np.float32)).numpy()
    np.testing.assert_allclose(row[0], [0.26894143, 0.7310586], rtol=1e-6)


def test_softmax_axis_and_errors():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"`dim` must be in the range \[-2, 2\) where 2 is the number of dimensions in the input. "
                             r"Received: dim=2"):
        tf.nn.softmax(x, axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"logits must have >= 1 dimension, got \[\]"):
        tf.nn.softmax(np.float32(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.nn.softmax([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex64"):
        tf.nn.log_softmax(np.array([1j], np.complex64))
    np.testing.assert_allclose(tf.nn.log_softmax(np.array([1.0, 2.0], np.float32), axis=0).numpy(),
                               [-1.3132616, -0.31326166], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.softmax(x, axis=0).numpy(), np_softmax(x, axis=0), rtol=1e-6)
    y = sample((2, 3, 4), np.float32)
    np.testing.assert_allclose(tf.nn.log_softmax(y, axis=1).numpy(), np_softmax(y, axis=1, log=True), rtol=1e-5,
                               atol=1e-6)


def test_clip_by_norm():
    np.testing.assert_allclose(tf.clip_by_norm(np.array([3.0, 4.0], np.float32), 1.0).numpy(), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm([3.0, 4.0], 10.0).numpy(), [3.0, 4.0], rtol=1e-6)
    r = tf.clip_by_norm(np.array([[3.0, 4.0], [0.0, 0.0]], np.float32), 1.0, axes=[1]).numpy()
    np.testing.assert_allclose(r, [[0.6, 0.8], [0.0, 0.0]], rtol=1e-6)
    assert tf.clip_by_norm(np.array([3.0, 4.0]), 1.0).dtype == tf.float64
