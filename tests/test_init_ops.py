"""TF 2's core initializers: values (a seeded random one gives TF 2.21's numbers: the stateless ops
with seed [seed, 0]), configs and TF's argument errors."""
import numpy as np
import pytest

import eagerflow as tf


def test_values_as_tf():
    assert tf.zeros_initializer()([2, 3]).numpy().tolist() == [[0.0] * 3] * 2
    ones = tf.ones_initializer()([2], tf.int32)
    assert ones.dtype == tf.int32 and ones.numpy().tolist() == [1, 1]
    assert tf.constant_initializer([1, 2, 3, 4])([2, 2], tf.float32).numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    seven = tf.constant_initializer(7)((3,))
    assert seven.dtype == tf.int32 and seven.numpy().tolist() == [7, 7, 7]
    # TF 2.21's numbers for the same seeds.
    assert tf.random_normal_initializer(seed=3)([2, 2]).numpy().tolist() == [
        [-0.03357924148440361, 0.08380252122879028], [-0.04721227288246155, 0.030396947637200356]]
    assert tf.random_normal_initializer(1.0, 2.0, seed=0)([3], tf.float64).numpy().tolist() == [
        2.0119572338495466, -0.4022228214767072, 1.9061890735564504]
    assert tf.random_uniform_initializer(seed=5)([3]).numpy().tolist() == [
        -0.04381467029452324, 0.03316691145300865, 0.0473577119410038]
    assert tf.random_uniform_initializer(0, 10, seed=5)([4], tf.int32).numpy().tolist() == [3, 0, 7, 9]
    unseeded = tf.random_uniform_initializer(-1.0, 1.0)([1000]).numpy()
    assert -1 <= unseeded.min() and unseeded.max() < 1 and len(set(unseeded.tolist())) > 900


def test_configs():
    assert tf.random_uniform_initializer(-1, 1, seed=1).get_config() == {"minval": -1, "maxval": 1, "seed": 1}
    assert tf.constant_initializer(3).get_config() == {"value": 3} and tf.zeros_initializer().get_config() == {}
    init = tf.random_normal_initializer.from_config({"mean": 1.0, "stddev": 0.5, "seed": 2, "dtype": "float32"})
    assert init.get_config() == {"mean": 1.0, "stddev": 0.5, "seed": 2}
    np.testing.assert_array_equal(init([3]).numpy(), tf.random_normal_initializer(1.0, 0.5, seed=2)([3]).numpy())


@pytest.mark.parametrize("call, cls, message", [
    (lambda: tf.zeros_initializer()([2], tf.string), ValueError,
     "Argument `dtype` expected to be numeric or boolean. Received <dtype: 'string'>."),
    (lambda: tf.random_normal_initializer()([2], tf.int32), ValueError,
     "Argument `dtype` is expected to be floating point. Received: <dtype: 'int32'>."),
    (lambda: tf.random_uniform_initializer()([2], tf.bool), ValueError,
     "Argument `dtype` expected to be numeric or boolean. Received <dtype: 'bool'>."),
    (lambda: tf.constant_initializer({1: 2}), TypeError,
     "Invalid type for initial value: dict. Expected Python scalar, list or tuple of values, or numpy.ndarray."),
    (lambda: tf.zeros_initializer()([2], foo=1), TypeError,
     "Keyword argument should be one of ['partition_shape', 'partition_offset']. Received: foo"),
    (lambda: tf.constant_initializer(1)([2], partition_shape=[1]), ValueError,
     "Constant initializer doesn't support partition-related arguments"),
])
def test_errors_as_tf(call, cls, message):
    with pytest.raises(cls) as e:
        call()
    assert str(e.value) == message
