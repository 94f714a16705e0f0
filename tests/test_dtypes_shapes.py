"""tf.DType and tf.TensorShape behaviour."""
import numpy as np
import pytest

import eagerflow as tf


def test_dtype_properties():
    assert tf.float32.name == "float32" and repr(tf.float32) == "tf.float32"
    assert tf.float32.is_floating and not tf.float32.is_integer
    assert tf.int32.is_integer and not tf.int32.is_floating
    assert tf.float16.size == 2 and tf.float64.size == 8 and tf.int8.size == 1
    assert tf.int64.as_numpy_dtype is np.int64
    assert tf.bool.as_numpy_dtype is np.bool_
    assert tf.as_dtype("float32") is tf.float32
    assert tf.as_dtype(np.float64) is tf.float64
    assert tf.as_dtype(tf.int8) is tf.int8
    assert tf.float32 == "float32" and tf.float32 != tf.float64
    assert tf.uint8.max == 255 and tf.int8.min == -128
    assert tf.dtypes.float32 is tf.float32
    with pytest.raises(TypeError):
        tf.as_dtype("nope")


def test_tensor_shape():
    s = tf.TensorShape([2, None, 3])
    assert s.rank == 3 and s.as_list() == [2, None, 3]
    assert str(s) == "(2, None, 3)" and repr(s) == "TensorShape([2, None, 3])"
    assert s[0] == 2 and s[1] is None and s[1:] == [None, 3]
    assert not s.is_fully_defined() and s.num_elements() is None
    assert s.is_compatible_with([2, 5, 3]) and not s.is_compatible_with([2, 5])
    assert tf.TensorShape([1, 2]) == [1, 2] and tf.TensorShape([1, 2]) != [1, 3]
    u = tf.TensorShape(None)
    assert u.rank is None and str(u) == "<unknown>"
    with pytest.raises(ValueError):
        u.as_list()
    assert str(tf.TensorShape([4])) == "(4,)" and str(tf.TensorShape([])) == "()"
    assert tf.TensorShape([2, 3]).num_elements() == 6
    assert tf.TensorShape([None, 3]).merge_with([2, None]) == [2, 3]
