"""tf.nn.depthwise_conv2d / separable_conv2d / conv2d_transpose / conv1d_transpose against NumPy and
values from TF 2.21, with TF's errors (the op table checks the gradients numerically)."""
import numpy as np
import pytest

import eagerflow as tf

rng = np.random.default_rng(11)


def _out_and_pad(size, k, stride, dil, padding):
    eff = (k - 1) * dil + 1
    if padding == "SAME":
        out = -(-size // stride)
        return out, max(0, (out - 1) * stride + eff - size) // 2
    return (size - eff) // stride + 1, 0


def _depthwise_reference(x, w, stride, padding, dil):
    n, h, wd, c = x.shape
    kh, kw, _, m = w.shape
    oh, pt = _out_and_pad(h, kh, stride, dil, padding)
    ow, pl = _out_and_pad(wd, kw, stride, dil, padding)
    out = np.zeros((n, oh, ow, c, m))
    for oy in range(oh):
        for ox in range(ow):
            for ky in range(kh):
                for kx in range(kw):
                    iy, ix = oy * stride - pt + ky * dil, ox * stride - pl + kx * dil
                    if 0 <= iy < h and 0 <= ix < wd:
                        out[:, oy, ox] += x[:, iy, ix, :, None] * w[ky, kx]
    return out.reshape(n, oh, ow, c * m)


@pytest.mark.parametrize("shape, kernel, mult, stride, padding, dil", [
    ((2, 7, 6, 3), (3, 3), 1, 1, "SAME", 1),
    ((1, 8, 9, 2), (3, 2), 2, 2, "SAME", 1),
    ((2, 9, 9, 4), (3, 3), 1, 1, "SAME", 2),
    ((1, 9, 8, 2), (3, 3), 3, 1, "VALID", 2),
    ((3, 6, 6, 5), (2, 2), 1, 2, "VALID", 1),
])
def test_depthwise_matches_numpy(shape, kernel, mult, stride, padding, dil):
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(kernel + (shape[3], mult)).astype(np.float32)
    got = tf.nn.depthwise_conv2d(x, w, [1, stride, stride, 1], padding, dilations=[dil, dil]).numpy()
    np.testing.assert_allclose(got, _depthwise_reference(x, w, stride, padding, dil), rtol=1e-4, atol=1e-4)


def test_depthwise_gradients_match_the_backprop_ops():
    x = tf.constant(rng.standard_normal((2, 6, 5, 3)))
    w = tf.constant(rng.standard_normal((3, 3, 3, 2)))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = tf.nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME")
        loss = tf.reduce_sum(y * y)
    dy = 2 * y
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), tf.nn.depthwise_conv2d_backprop_input(
        [2, 6, 5, 3], w, dy, [1, 2, 2, 1], "SAME").numpy(), rtol=1e-10)
    np.testing.assert_allclose(tape.gradient(loss, w).numpy(), tf.nn.depthwise_conv2d_backprop_filter(
        x, [3, 3, 3, 2], dy, [1, 2, 2, 1], "SAME").numpy(), rtol=1e-10)


def test_depthwise_and_separable_values_from_tf():
    x = tf.reshape(tf.range(18.0) / 4, [1, 3, 3, 2])
    w = tf.reshape(tf.range(16.0) / 8 - 1, [2, 2, 2, 2])
    got = tf.nn.depthwise_conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[2, 2]).numpy().ravel()
    np.testing.assert_allclose(got, [
        1.0, 1.25, 1.6875, 1.96875, 1.25, 1.75, 2.5, 3.0625, 0.0, 0.25, 0.5625, 0.84375, 1.5, 2.0, 2.625, 3.1875,
        1.5, 2.5, 3.5, 4.625, -0.5, 0.0, 0.375, 0.9375, -1.0, -0.75, -0.5625, -0.28125, -2.75, -2.25, -2.0, -1.4375,
        -2.0, -1.75, -1.6875, -1.40625])
    pointwise = tf.reshape(tf.range(8.0) - 3, [1, 1, 4, 2])
    got = tf.nn.separable_conv2d(x, w, pointwise, [1, 1, 1, 1], "VALID").numpy().ravel()
    np.testing.assert_allclose(got, [5.375, 11.5, 7.875, 13.5, 12.875, 17.5, 15.375, 19.5])


@pytest.mark.parametrize("x_shape, w_shape, kwargs, cls, text", [
    ((1, 5, 5, 2), (3, 3, 3, 2), {}, tf.errors.InvalidArgumentError,
     "input and filter must have the same depth: 2 vs 3"),
    ((5, 5, 2), (3, 3, 2, 2), {}, tf.errors.InvalidArgumentError, r"input must be 4-dimensional\[5,5,2\]"),
    ((1, 5, 5, 2), (3, 3, 2), {}, tf.errors.InvalidArgumentError, r"filter must be 4-dimensional: \[3,3,2\]"),
    ((1, 5, 5, 2), (3, 3, 2, 2), {"strides": [1, 0, 0, 1]}, tf.errors.InvalidArgumentError,
     "Stride must be > 0, but got 0"),
    ((1, 5, 5, 2), (3, 3, 2, 2), {"strides": [2, 1, 1, 1]}, tf.errors.InvalidArgumentError,
     "does not yet support strides in the batch and depth dimensions"),
    ((1, 5, 5, 2), (3, 3, 2, 2), {"strides": [1, 2, 1, 1]}, tf.errors.InvalidArgumentError,
     "only supports equal length strides in the row and column dimensions"),
    ((1, 5, 5, 2), (7, 3, 2, 2), {"padding": "VALID"}, tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 5, effective_filter_size: 7, stride: 1\]"),
])
def test_depthwise_errors(x_shape, w_shape, kwargs, cls, text):
    args = {"strides": [1, 1, 1, 1], "padding": "SAME", **kwargs}
    with pytest.raises(cls, match=text):
        tf.raw_ops.DepthwiseConv2dNative(input=tf.zeros(x_shape), filter=tf.zeros(w_shape), **args)


