"""tf.sparse concat, slice, reshape, transpose, expand_dims, retain, reduce_max and map_values, with
the values TF 2.21 gives."""
import numpy as np
import pytest

import eagerflow as tf


def _st():
    return tf.SparseTensor([[0, 1], [1, 0], [1, 2]], [3.0, -1.0, 4.0], [2, 3])


def _dense(st):
    return tf.sparse.to_dense(st).numpy().tolist()


def test_expand_dims():
    st = tf.sparse.expand_dims(_st(), 1)
    assert st.indices.numpy().tolist() == [[0, 0, 1], [1, 0, 0], [1, 0, 2]]
    assert st.dense_shape.numpy().tolist() == [2, 1, 3]


def test_reduce_max_skips_implicit_zeros():
    assert tf.sparse.reduce_max(_st(), axis=1, keepdims=True).numpy().tolist() == [[3.0], [4.0]]
    assert tf.sparse.reduce_max(_st()).numpy() == 4.0
    neg = tf.SparseTensor([[0, 0], [1, 1]], [-5, -2], [2, 3])
    assert tf.sparse.reduce_max(neg, axis=0).numpy().tolist() == [-5, -2, 0]  # an empty column gives 0


def test_reshape_concat_slice_transpose():
    assert _dense(tf.sparse.reshape(_st(), [3, -1])) == [[0.0, 3.0], [0.0, -1.0], [0.0, 4.0]]
    assert _dense(tf.sparse.concat(0, [_st(), _st()])) == [[0.0, 3.0, 0.0], [-1.0, 0.0, 4.0]] * 2
    assert _dense(tf.sparse.slice(_st(), [1, 1], [1, 2])) == [[0.0, 4.0]]
    t = tf.sparse.transpose(tf.SparseTensor([[0, 2], [1, 0]], [1, 2], [2, 3]))
    assert t.indices.numpy().tolist() == [[0, 1], [2, 0]] and t.values.numpy().tolist() == [2, 1]
    c = tf.sparse.concat(1, [tf.SparseTensor([[1, 0]], [1], [2, 2]), tf.SparseTensor([[0, 1]], [2], [2, 3])])
    assert c.indices.numpy().tolist() == [[0, 3], [1, 0]] and c.dense_shape.numpy().tolist() == [2, 5]


def test_against_numpy():
    rng = np.random.default_rng(0)
    d = rng.integers(-3, 3, size=(3, 4)) * (rng.random((3, 4)) < 0.5)
    st = tf.sparse.from_dense(d)
    assert _dense(tf.sparse.transpose(st)) == d.T.tolist()
    assert _dense(tf.sparse.reshape(st, [2, 6])) == d.reshape(2, 6).tolist()
    assert _dense(tf.sparse.slice(st, [1, 2], [5, 5])) == d[1:, 2:].tolist()
    assert _dense(tf.sparse.concat(1, [st, st])) == np.concatenate([d, d], 1).tolist()
    keep = st.values.numpy() > 0
    assert _dense(tf.sparse.retain(st, keep)) == np.where(d > 0, d, 0).tolist()


def test_map_values():
    assert tf.sparse.map_values(tf.multiply, _st(), _st()).values.numpy().tolist() == [9.0, 1.0, 16.0]
    with pytest.raises(ValueError, match="No SparseTensor in argument list of map_values"):
        tf.sparse.map_values(tf.abs, 1.0)


def test_broadcast_dynamic_shape():
    assert tf.broadcast_dynamic_shape(tf.constant([3, 1]), [2, 1, 4]).numpy().tolist() == [2, 3, 4]
    assert tf.broadcast_dynamic_shape(tf.constant([1], tf.int64), tf.constant([5, 2], tf.int64)).dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[4\]"):
        tf.broadcast_dynamic_shape([3], [4])

    @tf.function
    def f(a, b):
        out = tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))
        assert out.shape.as_list() == [2]
        return out
    assert f(tf.zeros([3, 1]), tf.zeros([1, 5])).numpy().tolist() == [3, 5]
