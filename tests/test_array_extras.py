"""tf.repeat, tf.meshgrid, tf.is_tensor, tf.broadcast_static_shape, tf.clip_by_global_norm and
tf.linalg.global_norm: against NumPy and values printed by TF 2.21 for the same calls."""
import numpy as np
import pytest

import eagerflow as tf


def test_repeat_matches_numpy_eagerly_and_in_graphs():
    x = np.arange(6).reshape(2, 3)
    for repeats, axis in [(2, None), (3, 0), (2, 1), ([1, 2], 0), ([0, 2, 1], 1), ([1, 0, 2, 1, 0, 3], None)]:
        want = np.repeat(x, repeats, axis=axis)
        np.testing.assert_array_equal(tf.repeat(x, repeats, axis=axis).numpy(), want)
        np.testing.assert_array_equal(tf.function(lambda t: tf.repeat(t, repeats, axis=axis))(x).numpy(), want)
    t = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.reduce_sum(tf.repeat(t, [2, 3]))
    np.testing.assert_array_equal(tape.gradient(y, t).numpy(), [2.0, 3.0])
    with pytest.raises(ValueError, match="axis=2 out of bounds"):
        tf.repeat(x, 2, axis=2)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_matches_numpy(indexing):
    args = [np.arange(2), np.arange(3) * 10, np.arange(4) * 100]
    for n in (1, 2, 3):
        got = tf.meshgrid(*args[:n], indexing=indexing)
        want = np.meshgrid(*args[:n], indexing=indexing)
        assert len(got) == n
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.numpy(), w)
    with pytest.raises(ValueError, match="Argument `indexing` parameter must be either 'xy' or 'ij', got 'x'"):
        tf.meshgrid([1], indexing="x")


def test_is_tensor_and_broadcast_static_shape():
    assert tf.is_tensor(tf.constant(1)) and tf.is_tensor(tf.Variable(1.0)) and not tf.is_tensor(np.ones(2))
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])) == tf.TensorShape([2, 3])
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([1, 3])).as_list() == [None, 3]
    with pytest.raises(ValueError, match=r"Incompatible shapes for broadcasting. .* Received: \(2,\) and \(3,\)."):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))


def test_clip_by_global_norm_values_from_tf():
    g, n = tf.clip_by_global_norm([tf.constant([3.0, 4.0]), None, tf.constant([12.0])], 1.0)
    np.testing.assert_allclose(g[0].numpy(), [0.23076925, 0.30769232], rtol=1e-6)
    assert g[1] is None and float(n) == 13.0
    np.testing.assert_allclose(g[2].numpy(), [0.923077], rtol=1e-6)
    g, n = tf.clip_by_global_norm([tf.constant([np.inf, 4.0])], 1.0)
    assert np.isnan(g[0].numpy()).all() and np.isinf(n.numpy())  # TF: NaN everywhere for an infinite norm
    g, n = tf.clip_by_global_norm([tf.constant([0.3, 0.4])], 1.0)
    np.testing.assert_allclose(g[0].numpy(), [0.3, 0.4], rtol=1e-6)
    assert float(tf.linalg.global_norm([tf.constant([3.0, 4.0])])) == 5.0
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors"):
        tf.clip_by_global_norm(tf.constant(1.0), 1.0)
