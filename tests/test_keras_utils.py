"""tf.keras.utils NumPy helpers, checked against tf_keras's outputs for the same calls."""
import numpy as np
import pytest

import eagerflow as tf

U = tf.keras.utils


def test_to_categorical():
    np.testing.assert_array_equal(U.to_categorical([0, 2, 1]), [[1, 0, 0], [0, 0, 1], [0, 1, 0]])
    assert U.to_categorical(np.array([[1], [3]]), num_classes=4).shape == (2, 4)  # trailing 1 dropped
    assert U.to_categorical([1, 2]).dtype == np.float32
    assert U.to_categorical([[0, 1], [1, 0]]).shape == (2, 2, 2)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 3"):
        U.to_categorical([0, 5], num_classes=3)


def test_pad_sequences_and_normalize():
    np.testing.assert_array_equal(U.pad_sequences([[1, 2, 3], [4]], maxlen=2), [[2, 3], [0, 4]])
    np.testing.assert_array_equal(U.pad_sequences([[1, 2], [3]], padding="post", value=9), [[1, 2], [3, 9]])
    np.testing.assert_array_equal(U.pad_sequences([[1, 2, 3]], maxlen=2, truncating="post"), [[1, 2]])
    assert U.pad_sequences([[1.5], []], dtype="float32").dtype == np.float32
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        U.pad_sequences([[1]], padding="mid")
    np.testing.assert_allclose(U.normalize(np.array([[3.0, 4.0], [0.0, 0.0]])), [[0.6, 0.8], [0.0, 0.0]])


def test_set_random_seed_makes_numpy_and_tf_repeatable():
    U.set_random_seed(3)
    a, t = np.random.rand(), tf.random.uniform([2]).numpy()
    U.set_random_seed(3)
    assert a == np.random.rand()
    np.testing.assert_array_equal(t, tf.random.uniform([2]).numpy())
    with pytest.raises(ValueError, match="Expected `seed` argument to be an integer"):
        U.set_random_seed(1.5)
