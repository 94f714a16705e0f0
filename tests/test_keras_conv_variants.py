"""tf.keras.layers DepthwiseConv2D, SeparableConv2D and Conv2DTranspose: weight shapes, output shapes,
configs, errors and outputs with set weights, against tf_keras 2.21 (values hard-coded)."""
import numpy as np
import pytest

import eagerflow as tf

layers = tf.keras.layers
X = np.random.default_rng(0).standard_normal((2, 5, 6, 3)).astype(np.float32)
DEPTHWISE = np.arange(54, dtype=np.float32).reshape(3, 3, 3, 2) / 50 - 0.5


def _shapes(layer):
    return [(w.name.split(":")[0].split("/")[-1], tuple(w.shape)) for w in layer.weights]


def test_weight_shapes_and_configs():
    d = layers.DepthwiseConv2D(3, depth_multiplier=2)
    d.build((None, 8, 8, 3))
    assert _shapes(d) == [("depthwise_kernel", (3, 3, 3, 2)), ("bias", (6,))]
    assert d.get_config()["depth_multiplier"] == 2 and d.get_config()["kernel_size"] == (3, 3)
    t = layers.Conv2DTranspose(4, 3, strides=2)
    t.build((None, 5, 5, 3))
    assert _shapes(t) == [("kernel", (3, 3, 4, 3)), ("bias", (4,))]
    assert t.get_config()["output_padding"] is None and t.get_config()["strides"] == (2, 2)
    s = layers.SeparableConv2D(4, 3, depth_multiplier=2)
    s.build((None, 5, 5, 3))
    assert _shapes(s) == [("depthwise_kernel", (3, 3, 3, 2)), ("pointwise_kernel", (1, 1, 6, 4)), ("bias", (4,))]
    assert s.get_config()["filters"] == 4
    assert layers.DepthwiseConv2D(3).name.startswith("depthwise_conv2d")
    assert layers.Conv2DTranspose(3, 3).name.startswith("conv2d_transpose")


@pytest.mark.parametrize("kwargs, shape", [
    ({"filters": 4, "kernel_size": 3, "strides": 2}, (None, 11, 13, 4)),
    ({"filters": 4, "kernel_size": 3, "strides": 2, "padding": "same"}, (None, 10, 12, 4)),
    ({"filters": 4, "kernel_size": 3, "strides": 2, "output_padding": 1}, (None, 12, 14, 4)),
    ({"filters": 2, "kernel_size": (3, 2), "strides": (2, 3), "padding": "same", "output_padding": (1, 2)},
     (None, 10, 17, 2)),
    ({"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (None, 9, 10, 2)),
    ({"filters": 2, "kernel_size": 4, "strides": 2, "padding": "same"}, (None, 10, 12, 2)),
])
def test_conv2d_transpose_output_shapes(kwargs, shape):
    layer = layers.Conv2DTranspose(**kwargs)
    assert layer.compute_output_shape((None, 5, 6, 3)) == shape
    assert layer(tf.zeros([1, 5, 6, 3])).shape == (1,) + shape[1:]


@pytest.mark.parametrize("kwargs, shape", [
    ({"kernel_size": 3, "strides": 2}, (None, 3, 2, 3)),
    ({"kernel_size": 3, "strides": 2, "padding": "same", "depth_multiplier": 3}, (None, 4, 3, 9)),
    ({"kernel_size": 3, "dilation_rate": 2}, (None, 3, 2, 3)),
])
def test_depthwise_output_shapes(kwargs, shape):
    layer = layers.DepthwiseConv2D(**kwargs)
    assert layer.compute_output_shape((None, 7, 6, 3)) == shape
    assert layer(tf.zeros([1, 7, 6, 3])).shape == (1,) + shape[1:]


def test_outputs_with_set_weights_match_tf_keras():
    d = layers.DepthwiseConv2D(3, strides=2, padding="same", depth_multiplier=2, activation="relu")
    d.build(X.shape)
    d.set_weights([DEPTHWISE, np.float32([0.1, -0.1, 0.2, 0, 0, 0.3])])
    np.testing.assert_allclose(d(X).numpy().ravel()[:8], [1.18145, 1.06578, 0.40037, 0.21539, 0, 0, 0, 0], atol=1e-5)
    kernel = np.arange(54, dtype=np.float32).reshape(3, 3, 2, 3) / 50 - 0.5
    t = layers.Conv2DTranspose(2, 3, strides=2, padding="same", output_padding=1)
    t.build(X.shape)
    t.set_weights([kernel, np.float32([0.1, -0.1])])
    y = t(X).numpy()
    assert y.shape == (2, 10, 12, 2)
    np.testing.assert_allclose(y.ravel()[:8], [-0.19405, -0.35601, -0.11796, -0.27992, -0.00354, -0.16965, 0.13004,
                                               -0.07411], atol=1e-5)
    np.testing.assert_allclose(y.ravel()[-4:], [0.04886, -0.28068, 0.07462, -0.19414], atol=1e-5)
    s = layers.SeparableConv2D(2, 3, padding="same", depth_multiplier=2)
    s.build(X.shape)
    s.set_weights([DEPTHWISE, np.arange(12, dtype=np.float32).reshape(1, 1, 6, 2) / 10 - 0.5, np.float32([0.1, -0.1])])
    np.testing.assert_allclose(s(X).numpy().ravel()[:8], [-0.33011, -0.32387, -1.13983, -1.16114, -0.04487, -0.34706,
                                                          0.5512, -0.01291], atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match=r"Strides must be greater than output padding. Received strides=\(1, 1\), "
                                         r"output_padding=\(1, 1\)."):
        layers.Conv2DTranspose(4, 3, strides=1, output_padding=1)
    with pytest.raises(ValueError, match="expected min_ndim=4, found ndim=3. Full shape received: \\(1, 5, 5\\)"):
        layers.DepthwiseConv2D(3)(tf.zeros([1, 5, 5]))
    for layer in (layers.DepthwiseConv2D(3), layers.Conv2DTranspose(2, 3), layers.Conv2D(2, 3)):
        layer(tf.zeros([1, 5, 5, 3]))
        with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3, but received input "
                                             "with shape \\(1, 5, 5, 4\\)"):
            layer(tf.zeros([1, 5, 5, 4]))


def test_training_in_a_function_with_an_unknown_batch():
    model = tf.keras.Sequential([layers.DepthwiseConv2D(3, padding="same", input_shape=(6, 6, 2)),
                                 layers.Conv2DTranspose(3, 3, strides=2, padding="same"),
                                 layers.SeparableConv2D(1, 3)])
    x = tf.constant(np.random.default_rng(1).standard_normal((4, 6, 6, 2)).astype(np.float32))
    target = tf.zeros([4, 10, 10, 1])
    opt = tf.keras.optimizers.SGD(0.01)

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 2])])
    def step(batch):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(batch) - target) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    losses = [float(step(x)) for _ in range(5)]
    assert losses[-1] < losses[0]
