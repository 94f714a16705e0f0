"""Lists holding graph tensors convert by packing (TF's auto-packing), and opaque tensors print."""
import numpy as np
import pytest

import eagerflow as tf


def test_list_with_symbolic_tensors_packs_inside_function():
    @tf.function
    def f(x, i):
        return tf.concat([x, [i]], 0), tf.convert_to_tensor([i, 2]), tf.reshape(x, [-1, tf.shape(x)[0]])
    a, b, c = f(tf.constant([1, 2]), tf.constant(5))
    assert a.numpy().tolist() == [1, 2, 5]
    assert b.numpy().tolist() == [5, 2] and b.dtype == tf.int32
    assert c.shape == (1, 2)


def test_nested_list_and_dtype_request():
    @tf.function
    def f(x):
        return tf.convert_to_tensor([[x, 1.0], [2.0, x]]), tf.convert_to_tensor([x, 3], dtype=tf.float32)
    a, b = f(tf.constant(4.0))
    np.testing.assert_array_equal(a.numpy(), [[4.0, 1.0], [2.0, 4.0]])
    np.testing.assert_array_equal(b.numpy(), [4.0, 3.0])


def test_mixed_dtypes_in_packed_list_raise():
    @tf.function
    def f(x, y):
        return tf.convert_to_tensor([x, y])
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype <dtype: 'float32'> to "
                                        "<dtype: 'int32'>"):
        f(tf.constant(1), tf.constant(1.0))


def test_opaque_tensors_print_without_numpy():
    flow = tf.TensorArray(tf.float32, size=1).flow
    assert repr(flow) == "<tf.Tensor: shape=(), dtype=variant, value=<TensorList>>"
    assert str(flow) == "tf.Tensor(<TensorList>, shape=(), dtype=variant)"
    assert "dtype=resource" in repr(tf.Variable(1.0).handle)
