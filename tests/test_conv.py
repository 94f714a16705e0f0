"""tf.nn.conv2d / conv1d against a direct NumPy convolution, TF's errors, and gradients in
functions (the op table checks the gradients numerically)."""
import numpy as np
import pytest

import eagerflow as tf

rng = np.random.default_rng(5)


def _reference(x, w, stride, pad_top, pad_left, out_h, out_w, dil=(1, 1)):
    n, h, wd, c = x.shape
    kh, kw, _, oc = w.shape
    out = np.zeros((n, out_h, out_w, oc))
    for oy in range(out_h):
        for ox in range(out_w):
            for ky in range(kh):
                for kx in range(kw):
                    iy, ix = oy * stride[0] - pad_top + ky * dil[0], ox * stride[1] - pad_left + kx * dil[1]
                    if 0 <= iy < h and 0 <= ix < wd:
                        out[:, oy, ox, :] += x[:, iy, ix, :] @ w[ky, kx]
    return out


@pytest.mark.parametrize("shape, kernel, stride, padding", [
    ((2, 7, 6, 3), (3, 3), (1, 1), "SAME"),
    ((1, 8, 9, 2), (3, 2), (2, 3), "SAME"),
    ((3, 5, 5, 4), (2, 2), (2, 2), "VALID"),
    ((1, 4, 4, 5), (1, 1), (1, 1), "VALID"),   # pointwise: a plain matrix product
    ((2, 9, 9, 1), (5, 5), (1, 1), "VALID"),
])
def test_conv2d_matches_numpy(shape, kernel, stride, padding):
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(kernel + (shape[3], 4)).astype(np.float32)
    got = tf.nn.conv2d(x, w, list(stride), padding).numpy()
    h, wd = shape[1:3]
    if padding == "SAME":
        oh, ow = -(-h // stride[0]), -(-wd // stride[1])
        ph = max(0, (oh - 1) * stride[0] + kernel[0] - h) // 2
        pw = max(0, (ow - 1) * stride[1] + kernel[1] - wd) // 2
    else:
        oh, ow = (h - kernel[0]) // stride[0] + 1, (wd - kernel[1]) // stride[1] + 1
        ph = pw = 0
    np.testing.assert_allclose(got, _reference(x, w, stride, ph, pw, oh, ow), rtol=1e-4, atol=1e-4)


def test_conv2d_dilation_and_explicit_padding():
    x = rng.standard_normal((1, 8, 8, 2)).astype(np.float32)
    w = rng.standard_normal((3, 3, 2, 3)).astype(np.float32)
    got = tf.nn.conv2d(x, w, 1, "VALID", dilations=2).numpy()
    np.testing.assert_allclose(got, _reference(x, w, (1, 1), 0, 0, 4, 4, dil=(2, 2)), rtol=1e-4, atol=1e-4)
    got = tf.nn.conv2d(x, w, 2, [[0, 0], [1, 2], [0, 1], [0, 0]]).numpy()
    np.testing.assert_allclose(got, _reference(x, w, (2, 2), 1, 0, 5, 4), rtol=1e-4, atol=1e-4)


def test_conv1d():
    np.testing.assert_allclose(tf.nn.conv1d(tf.ones([1, 5, 2]), tf.ones([3, 2, 1]), 1, "SAME").numpy().ravel(),
                               [4, 6, 6, 6, 4])


@pytest.mark.parametrize("x_shape, w_shape, kwargs, cls, text", [
    ((1, 5, 5, 2), (3, 3, 3, 4), {}, tf.errors.InvalidArgumentError,
     "input depth must be evenly divisible by filter depth: 2 vs 3"),
    ((1, 5, 5, 2), (7, 3, 2, 4), {"padding": "VALID"}, tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 5, effective_filter_size: 7, stride: 1\]"),
    ((1, 5, 5, 2), (3, 3, 2, 4), {"strides": 0}, tf.errors.InvalidArgumentError,
     "Row and column strides should be larger than 0."),
    ((1, 5, 5, 2), (3, 3, 2, 4), {"strides": [2, 1, 1, 1]}, tf.errors.UnimplementedError,
     "does not yet support strides in the batch and depth dimensions"),
])
def test_conv2d_errors(x_shape, w_shape, kwargs, cls, text):
    args = {"strides": 1, "padding": "SAME", **kwargs}
    with pytest.raises(cls, match=text):
        tf.nn.conv2d(tf.zeros(x_shape), tf.zeros(w_shape), **args)


def test_conv_training_step_in_function():
    x = tf.constant(rng.standard_normal((4, 6, 6, 1)).astype(np.float32))
    w = tf.Variable(rng.standard_normal((3, 3, 1, 2)).astype(np.float32) * 0.1)
    target = tf.constant(rng.standard_normal((4, 6, 6, 2)).astype(np.float32))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.nn.conv2d(x, w, 1, "SAME") - target) ** 2)
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    losses = [float(step()) for _ in range(10)]
    assert losses[-1] < losses[0]


