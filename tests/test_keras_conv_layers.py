"""tf.keras.layers Conv2D, Flatten and global pooling: shapes, names, values against tf.nn and
NumPy, and training through them."""
import numpy as np
import pytest

import eagerflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(2)


def test_guide_conv_model_shapes_and_names():
    m = tf.keras.Sequential([layers.Conv2D(16, [3, 3], activation="relu", input_shape=(None, None, 1)),
                             layers.Conv2D(16, [3, 3], activation="relu"),
                             layers.GlobalAveragePooling2D(),
                             layers.Dense(10)])
    assert m(np.zeros((1, 28, 28, 1), np.float32)).shape == (1, 10)
    assert [tuple(w.shape) for w in m.weights] == [(3, 3, 1, 16), (16,), (3, 3, 16, 16), (16,), (16, 10), (10,)]
    assert layers.Conv2D(2, 3).name.startswith("conv2d")
    assert layers.GlobalAveragePooling2D().name.startswith("global_average_pooling2d")


def test_conv2d_layer_matches_nn_conv2d():
    c = layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")
    x = tf.constant(rng.standard_normal((2, 7, 7, 3)).astype(np.float32))
    y = c(x)
    want = tf.nn.relu(tf.nn.conv2d(x, c.kernel, 2, "SAME") + c.bias)
    np.testing.assert_allclose(y.numpy(), want.numpy(), rtol=1e-6)
    assert y.shape == (2, 4, 4, 4) and c.compute_output_shape((2, 7, 7, 3)) == (2, 4, 4, 4)


def test_flatten_and_global_pooling():
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    np.testing.assert_array_equal(layers.Flatten()(x).numpy(), x.reshape(2, -1))
    np.testing.assert_allclose(layers.GlobalAveragePooling2D()(x).numpy(), x.mean((1, 2)), rtol=1e-6)
    np.testing.assert_array_equal(layers.GlobalMaxPooling2D(keepdims=True)(x).numpy(), x.max((1, 2), keepdims=True))


@pytest.mark.parametrize("kwargs, text", [({"filters": 0, "kernel_size": 3}, "Invalid value for argument `filters`"),
                                          ({"filters": 2, "kernel_size": 3, "padding": "full"},
                                           "The `padding` argument must be")])
def test_conv2d_layer_errors(kwargs, text):
    with pytest.raises(ValueError, match=text):
        layers.Conv2D(**kwargs)


def test_small_conv_net_learns():
    x = rng.standard_normal((16, 8, 8, 1)).astype(np.float32)
    y = (x.mean((1, 2, 3)) > 0).astype(np.int64)
    m = tf.keras.Sequential([layers.Conv2D(4, 3, activation="relu"), layers.GlobalAveragePooling2D(), layers.Dense(2)])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = loss_fn(y, m(x))
        opt.apply_gradients(zip(tape.gradient(loss, m.trainable_variables), m.trainable_variables))
        return loss

    losses = [float(step()) for _ in range(30)]
    assert losses[-1] < losses[0]


def test_pooling_layers_match_nn():
    x = rng.standard_normal((2, 7, 6, 3)).astype(np.float32)
    m = layers.MaxPooling2D()
    np.testing.assert_array_equal(m(x).numpy(), tf.nn.max_pool2d(x, 2, 2, "VALID").numpy())
    assert m.compute_output_shape((2, 7, 6, 3)) == (2, 3, 3, 3)
    a = layers.AveragePooling2D(pool_size=3, strides=2, padding="same")
    np.testing.assert_allclose(a(x).numpy(), tf.nn.avg_pool2d(x, 3, 2, "SAME").numpy(), rtol=1e-6)
    assert a(x).shape == a.compute_output_shape((2, 7, 6, 3)) == (2, 4, 3, 3)
    assert layers.MaxPool2D is layers.MaxPooling2D and layers.AvgPool2D is layers.AveragePooling2D


def test_conv1d_layer_causal_matches_numpy():
    x = rng.standard_normal((2, 7, 3)).astype(np.float32)
    c = layers.Conv1D(2, 3, padding="causal", dilation_rate=2, use_bias=False)
    y = c(x).numpy()
    w = c.kernel.numpy()  # (k, in, out)
    padded = np.concatenate([np.zeros((2, 4, 3), np.float32), x], axis=1)
    want = sum(padded[:, j * 2:j * 2 + 7, :] @ w[j] for j in range(3))
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
    assert c.kernel.shape == (3, 3, 2) and c.compute_output_shape((2, 7, 3)) == (2, 7, 2)


def test_1d_pooling_layers():
    x = rng.standard_normal((2, 7, 3)).astype(np.float32)
    np.testing.assert_allclose(layers.GlobalAveragePooling1D()(x).numpy(), x.mean(1), rtol=1e-6)
    np.testing.assert_array_equal(layers.GlobalMaxPooling1D()(x).numpy(), x.max(1))
    np.testing.assert_array_equal(layers.MaxPooling1D()(x).numpy(), x[:, :6].reshape(2, 3, 2, 3).max(2))
    np.testing.assert_allclose(layers.AveragePooling1D(3)(x).numpy(), x[:, :6].reshape(2, 2, 3, 3).mean(2), rtol=1e-6)
