"""keras BatchNormalization and LayerNormalization against NumPy and figures from TF 2.21 (tf_keras)."""
import numpy as np

import eagerflow as tf

layers = tf.keras.layers
rng = np.random.default_rng(0)
X4 = rng.standard_normal((2, 3, 3, 2)).astype(np.float32)
X2 = rng.standard_normal((5, 2)).astype(np.float32)


def test_batch_norm_training_and_moving_statistics_as_tf():
    bn = layers.BatchNormalization()
    y = bn(X4, training=True)
    np.testing.assert_allclose(bn.moving_mean.numpy(), [-0.00308, 0.00091], atol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), [0.99714, 0.9945], atol=1e-5)  # unbiased (fused) here
    np.testing.assert_allclose(float(tf.reduce_sum(y * y)), 35.931, atol=1e-3)
    np.testing.assert_allclose(bn(X4).numpy().ravel()[:3], [0.1289, -0.1333, 0.6441], atol=1e-4)
    bn2 = layers.BatchNormalization()
    bn2(X2, training=True)
    np.testing.assert_allclose(bn2.moving_variance.numpy(), [0.99892, 0.99602], atol=1e-5)  # biased for 2-D
    assert len(bn.weights) == 4 and len(bn.trainable_weights) == 2


def test_batch_norm_training_output_matches_numpy():
    bn = layers.BatchNormalization(epsilon=1e-3)
    y = bn(X4, training=True).numpy()
    m, v = X4.mean((0, 1, 2)), X4.var((0, 1, 2))
    np.testing.assert_allclose(y, (X4 - m) / np.sqrt(v + 1e-3), rtol=1e-4, atol=1e-5)


def test_batch_norm_in_a_function_updates_moving_mean():
    bn = layers.BatchNormalization(momentum=0.5)
    x = tf.constant(X2 + 3.0)

    @tf.function
    def step():
        return bn(x, training=True)

    for _ in range(3):
        step()
    np.testing.assert_allclose(bn.moving_mean.numpy(), (X2 + 3.0).mean(0) * (1 - 0.5 ** 3), rtol=1e-5)


def test_layer_norm():
    ln = layers.LayerNormalization()
    y = ln(X2).numpy()
    m, v = X2.mean(1, keepdims=True), X2.var(1, keepdims=True)
    np.testing.assert_allclose(y, (X2 - m) / np.sqrt(v + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(y[0], [-0.9928, 0.9928], atol=1e-4)
    assert len(ln.weights) == 2
