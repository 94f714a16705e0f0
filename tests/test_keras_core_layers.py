"""tf.nn.dropout and the Keras layers Dropout, Activation, Embedding, Reshape and Lambda; the
training flag through Sequential."""
import numpy as np
import pytest

import eagerflow as tf

layers = tf.keras.layers


def test_nn_dropout_keeps_and_scales():
    tf.random.set_seed(1)
    y = tf.nn.dropout(tf.ones([20000]), 0.3, seed=5).numpy()
    np.testing.assert_allclose(np.unique(y), [0.0, 1 / 0.7], rtol=1e-6)
    assert abs((y > 0).mean() - 0.7) < 0.02
    x = tf.ones([3])
    assert tf.nn.dropout(x, 0.0) is x
    assert tf.nn.dropout(tf.ones([2, 3]), 0.5, noise_shape=[2, 1], seed=1).shape == (2, 3)


@pytest.mark.parametrize("args, text", [((tf.ones([2]), 1.0), "must be a scalar tensor or a float in the range"),
                                        ((tf.ones([2], tf.int32), 0.5), "must be a floating point tensor")])
def test_nn_dropout_errors(args, text):
    with pytest.raises(ValueError, match=text):
        tf.nn.dropout(*args)


def test_dropout_layer_training_flag_through_sequential():
    x = tf.ones([64, 32])
    d = layers.Dropout(0.5, seed=3)
    np.testing.assert_array_equal(d(x).numpy(), x.numpy())
    assert set(d(x, training=True).numpy().ravel().tolist()) == {0.0, 2.0}
    m = tf.keras.Sequential([layers.Dense(8, kernel_initializer="ones"), layers.Dropout(0.5)])
    np.testing.assert_array_equal(m(x).numpy(), np.full((64, 8), 32.0))
    assert (m(x, training=True).numpy() == 0).any()
    with pytest.raises(ValueError, match="Invalid value 1.5 received for `rate`"):
        layers.Dropout(1.5)


def test_activation_embedding_reshape_lambda():
    np.testing.assert_array_equal(layers.Activation("relu")(tf.constant([-1.0, 2.0])).numpy(), [0.0, 2.0])
    e = layers.Embedding(10, 3)
    out = e(tf.constant([[1, 2], [2, 9]]))
    assert out.shape == (2, 2, 3) and e.embeddings.shape == (10, 3)
    np.testing.assert_array_equal(out.numpy()[0, 1], e.embeddings.numpy()[2])
    assert layers.Reshape((3, 2))(tf.ones([4, 6])).shape == (4, 3, 2)
    assert layers.Reshape((-1, 2)).compute_output_shape((None, 6)) == (None, 3, 2)
    np.testing.assert_array_equal(layers.Lambda(lambda t: t * 2)(tf.ones([2])).numpy(), [2.0, 2.0])


def test_embedding_gradient_reaches_used_rows():
    e = layers.Embedding(5, 2)
    e.build()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(e(tf.constant([1, 1, 3])))
    g = tf.convert_to_tensor(tape.gradient(loss, e.embeddings)).numpy()
    np.testing.assert_array_equal(g, [[0, 0], [2, 2], [0, 0], [1, 1], [0, 0]])


def test_merge_layers():
    a, b = tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 5.0]])
    assert layers.Add()([a, b]).numpy().tolist() == [[4.0, 7.0]]
    assert layers.Subtract()([a, b]).numpy().tolist() == [[-2.0, -3.0]]
    assert layers.Multiply()([a, b]).numpy().tolist() == [[3.0, 10.0]]
    assert layers.Average()([a, b]).numpy().tolist() == [[2.0, 3.5]]
    assert layers.Maximum()([a, b]).numpy().tolist() == [[3.0, 5.0]]
    assert layers.Minimum()([a, b]).numpy().tolist() == [[1.0, 2.0]]
    assert layers.Concatenate()([a, b]).numpy().tolist() == [[1.0, 2.0, 3.0, 5.0]]
    assert layers.Concatenate(axis=0)([a, b]).shape == (2, 2)
    with pytest.raises(ValueError, match="exactly 2 inputs"):
        layers.Subtract()([a, b, a])


def test_activation_layers_match_keras2():
    # Values and configs from tf_keras 2.21.
    x = tf.constant([-3.0, -1.0, 0.0, 0.5, 2.0, 8.0])
    assert tf.keras.layers.ReLU()(x).numpy().tolist() == [0.0, 0.0, 0.0, 0.5, 2.0, 8.0]
    general = tf.keras.layers.ReLU(max_value=6.0, negative_slope=0.1, threshold=1.0)
    np.testing.assert_allclose(general(x).numpy(), [-0.4, -0.2, -0.1, -0.05, 2.0, 6.0], rtol=1e-6)
    assert tf.keras.layers.ReLU(negative_slope=0.5)(x).numpy().tolist() == [-1.5, -0.5, 0.0, 0.5, 2.0, 8.0]
    np.testing.assert_allclose(tf.keras.layers.LeakyReLU()(x).numpy(), [-0.9, -0.3, 0.0, 0.5, 2.0, 8.0], rtol=1e-6)
    assert tf.keras.layers.LeakyReLU(alpha=2.0)(x).numpy().tolist() == [-6.0, -2.0, 0.0, 0.5, 2.0, 8.0]
    config = general.get_config()
    assert config["max_value"] == np.float32(6.0) and isinstance(config["threshold"], np.ndarray)
    assert tf.keras.layers.LeakyReLU().get_config()["alpha"] == np.float32(0.3)
    np.testing.assert_allclose(tf.keras.layers.Softmax()(x[None]).numpy().sum(), 1.0, rtol=1e-6)
    with pytest.raises(ValueError, match="Cannot apply softmax to a tensor that is 1D"):
        tf.keras.layers.Softmax()(x)
    with pytest.raises(ValueError, match="max_value of a ReLU layer cannot be a negative value"):
        tf.keras.layers.ReLU(max_value=-1.0)


def test_dense_get_config_and_model_get_layer_as_keras2():
    # tf_keras 2.21's config of Dense(3, name="d").
    assert tf.keras.layers.Dense(3, name="d").get_config() == {
        "name": "d", "trainable": True, "dtype": "float32", "units": 3, "activation": "linear", "use_bias": True,
        "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform",
                               "config": {"seed": None}, "registered_name": None},
        "bias_initializer": {"module": "keras.initializers", "class_name": "Zeros", "config": {},
                             "registered_name": None},
        "kernel_regularizer": None, "bias_regularizer": None, "activity_regularizer": None,
        "kernel_constraint": None, "bias_constraint": None}
    inputs = tf.keras.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, name="hidden")
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(2, name="out")(hidden(inputs)))
    assert model.get_layer("hidden") is hidden and model.get_layer(index=1) is hidden
    with pytest.raises(ValueError, match=r"No such layer: nope. Existing layers are: \['input_\d+', 'hidden', 'out'\]."):
        model.get_layer("nope")
    with pytest.raises(ValueError, match="Provide either a layer name or layer index at `get_layer`."):
        model.get_layer()