def _pool_reference(x, k, s, reduce):
    n, h, w, c = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = reduce(x[:, i * s:i * s + k, j * s:j * s + k, :], axis=(1, 2))
    return out


@pytest.mark.parametrize("k, s", [(2, 2), (3, 1), (3, 2)])
def test_pooling_matches_numpy(k, s):
    x = rng.standard_normal((2, 7, 8, 3)).astype(np.float32)
    np.testing.assert_array_equal(tf.nn.max_pool2d(x, k, s, "VALID").numpy(), _pool_reference(x, k, s, np.max))
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, k, s, "VALID").numpy(), _pool_reference(x, k, s, np.mean),
                               rtol=1e-5)


def _max_pool_grad_reference(x, grad, k, s, pad_top, pad_left):
    """TF's MaxPoolGrad: each window's first element, then any strictly greater one, takes its gradient."""
    out = np.zeros_like(x)
    for n in range(x.shape[0]):
        for oy in range(grad.shape[1]):
            for ox in range(grad.shape[2]):
                ys = range(max(oy * s - pad_top, 0), min(oy * s - pad_top + k, x.shape[1]))
                xs = range(max(ox * s - pad_left, 0), min(ox * s - pad_left + k, x.shape[2]))
                for c in range(x.shape[3]):
                    cells = [(y, xx) for y in ys for xx in xs]
                    best = cells[0]
                    for cell in cells[1:]:
                        if x[n, cell[0], cell[1], c] > x[n, best[0], best[1], c]:
                            best = cell
                    out[n, best[0], best[1], c] += grad[n, oy, ox, c]
    return out


@pytest.mark.parametrize("shape, k, s, padding", [((2, 7, 8, 3), 2, 2, "VALID"), ((1, 6, 5, 70), 3, 1, "SAME"),
                                                  ((2, 5, 5, 130), 3, 2, "SAME"), ((1, 4, 4, 1), 2, 1, "VALID")])
def test_max_pool_grad_first_maximum_ties_and_nan(shape, k, s, padding):
    x = np.round(rng.standard_normal(shape) * 2).astype(np.float32)  # many ties
    x.flat[::5] = np.nan
    y = tf.nn.max_pool2d(x, k, s, padding)
    grad = rng.standard_normal(y.shape).astype(np.float32)
    got = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=grad, ksize=[1, k, k, 1], strides=[1, s, s, 1],
                                 padding=padding).numpy()
    pad = lambda size, out: max((out - 1) * s + k - size, 0) // 2 if padding == "SAME" else 0  # noqa: E731
    want = _max_pool_grad_reference(x, grad, k, s, pad(shape[1], y.shape[1]), pad(shape[2], y.shape[2]))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_max_pool_nan_follows_tensorflow():
    # TF 2.21: the forward ignores NaN (an all-NaN window gives the lowest float); the gradient goes
    # to the first element when it is NaN, else to the first maximum among the numbers.
    nan = float("nan")
    x = tf.constant(np.array([[1., 3., 3., 0.], [nan, 2., nan, 3.], [5, 5, 1, 1], [0, 0, 0, 0]],
                             np.float32).reshape(1, 4, 4, 1))
    y = tf.nn.max_pool2d(x, 2, 1, "VALID")
    np.testing.assert_array_equal(y.numpy().reshape(3, 3), [[3, 3, 3], [5, 5, 3], [5, 5, 1]])
    g = tf.constant(np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3, 1))
    dx = tf.raw_ops.MaxPoolGrad(orig_input=x, orig_output=y, grad=g, ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1],
                                padding="VALID")
    np.testing.assert_array_equal(dx.numpy().reshape(4, 4), [[0, 3, 3, 0], [4, 0, 6, 0], [7, 13, 9, 0], [0, 0, 0, 0]])
    all_nan = tf.constant(np.full((1, 2, 2, 1), nan, np.float64))
    assert tf.nn.max_pool2d(all_nan, 2, 1, "VALID").numpy().ravel().tolist() == [np.finfo(np.float64).min]


