"""Bad sizes never wrap around: more than 2**63 - 1 elements is InvalidArgumentError (TF's
TensorShape check), a representable but impossible size ResourceExhaustedError."""
import pytest

import eagerflow as tf


@pytest.mark.parametrize("shape", [[2 ** 62, 4], [2 ** 40, 2 ** 40]])
def test_shapes_beyond_int64_are_invalid(shape):
    for make in (tf.ones, tf.zeros, lambda s: tf.fill(s, 1.0), lambda s: tf.broadcast_to(1.0, s)):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"would have more than 2\*\*63 - 1 elements"):
            make(shape)


def test_output_dims_beyond_int64_are_invalid():
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit in int64"):
        tf.tile(tf.ones([2, 2]), [2 ** 63 - 1, 0])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.tile(tf.ones([2, 2]), [2 ** 62, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not fit in int64"):
        tf.pad(tf.ones([2]), [[2 ** 63 - 1, 1]])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.pad(tf.ones([2]), [[2 ** 62, 2 ** 62]])


def test_representable_but_impossible_sizes_are_resource_exhausted():
    shape = [10 ** 6, 10 ** 6, 10 ** 6]
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.ones(shape)
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.zeros(shape)


def test_zero_sized_dims_with_huge_others_are_fine():
    assert tf.zeros([0, 2 ** 62]).shape == [0, 2 ** 62]
