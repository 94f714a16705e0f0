"""tf.sequence_mask, tf.math.reciprocal_no_nan, tf.math.reduce_euclidean_norm, tf.linalg.normalize and
tf.math.l2_normalize against NumPy, with TF 2.21's dtypes and errors."""
import numpy as np
import pytest

import eagerflow as tf


def test_sequence_mask():
    got = tf.sequence_mask([1, 3, 2], 5)
    assert got.dtype == tf.bool
    np.testing.assert_array_equal(got.numpy(), np.arange(5)[None, :] < np.array([1, 3, 2])[:, None])
    lengths = np.array([[1, 3], [2, 0]])
    np.testing.assert_array_equal(tf.sequence_mask(lengths).numpy(), np.arange(3) < lengths[..., None])
    f = tf.sequence_mask([1, 3, 2], 4, dtype=tf.float32)
    assert f.dtype == tf.float32 and f.numpy().sum() == 6
    assert tf.sequence_mask(tf.constant([1, 3], tf.int64)).shape == [2, 3]
    assert tf.sequence_mask([1.5, 2.0]).numpy().all()  # float lengths: a float range, as TF's
    assert tf.sequence_mask([], 3).shape == [0, 3]
    with pytest.raises(ValueError, match=r"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = "
                                         r"\[3 4\] with shape '\(2,\)' instead"):
        tf.sequence_mask([1, 2], [3, 4])
    traced = tf.function(lambda v: tf.sequence_mask(v))(tf.constant([2, 1]))
    assert traced.numpy().tolist() == [[True, True], [True, False]]


def test_reciprocal_no_nan():
    got = tf.math.reciprocal_no_nan(np.array([2.0, 0.0, -0.0, np.inf], np.float32))
    assert got.dtype == tf.float32 and got.numpy().tolist() == [0.5, 0.0, 0.0, 0.0]
    assert tf.math.reciprocal_no_nan(np.array([0j, 2j])).numpy().tolist() == [0j, -0.5j]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list"):
        tf.math.reciprocal_no_nan([1, 2])


def test_reduce_euclidean_norm():
    x = np.array([[3.0, 4.0], [5.0, 12.0]], np.float32)
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(x).numpy(), np.sqrt((x * x).sum()), rtol=1e-6)
    assert tf.math.reduce_euclidean_norm(x, 1, keepdims=True).numpy().tolist() == [[5.0], [13.0]]
    ints = tf.math.reduce_euclidean_norm(np.array([[3, 4], [5, 12], [1, 1]], np.int32), axis=1)
    assert ints.dtype == tf.int32 and ints.numpy().tolist() == [5, 13, 1]  # the root truncated
    c = tf.math.reduce_euclidean_norm(np.array([3 + 4j]))
    assert c.dtype == tf.complex128 and c.numpy() == 5


def test_normalize_and_l2_normalize():
    x = np.array([[3.0, 4.0], [5.0, 12.0]], np.float32)
    unit, norm = tf.linalg.normalize(x)
    assert norm.shape == [1, 1]
    np.testing.assert_allclose(unit.numpy(), x / np.sqrt((x * x).sum()), rtol=1e-6)
    unit, norm = tf.linalg.normalize(x, axis=1)
    assert norm.numpy().tolist() == [[5.0], [13.0]]
    np.testing.assert_allclose(unit.numpy(), x / [[5.0], [13.0]], rtol=1e-6)
    _, n1 = tf.linalg.normalize(x, ord=1, axis=0)
    assert n1.numpy().tolist() == [[8.0, 16.0]]
    np.testing.assert_allclose(tf.math.l2_normalize([3.0, 4.0]).numpy(), [0.6, 0.8], rtol=1e-6)
    assert tf.math.l2_normalize is tf.nn.l2_normalize