def test_pooling_same_padding_ignores_the_padding():
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    assert tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy().ravel().tolist() == [5.0, 6.5, 11.0, 12.5]
    assert tf.nn.max_pool2d(x, 3, 2, "SAME").numpy().ravel().tolist() == [10.0, 11.0, 14.0, 15.0]
    assert tf.nn.max_pool2d(tf.constant([[[[1], [1]], [[1], [1]]]], tf.int32), 2, 1, "VALID").numpy().ravel() == [1]
    with pytest.raises(tf.errors.UnimplementedError, match="Pooling is not yet supported on the batch dimension"):
        tf.raw_ops.MaxPool(input=x, ksize=[2, 2, 2, 1], strides=[1, 1, 1, 1], padding="VALID")


def _reference_grads(x, w, dout, stride, pad_top, pad_left, dil=(1, 1)):
    n, h, wd, c = x.shape
    kh, kw = w.shape[:2]
    dx, dw = np.zeros(x.shape), np.zeros(w.shape)
    for oy in range(dout.shape[1]):
        for ox in range(dout.shape[2]):
            for ky in range(kh):
                for kx in range(kw):
                    iy, ix = oy * stride - pad_top + ky * dil[0], ox * stride - pad_left + kx * dil[1]
                    if 0 <= iy < h and 0 <= ix < wd:
                        dx[:, iy, ix, :] += dout[:, oy, ox, :] @ w[ky, kx].T
                        dw[ky, kx] += x[:, iy, ix, :].T @ dout[:, oy, ox, :]
    return dx, dw


@pytest.mark.parametrize("stride, padding, dil", [(1, "SAME", 1), (2, "SAME", 1), (1, "VALID", 2),
                                                  (1, [[0, 0], [3, 0], [0, 1], [0, 0]], 1)])
def test_large_conv_and_gradients_match_numpy(stride, padding, dil):
    # Big enough to run in several blocks on the thread pool; stride 1 takes the flipped-filter path.
    x = rng.standard_normal((4, 20, 19, 16))
    w = rng.standard_normal((3, 3, 16, 32))
    y = tf.nn.conv2d(x, w, stride, padding, dilations=dil)
    if padding == "SAME":
        pt = pl = max(0, (y.shape[1] - 1) * stride + 3 - 20) // 2
        pl = max(0, (y.shape[2] - 1) * stride + 3 - 19) // 2
    elif padding == "VALID":
        pt = pl = 0
    else:
        pt, pl = padding[1][0], padding[2][0]
    np.testing.assert_allclose(y.numpy(), _reference(x, w, (stride, stride), pt, pl, y.shape[1], y.shape[2],
                                                     (dil, dil)), rtol=1e-9, atol=1e-9)
    dout = rng.standard_normal(y.shape)
    dx, dw = _reference_grads(x, w, dout, stride, pt, pl, (dil, dil))
    got_dx = tf.nn.conv2d_backprop_input(x.shape, w, dout, stride, padding, dilations=dil)
    got_dw = tf.nn.conv2d_backprop_filter(x, w.shape, dout, stride, padding, dilations=dil)
    np.testing.assert_allclose(got_dx.numpy(), dx, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(got_dw.numpy(), dw, rtol=1e-9, atol=1e-9)
