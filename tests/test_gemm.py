"""The float/double GEMM behind MatMul, BatchMatMulV2 and the convolutions, with the BLAS (OpenBLAS,
when the core was built with it) and with Eigen's GEMM, against NumPy."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops import _execute

TOL = {np.float32: 2e-4, np.float64: 1e-10}


@pytest.fixture(params=["blas", "eigen"])
def backend(request):
    if request.param == "blas" and not _core.blas_available():
        pytest.skip("built without a BLAS (scipy-openblas32)")
    was = _core.blas_enabled()
    _core.set_blas_enabled(request.param == "blas")
    assert _core.blas_enabled() == (request.param == "blas")
    yield request.param
    _core.set_blas_enabled(was)


def sample(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check(got, want, dtype):
    assert got.dtype.as_numpy_dtype == dtype and tuple(got.shape) == want.shape
    scale = max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(got.numpy(), want, rtol=TOL[dtype], atol=TOL[dtype] * scale)


# (M, N, K): vectors, K = 0, M = 0, large K, and sizes big enough to split across threads by rows
# (M >= N) or columns (M < N), with a short K (a transposed b is made contiguous for the BLAS up to
# K = 32) and a long one.
SHAPES = [(1, 9, 5), (9, 1, 5), (1, 1, 7), (6, 5, 0), (0, 5, 6), (5, 0, 6), (3, 4, 20000), (129, 67, 31),
          (200, 64, 32), (37, 400, 20), (128, 256, 33), (300, 97, 200), (37, 400, 150), (1, 700, 300),
          (700, 1, 300)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_transposes_and_odd_shapes(backend, dtype):
    for i, (m, n, k) in enumerate(SHAPES):
        for ta in (False, True):
            for tb in (False, True):
                a = sample((k, m) if ta else (m, k), dtype, i)
                b = sample((n, k) if tb else (k, n), dtype, i + 100)
                want = (a.T if ta else a) @ (b.T if tb else b)
                check(tf.matmul(a, b, transpose_a=ta, transpose_b=tb), want, dtype)
                check(tf.matmul(a, b, adjoint_a=ta, adjoint_b=tb), want, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_matmul_broadcast_and_adjoints(backend, dtype):
    shapes = [((2, 1, 30, 40), (5, 40, 20)), ((3, 40), (2, 40, 50)), ((64, 8, 9), (9, 7)), ((2, 300, 64), (64, 200)),
              ((0, 3, 4), (4, 1, 4, 2)), ((2, 3, 0), (2, 0, 3))]
    for i, (sa, sb) in enumerate(shapes):
        a, b = sample(sa, dtype, i), sample(sb, dtype, i + 50)
        check(tf.matmul(a, b), np.matmul(a, b), dtype)
    for adj_x in (False, True):
        for adj_y in (False, True):
            a = sample((4, 33, 20) if adj_x else (4, 20, 33), dtype, 1)
            b = sample((1, 17, 33) if adj_y else (1, 33, 17), dtype, 2)
            got = _execute.execute1("BatchMatMulV2", [tf.constant(a), tf.constant(b)], {"adj_x": adj_x, "adj_y": adj_y})
            want = np.matmul(np.swapaxes(a, -1, -2) if adj_x else a, np.swapaxes(b, -1, -2) if adj_y else b)
            check(got, want, dtype)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_thread_settings_give_the_same_products(backend, threads):
    a, b = sample((257, 190), np.float32, 1), sample((190, 311), np.float32, 2)
    x, y = sample((40, 30, 20), np.float64, 3), sample((40, 20, 10), np.float64, 4)
    try:
        tf.config.threading.set_intra_op_parallelism_threads(threads)
        assert _core.num_threads() == threads
        check(tf.matmul(a, b), a @ b, np.float32)
        check(tf.matmul(b, a, transpose_a=True, transpose_b=True), b.T @ a.T, np.float32)
        check(tf.matmul(x, y), np.matmul(x, y), np.float64)
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)


def conv_ref(x, w, dy):
    """VALID, stride 1 NHWC conv2d and the gradients of its input and filter for output gradient dy."""
    kh, kw = w.shape[:2]
    win = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))  # n, oh, ow, c, kh, kw
    y = np.einsum("nhwcyx,yxco->nhwo", win, w)
    dw = np.einsum("nhwcyx,nhwo->yxco", win, dy)
    dx = np.zeros_like(x)
    for ky in range(kh):
        for kx in range(kw):
            dx[:, ky:ky + dy.shape[1], kx:kx + dy.shape[2]] += np.einsum("nhwo,co->nhwc", dy, w[ky, kx])
    return y, dx, dw


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_conv2d_forward_and_gradients(backend, dtype):
    x, w = sample((3, 19, 17, 6), dtype, 1), sample((3, 3, 6, 10), dtype, 2)
    y_ref, dx_ref, dw_ref = conv_ref(x, w, sample((3, 17, 15, 10), dtype, 3))
    xt, wt = tf.constant(x), tf.constant(w)
    with tf.GradientTape() as tape:
        tape.watch([xt, wt])
        y = tf.nn.conv2d(xt, wt, 1, "VALID")
    dx, dw = tape.gradient(y, [xt, wt], output_gradients=tf.constant(sample((3, 17, 15, 10), dtype, 3)))
    check(y, y_ref, dtype)
    check(dx, dx_ref, dtype)
    check(dw, dw_ref, dtype)


def test_backend_switch():
    was = _core.blas_enabled()
    try:
        _core.set_blas_enabled(False)
        assert not _core.blas_enabled()
        _core.set_blas_enabled(True)
        assert _core.blas_enabled() == _core.blas_available()
    finally:
        _core.set_blas_enabled(was)
