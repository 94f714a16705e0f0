"""tf.roll against np.roll (eager and traced), its gradient (the output gradient rolled back), TF's errors;
tf.shape_n."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("shape,shift,axis", [((5,), 2, 0), ((5,), -7, 0), ((2, 3), [1, -1], [0, 1]),
                                              ((2, 3, 4), [5, 2], [-1, 0]), ((4,), [1, 1], [0, 0]), ((0,), 3, 0),
                                              ((3, 4), 0, 1)])
def test_roll_matches_numpy(shape, shift, axis):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    want = np.roll(x, shift, axis)
    np.testing.assert_array_equal(tf.roll(x, shift, axis).numpy(), want)
    traced = tf.function(lambda t, s: tf.roll(t, s, axis))
    np.testing.assert_array_equal(traced(tf.constant(x), tf.constant(shift)).numpy(), want)


def test_roll_gradient_is_dense_and_rolled_back():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        y = tf.roll(x, 1, 0) * [1.0, 2.0, 3.0]
    g = t.gradient(y, x)
    assert isinstance(g, tf.Tensor) and g.numpy().tolist() == [2.0, 3.0, 1.0]  # TF 2.21's value


def test_roll_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shift and axis must have the same size \[Op:Roll\]"):
        tf.roll(tf.range(5), shift=[1, 2], axis=[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"axis 1 is out of range \[Op:Roll\]"):
        tf.roll(tf.range(5), shift=1, axis=1)


def test_shape_n():
    a, b = tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])], out_type=tf.int64)
    assert a.numpy().tolist() == [2, 3] and b.numpy().tolist() == [4] and a.dtype == tf.int64