def test_depthwise_backprop_errors():
    w = tf.zeros([3, 3, 2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="DepthwiseConv2DBackpropInput: depth_multiplier \\* in_depth not equal to out_depth"):
        tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], w, tf.zeros([1, 5, 5, 3]), [1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of rows of out_backprop doesn't match computed: "
                                                              "actual = 4, computed = 5"):
        tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], w, tf.zeros([1, 4, 5, 4]), [1, 1, 1, 1], "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="DepthwiseConv2DBackpropFilter: filter must be "
                                                              "4-dimensional"):
        tf.nn.depthwise_conv2d_backprop_filter(tf.zeros([1, 5, 5, 2]), [3, 3, 2], tf.zeros([1, 5, 5, 4]),
                                               [1, 1, 1, 1], "SAME")


def test_depthwise_in_a_function_infers_the_shape():
    @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 3])])
    def f(x):
        y = tf.nn.depthwise_conv2d(x, tf.ones([3, 3, 3, 2]), [1, 2, 2, 1], "SAME")
        assert y.shape.as_list() == [None, 4, 4, 6]
        return y

    assert f(tf.ones([2, 8, 8, 3])).shape == (2, 4, 4, 6)


def test_conv2d_transpose_values_and_gradients_from_tf():
    x = tf.reshape(tf.range(8.0), [1, 2, 2, 2])
    got = tf.nn.conv2d_transpose(x, tf.reshape(tf.range(16.0), [2, 2, 2, 2]), [1, 4, 4, 2], 2).numpy().ravel()
    np.testing.assert_allclose(got, [1, 3, 5, 7, 3, 13, 23, 33, 9, 11, 13, 15, 43, 53, 63, 73, 5, 23, 41, 59, 7, 33,
                                     59, 85, 77, 95, 113, 131, 111, 137, 163, 189])
    got = tf.nn.conv2d_transpose(x, tf.reshape(tf.range(12.0) / 4, [3, 2, 1, 2]), [1, 5, 4, 1], 2, "VALID")
    np.testing.assert_allclose(got.numpy().ravel(), [
        0.25, 0.75, 0.75, 3.25, 1.25, 1.75, 5.75, 8.25, 3.5, 8.5, 12.5, 21.5, 10.25, 14.75, 14.75, 21.25, 19.25,
        23.75, 27.75, 34.25])
    xv = tf.Variable(x)
    w = tf.Variable(tf.reshape(tf.range(18.0) / 10, [3, 3, 1, 2]))
    with tf.GradientTape() as tape:
        y = tf.nn.conv2d_transpose(xv, w, [1, 4, 4, 1], 2)
        loss = tf.reduce_sum(y * y)
    gx, gw = tape.gradient(loss, [xv, w])
    np.testing.assert_allclose(gx.numpy().ravel(), [67.76, 72.88, 73.08, 79.92, 67.16, 77.16, 43.6, 54.1], rtol=1e-5)
    np.testing.assert_allclose(gw.numpy().ravel(), [
        171.2, 202.2, 162.8, 194.8, 102.4, 129.6, 280.8, 338.8, 212.0, 260.0, 144.0, 188.8, 51.2, 80.4, 42.4, 71.2,
        0.0, 25.6], rtol=1e-5, atol=1e-5)


def test_conv1d_transpose_and_conv_transpose():
    got = tf.nn.conv1d_transpose(tf.reshape(tf.range(6.0), [1, 3, 2]), tf.reshape(tf.range(12.0) / 4, [3, 2, 2]),
                                 [1, 6, 2], 2)
    np.testing.assert_allclose(got.numpy().ravel(), [0.25, 0.75, 1.25, 1.75, 3.0, 6.0, 5.75, 8.25, 12.0, 19.0, 10.25,
                                                     14.75])
    same = tf.nn.conv_transpose(tf.reshape(tf.range(6.0), [1, 3, 2]), tf.reshape(tf.range(12.0) / 4, [3, 2, 2]),
                                [1, 6, 2], 2)
    np.testing.assert_array_equal(same.numpy(), got.numpy())
    assert tf.nn.conv_transpose(tf.ones([1, 3, 3, 4]), tf.ones([3, 3, 2, 4]), [1, 6, 6, 2], 2).shape == (1, 6, 6, 2)


@pytest.mark.parametrize("output_shape, w_shape, text", [
    ([1, 7, 7, 2], (3, 3, 2, 4), "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 3, "
                                 "computed = 4 spatial_dim: 1 input: 7 filter: 3 output: 3 stride: 2 dilation: 1"),
    ([1, 6, 6, 3], (3, 3, 2, 4), "Conv2DCustomBackpropInput: input depth must be evenly divisible by filter depth"),
    ([1, 6, 6], (3, 3, 2, 4), "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: 3"),
    ([2, 6, 6, 2], (3, 3, 2, 4), "Conv2DCustomBackpropInput: input and out_backprop must have the same batch size. "
                                 "Input batch: 2, outbackprop batch: 1, batch_dim: 0"),
    ([1, 6, 6, 2], (3, 3, 2, 5), "Conv2DCustomBackpropInput: filter and out_backprop must have the same out_depth"),
])
def test_conv2d_transpose_bad_output_shape(output_shape, w_shape, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 4]), tf.ones(w_shape), output_shape, 2)
