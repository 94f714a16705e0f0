"""tf.nn.embedding_lookup (sharded params, max_norm) and tf.math.log_sigmoid's stability, against
values from TF 2.21."""
import numpy as np
import pytest

import eagerflow as tf

P = tf.reshape(tf.range(12.0), [4, 3])


def test_lookup_and_sharded_params():
    assert tf.nn.embedding_lookup(P, [[0, 3], [2, 2]]).numpy().tolist() == [
        [[0, 1, 2], [9, 10, 11]], [[6, 7, 8], [6, 7, 8]]]
    assert tf.nn.embedding_lookup([P[:2], P[2:]], [1, 3, 2]).numpy().tolist() == [[3, 4, 5], [9, 10, 11], [6, 7, 8]]
    shards = [tf.reshape(tf.range(9.0), [3, 3]), tf.reshape(tf.range(6.0), [2, 3])]
    assert tf.nn.embedding_lookup(shards, [0, 3, 4]).numpy().tolist() == [[0, 1, 2], [0, 1, 2], [3, 4, 5]]


def test_max_norm_clips_each_embedding():
    np.testing.assert_allclose(tf.nn.embedding_lookup(P, [1, 3], max_norm=5.0).numpy(),
                               [[2.12132, 2.828427, 3.535534], [2.589459, 2.877177, 3.164894]], rtol=1e-5)
    got = tf.nn.embedding_lookup(tf.reshape(tf.range(24.0), [4, 3, 2]), [1], max_norm=10.0).numpy().ravel()
    np.testing.assert_allclose(got, [2.825289, 3.296171, 3.767053, 4.237935, 4.708816, 5.179698], rtol=1e-5)


def test_lookup_gradient_and_errors():
    v = tf.Variable(P)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.embedding_lookup(v, [1, 1, 3]) ** 2)
    np.testing.assert_allclose(tf.convert_to_tensor(tape.gradient(loss, v)).numpy(),
                               [[0, 0, 0], [12, 16, 20], [0, 0, 0], [18, 20, 22]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 5 is not in \[0, 4\)"):
        tf.nn.embedding_lookup(P, [5])
    with pytest.raises(ValueError, match="Length of params is currently 0. Need at least one param."):
        tf.nn.embedding_lookup([], [1])


def test_log_sigmoid_is_stable_with_its_gradient():
    x = tf.constant([-1000.0, -50.0, 0.0, 50.0, 1000.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log_sigmoid(x)
    np.testing.assert_allclose(y.numpy(), [-1000.0, -50.0, -0.6931472, -1.9287499e-22, 0.0], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, 1.0, 0.5, 1.9287499e-22, 0.0], rtol=1e-6)
