"""The direct float32 convolution kernels (AVX-512, AVX2, portable) against NumPy and the im2col
path, for each variant this CPU supports, and the float32 gradients against float64 differences."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

import conv_kernels
import gradient_checker as gc

rng = np.random.default_rng(11)


VARIANTS = conv_kernels.available()


@pytest.fixture(params=VARIANTS or ["none"])
def kernel(request):
    if request.param == "none":
        pytest.skip("no direct convolution kernel on this CPU")
    prev = _core.set_conv_kernel(request.param)
    yield request.param
    _core.set_conv_kernel(prev)


def _pads(size, k, s, d, padding, axis):
    if isinstance(padding, list):
        return padding[axis + 1][0]
    if padding == "VALID":
        return 0
    out = -(-size // s)
    return max((out - 1) * s + (k - 1) * d + 1 - size, 0) // 2


def _reference(x, w, stride, padding, dil, out_shape):
    """float64 convolution: the zero-padded input sliced per tap."""
    x, w = x.astype(np.float64), w.astype(np.float64)
    kh, kw, _, oc = w.shape
    n, oh, ow, _ = out_shape
    pt = _pads(x.shape[1], kh, stride[0], dil[0], padding, 0)
    pl = _pads(x.shape[2], kw, stride[1], dil[1], padding, 1)
    big = np.zeros((n, x.shape[1] + pt + oh * stride[0] + kh * dil[0], x.shape[2] + pl + ow * stride[1] + kw * dil[1],
                    x.shape[3]))
    big[:, pt:pt + x.shape[1], pl:pl + x.shape[2]] = x
    out = np.zeros((n, oh, ow, oc))
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dil[0], kx * dil[1]
            patch = big[:, y0:y0 + oh * stride[0]:stride[0], x0:x0 + ow * stride[1]:stride[1]]
            out += patch @ w[ky, kx]
    return out


CASES = [
    # x shape, (kh, kw, out_c), strides, padding, dilations
    ((1, 5, 7, 3), (3, 3, 5), (1, 1), "SAME", (1, 1)),
    ((2, 9, 8, 17), (3, 3, 33), (2, 2), "SAME", (1, 1)),
    ((3, 6, 6, 8), (1, 1, 24), (1, 1), "VALID", (1, 1)),     # pointwise
    ((2, 11, 10, 4), (5, 5, 20), (1, 1), "SAME", (1, 1)),
    ((1, 12, 13, 6), (3, 2, 70), (1, 1), "VALID", (2, 3)),
    ((2, 7, 9, 5), (3, 3, 16), (1, 1), [[0, 0], [2, 0], [1, 3], [0, 0]], (1, 1)),
    ((1, 3, 4, 2), (3, 3, 1), (1, 1), [[0, 0], [4, 4], [4, 5], [0, 0]], (1, 1)),  # taps wholly in padding
    ((4, 14, 15, 16), (3, 3, 129), (1, 2), "SAME", (1, 1)),
    ((1, 17, 19, 64), (3, 3, 64), (1, 1), "SAME", (1, 1)),  # several tasks on the pool
    ((2, 10, 10, 7), (2, 4, 15), (3, 2), "VALID", (1, 1)),
    ((1, 1, 1, 1), (1, 1, 1), (1, 1), "SAME", (1, 1)),
    ((3, 14, 13, 1), (3, 3, 16), (1, 1), "VALID", (1, 1)),   # one input channel: filter rows across taps
    ((2, 13, 12, 16), (3, 3, 16), (1, 1), "VALID", (1, 1)),  # windows inside: offsets per tap
    ((2, 13, 12, 8), (3, 3, 16), (1, 1), "SAME", (1, 1)),    # inside and border pixels in one range
    ((2, 9, 30, 3), (5, 3, 8), (1, 1), "SAME", (1, 2)),
    # filter gradients vectorized over input channels (one vector of output channels): per ISA
    ((2, 9, 10, 8), (3, 3, 8), (1, 1), "SAME", (1, 1)),      # AVX2
    ((1, 8, 8, 32), (3, 3, 5), (1, 1), "SAME", (1, 1)),      # AVX-512, out_c padded
    ((1, 8, 8, 12), (2, 2, 3), (1, 1), "VALID", (1, 1)),     # portable
    ((1, 12, 12, 16), (9, 9, 4), (1, 1), "SAME", (1, 1)),    # 81 taps: blocks of 64
    # forward row tiles (3-wide filter rows, one vector of output channels): dilated and strided rows,
    # several images in one range, rows shorter than a tile
    ((2, 11, 9, 4), (3, 3, 6), (1, 1), "SAME", (2, 1)),
    ((2, 11, 9, 4), (5, 3, 6), (2, 1), "SAME", (3, 1)),
    ((5, 4, 4, 2), (3, 3, 7), (1, 1), "SAME", (1, 1)),
    ((1, 30, 40, 3), (3, 3, 16), (1, 1), [[0, 0], [1, 0], [2, 1], [0, 0]], (1, 1)),
]


@pytest.mark.parametrize("xs, ws, stride, padding, dil", CASES)
def test_direct_conv_matches_numpy_and_im2col(kernel, xs, ws, stride, padding, dil):
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws[:2] + (xs[3], ws[2])).astype(np.float32)
    y = tf.nn.conv2d(x, w, stride, padding, dilations=dil).numpy()
    want = _reference(x, w, stride, padding, dil, y.shape)
    scale = np.sqrt(ws[0] * ws[1] * xs[3])
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5 * scale)
    prev = _core.set_conv_kernel("im2col")
    try:
        y_im2col = tf.nn.conv2d(x, w, stride, padding, dilations=dil).numpy()
    finally:
        _core.set_conv_kernel(prev)
    np.testing.assert_allclose(y, y_im2col, rtol=1e-4, atol=1e-5 * scale)


GRAD_CASES = [
    # x shape, (kh, kw, out_c), strides, padding, dilations
    ((2, 9, 8, 5), (3, 3, 19), (1, 1), "SAME", (1, 1)),    # stride 1: the flipped-filter forward kernel
    ((1, 10, 9, 3), (3, 3, 40), (1, 1), "VALID", (2, 1)),
    ((2, 7, 8, 6), (3, 2, 17), (1, 1), [[0, 0], [1, 2], [0, 1], [0, 0]], (1, 1)),
    ((1, 3, 4, 2), (3, 3, 3), (1, 1), [[0, 0], [4, 4], [4, 5], [0, 0]], (1, 1)),  # padding past the window
    ((2, 9, 8, 17), (3, 3, 33), (2, 2), "SAME", (1, 1)),   # strided: the gathering kernel
    ((3, 11, 10, 4), (5, 5, 20), (2, 3), "VALID", (1, 1)),
    ((1, 8, 9, 16), (1, 1, 64), (2, 2), "SAME", (1, 1)),
    ((2, 7, 9, 5), (2, 4, 16), (3, 2), [[0, 0], [2, 1], [1, 3], [0, 0]], (1, 1)),
    ((1, 17, 19, 64), (3, 3, 64), (2, 1), "SAME", (1, 1)),
]


def _im2col_grads(x, w, dout, stride, padding, dil):
    prev = _core.set_conv_kernel("im2col")
    try:
        x64, w64, d64 = x.astype(np.float64), w.astype(np.float64), dout.astype(np.float64)
        dx = tf.nn.conv2d_backprop_input(x.shape, w64, d64, stride, padding, dilations=dil).numpy()
        dw = tf.nn.conv2d_backprop_filter(x64, w.shape, d64, stride, padding, dilations=dil).numpy()
    finally:
        _core.set_conv_kernel(prev)
    return dx, dw


@pytest.mark.parametrize("xs, ws, stride, padding, dil", GRAD_CASES + CASES)
def test_direct_gradients_match_float64(kernel, xs, ws, stride, padding, dil):
    x = rng.standard_normal(xs).astype(np.float32)
    w = rng.standard_normal(ws[:2] + (xs[3], ws[2])).astype(np.float32)
    y = tf.nn.conv2d(x, w, stride, padding, dilations=dil)
    dout = rng.standard_normal(y.shape).astype(np.float32)
    dx = tf.nn.conv2d_backprop_input(x.shape, w, dout, stride, padding, dilations=dil).numpy()
    dw = tf.nn.conv2d_backprop_filter(x, w.shape, dout, stride, padding, dilations=dil).numpy()
    want_dx, want_dw = _im2col_grads(x, w, dout, stride, padding, dil)
    np.testing.assert_allclose(dx, want_dx, rtol=1e-4, atol=1e-5 * np.sqrt(ws[0] * ws[1] * ws[2]))
    np.testing.assert_allclose(dw, want_dw, rtol=1e-4, atol=1e-5 * np.sqrt(y.shape[0] * y.shape[1] * y.shape[2]))


@pytest.mark.parametrize("stride, padding", [(1, "SAME"), (2, "VALID")])
def test_direct_conv_float32_gradients(kernel, stride, padding):
    x = rng.standard_normal((2, 5, 4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 4)).astype(np.float32)
    attrs = {"strides": [1, stride, stride, 1], "padding": padding}
    theo = gc.theoretical_jacobian("Conv2D", [x, w], attrs)
    num = gc.numerical_jacobian("Conv2D", [x.astype(np.float64), w.astype(np.float64)], attrs)
    for i in (0, 1):
        np.testing.assert_allclose(theo[i], num[i], rtol=1e-4, atol=1e-4)


def test_direct_conv_in_function_and_keras_layer(kernel):
    layer = tf.keras.layers.Conv2D(10, 3, padding="same", activation="relu")
    x = tf.constant(rng.standard_normal((2, 8, 8, 3)).astype(np.float32))
    eager = layer(x).numpy()
    traced = tf.function(lambda a: layer(a))(x).numpy()
    np.testing.assert_allclose(traced, eager, rtol=1e-6, atol=1e-6)


def test_conv_kernel_setter():
    prev = _core.conv_kernel()
    assert prev in ("avx512", "avx2", "generic", "im2col")
    try:
        assert _core.set_conv_kernel("im2col") == prev
        assert _core.conv_kernel() == "im2col"
        _core.set_conv_kernel("auto")
        assert _core.conv_kernel() == (VARIANTS[0] if VARIANTS else "im2col")
        with pytest.raises(tf.errors.InvalidArgumentError, match="unknown kernel"):
            _core.set_conv_kernel("sse9")
    finally:
        _core.set_conv_kernel(prev)
