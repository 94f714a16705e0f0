"""Bad sizes never wrap around: they raise ResourceExhaustedError."""
import pytest

import eagerflow as tf


@pytest.mark.parametrize("shape", [[2 ** 62, 4], [2 ** 40, 2 ** 40], [10 ** 6, 10 ** 6, 10 ** 6]])
def test_overflowing_sizes_are_resource_exhausted(shape):
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.ones(shape)
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.zeros(shape)


def test_zero_sized_dims_with_huge_others_are_fine():
    assert tf.zeros([0, 2 ** 62]).shape == [0, 2 ** 62]
