"""tf.keras.losses cross entropies and MAE: figures from TF 2.21 with tf_keras (Keras 2), and
NumPy references for random inputs."""
import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.losses
YT = [[0, 1, 0], [0, 0, 1]]
YP = [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]


@pytest.mark.parametrize("loss, args, kwargs, want", [
    (L.CategoricalCrossentropy(), (YT, YP), {}, 1.1769392),
    (L.CategoricalCrossentropy(from_logits=True), (YT, YP), {}, 0.9868951),
    (L.CategoricalCrossentropy(label_smoothing=0.1), (YT, YP), {}, 1.4591359),
    (L.SparseCategoricalCrossentropy(), ([1, 2], YP), {}, 1.1769392),
    (L.SparseCategoricalCrossentropy(from_logits=True), ([1, 2], YP), {"sample_weight": [0.3, 0.7]}, 0.5740138),
    (L.SparseCategoricalCrossentropy(reduction="sum"), ([[1], [2]], YP), {}, 2.3538785),
    (L.BinaryCrossentropy(), ([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]]), {}, 0.81492424),
    (L.BinaryCrossentropy(from_logits=True), ([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]]), {}, 0.87525165),
    (L.BinaryCrossentropy(label_smoothing=0.2), ([[0., 1.], [0., 0.]], [[0.6, 0.4], [0.4, 0.6]]), {}, 0.794651),
    (L.MeanAbsoluteError(), ([[0., 1.], [0., 0.]], [[1., 1.], [1., 0.]]), {}, 0.5),
])
def test_losses_as_tf(loss, args, kwargs, want):
    np.testing.assert_allclose(loss(*args, **kwargs).numpy(), want, rtol=1e-6)


def test_functions_and_names():
    np.testing.assert_allclose(L.categorical_crossentropy(YT, YP).numpy(), [0.05129331, 2.3025851], rtol=1e-5)
    np.testing.assert_allclose(L.sparse_categorical_crossentropy([1, 2], YP).numpy(), [0.05129344, 2.3025851],
                               rtol=1e-5)
    assert L.MAE is L.mae is L.mean_absolute_error
    s = L.SparseCategoricalCrossentropy()
    assert (s.name, s.reduction) == ("sparse_categorical_crossentropy", "auto")
    np.testing.assert_allclose(L.SparseCategoricalCrossentropy(reduction="none")([1, 2], YP).numpy(),
                               [0.05129344, 2.3025851], rtol=1e-5)


def test_sparse_categorical_from_logits_matches_numpy():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((32, 10)).astype(np.float32)
    labels = rng.integers(0, 10, 32)
    z = logits - logits.max(1, keepdims=True)
    want = np.mean(np.log(np.exp(z).sum(1)) - z[np.arange(32), labels])
    got = L.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


def test_gradient_through_loss():
    w = tf.Variable(tf.zeros([3, 2]))
    x = tf.constant([[1., 2., 3.], [0., 1., 0.]])
    with tf.GradientTape() as tape:
        loss = L.SparseCategoricalCrossentropy(from_logits=True)([0, 1], tf.matmul(x, w))
    g = tape.gradient(loss, w).numpy()
    # d/dlogits = (softmax - onehot) / batch; softmax of zeros is uniform.
    dlogits = (np.full((2, 2), 0.5) - np.eye(2)) / 2
    np.testing.assert_allclose(g, x.numpy().T @ dlogits, rtol=1e-6)


def test_sparse_crossentropy_takes_uint8_labels():
    # MNIST's labels are uint8; Keras casts them to int64
    logits = tf.constant([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    got = tf.keras.losses.sparse_categorical_crossentropy(np.array([0, 2], np.uint8), logits, from_logits=True)
    want = tf.keras.losses.sparse_categorical_crossentropy(np.array([0, 2], np.int64), logits, from_logits=True)
    np.testing.assert_allclose(got.numpy(), want.numpy())
