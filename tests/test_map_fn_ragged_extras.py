"""tf.map_fn (eager, traced with known and unknown row counts, ragged), tf.tile of a RaggedTensor,
RaggedTensor.to_sparse / from_sparse and tf.ragged.stack (values as TF 2.21 gives them)."""
import numpy as np
import pytest

import eagerflow as tf


def test_map_fn_dense_and_structures():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(tf.map_fn(lambda r: r * 2, tf.constant(x)).numpy(), x * 2)
    a, b = tf.map_fn(lambda t: (t[0] + t[1], t[0] * t[1]), (tf.constant([1, 2]), tf.constant([3, 4])),
                     fn_output_signature=(tf.int32, tf.int32))
    assert a.numpy().tolist() == [4, 6] and b.numpy().tolist() == [3, 8]
    assert tf.map_fn(tf.reduce_sum, tf.constant(x)).numpy().tolist() == [1.0, 5.0, 9.0]
    with pytest.raises(TypeError, match="is not callable"):
        tf.map_fn(3, tf.constant(x))


def test_map_fn_in_functions():
    @tf.function
    def f(v):
        return tf.map_fn(lambda r: r * r, v)
    assert f(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [1.0, 4.0, 9.0]
    g = tf.function(lambda v: tf.map_fn(lambda r: r + 1, v),
                    input_signature=[tf.TensorSpec([None], tf.int32)])
    assert g(tf.constant([1, 2, 3, 4])).numpy().tolist() == [2, 3, 4, 5]  # rows known only at run time


def test_map_fn_over_ragged_rows():
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    out = tf.map_fn(tf.math.square, digits)
    assert isinstance(out, tf.RaggedTensor)
    assert out.to_list() == [[9, 1, 16, 1], [], [25, 81, 4], [36], []]
    sums = tf.map_fn(tf.reduce_sum, digits, fn_output_signature=tf.int32)
    assert sums.numpy().tolist() == [9, 0, 16, 6, 0]


def test_tile_ragged():
    digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    assert tf.tile(digits, [1, 2]).to_list() == [[3, 1, 4, 1, 3, 1, 4, 1], [], [5, 9, 2, 5, 9, 2], [6, 6], []]
    assert tf.tile(tf.ragged.constant([[1, 2], [3]]), [2, 1]).to_list() == [[1, 2], [3], [1, 2], [3]]
    assert tf.tile(tf.ragged.constant([[1, 2], [3]]), [2, 3]).to_list() == [[1, 2, 1, 2, 1, 2], [3, 3, 3]] * 2


def test_to_sparse_from_sparse_round_trip():
    rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
    st = rt.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [2, 0], [2, 1], [2, 2], [3, 0]]
    assert st.dense_shape.numpy().tolist() == [5, 4]
    assert tf.RaggedTensor.from_sparse(st).to_list() == rt.to_list()
    nested = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]])
    assert nested.to_sparse().indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1],
                                                           [1, 0, 2]]


def test_ragged_stack():
    out = tf.ragged.stack([tf.ragged.constant([[1, 2]]), tf.ragged.constant([[3]])])
    assert out.to_list() == [[[1, 2]], [[3]]]
    assert tf.ragged.stack([tf.constant([1, 2]), tf.constant([3, 4])]).to_list() == [[1, 2], [3, 4]]


def test_map_fn_over_a_tensor_array_is_a_type_error():
    ta = tf.TensorArray(tf.float64, size=3, element_shape=tf.TensorShape([2]))
    with pytest.raises(TypeError, match="not a TensorArray"):
        tf.map_fn(lambda x: x, ta)
