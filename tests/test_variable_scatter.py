"""Variable updates of parts: sliced assignment (v[...].assign, ResourceStridedSliceAssign),
scatter_nd_update/add/sub/min/max (ResourceScatterNd*) and scatter_update/add/... with
IndexedSlices-like deltas (ResourceScatter*): against NumPy, TF's results and errors (recorded
from TensorFlow 2.21), in tf.function, and under concurrent updates."""
import threading

import numpy as np
import pytest

import eagerflow as tf


class Slices:
    """What the scatter methods read of a tf.IndexedSlices."""

    def __init__(self, values, indices):
        self.values, self.indices, self.dense_shape = values, indices, None


KEYS = [(0, 1), (slice(None), 2), 0, (slice(None, None, -1), slice(1, None)), (Ellipsis, 1),
        (1, slice(None, None, 2)), (slice(0, 1), None, slice(1, 3)), -1]


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_sliced_assign_matches_numpy(key):
    start = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = tf.Variable(start)
    shape = start[key].shape
    value = np.arange(100, 100 + int(np.prod(shape)), dtype=np.float32).reshape(shape)
    result = v[key].assign(value)
    want = start.copy()
    want[key] = value
    np.testing.assert_array_equal(v.numpy(), want)
    assert result.name == "UnreadVariable"
    np.testing.assert_array_equal(result.numpy(), want)


def test_sliced_assign_as_tf():
    v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
    assert repr(v[0, 1].assign(10.)) == ("<tf.Variable 'UnreadVariable' shape=(2, 3) dtype=float32, numpy=\n"
                                         "array([[ 1., 10.,  3.],\n       [ 4.,  5.,  6.]], dtype=float32)>")
    v[0].assign([7., 8., 9.])
    v[::-1, 1:].assign([[1., 2.], [3., 4.]])
    assert v.numpy().tolist() == [[7, 3, 4], [4, 1, 2]]
    v[0, 1].assign(1)  # converted to the variable's dtype
    v[tf.constant(1)].assign(5.)  # broadcast into the slice
    assert v.numpy().tolist() == [[7, 1, 4], [5, 5, 5]]
    assert v[0, 1].numpy() == 1


def test_sliced_assign_errors_as_tf():
    v = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot broadcast input shape \[2\] into final shape \[\] \[Op:ResourceStridedSliceAssign\]"):
        v[0, 1].assign([1., 2.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 5 of dimension 0 out of bounds"):
        v[5].assign([1., 2., 3.])
    with pytest.raises(TypeError, match=r"assign\(\) got an unexpected keyword argument 'read_value'"):
        v[0, 1].assign(3., read_value=False)
    # only a slice of the variable itself has assign (TF: AttributeError for the others)
    with pytest.raises(AttributeError, match="has no attribute 'assign'"):
        v[..., tf.newaxis][0].assign([[1.], [2.], [3.]])
    with pytest.raises(AttributeError):
        v[:, 2].assign_add([1., 1.])
    assert not hasattr(tf.constant([1.])[0], "assign")
    assert v.numpy().tolist() == [[1, 2, 3], [4, 5, 6]]


def test_sliced_assign_in_function():
    v = tf.Variable(np.zeros((3, 4), np.float32))

    @tf.function
    def f(row, value):
        v[row, 1:3].assign(value)
        v[:, 0].assign(tf.ones([3]))
        return v.read_value()

    got = f(tf.constant(2), tf.constant([5., 6.]))
    want = np.zeros((3, 4), np.float32)
    want[2, 1:3] = [5, 6]
    want[:, 0] = 1
    np.testing.assert_array_equal(got.numpy(), want)
    f(tf.constant(0), tf.constant([7., 8.]))
    want[0, 1:3] = [7, 8]
    np.testing.assert_array_equal(v.numpy(), want)
    ops = [op.type for op in f.get_concrete_function(tf.constant(0), tf.constant([1., 1.])).graph.get_operations()]
    assert "ResourceStridedSliceAssign" in ops


def test_scatter_nd_methods_as_tf():
    v = tf.Variable([[7., 1., 4.], [4., 1., 2.]])
    assert repr(v.scatter_nd_update([[0, 1], [1, 2]], [100., 200.])) == (
        "<tf.Variable 'UnreadVariable' shape=(2, 3) dtype=float32, numpy=\narray([[  7., 100.,   4.],\n"
        "       [  4.,   1., 200.]], dtype=float32)>")
    assert v.scatter_nd_add([[0, 1], [1, 2]], [1., 2.]).numpy().tolist() == [[7, 101, 4], [4, 1, 202]]
    assert v.scatter_nd_sub([[0, 1]], [1.]).numpy().tolist() == [[7, 100, 4], [4, 1, 202]]
    assert v.scatter_nd_update([[0, 1]], [1]).numpy().tolist() == [[7, 1, 4], [4, 1, 202]]
    assert v.scatter_nd_max([[1]], [[5., 0., 300.]]).numpy().tolist() == [[7, 1, 4], [5, 1, 300]]
    assert v.scatter_nd_min([[1, 2]], [-1.]).numpy().tolist() == [[7, 1, 4], [5, 1, -1]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[0\] = \[2, 1\] does not index into shape \[2,3\] \[Op:ResourceScatterNdUpdate\]"):
        v.scatter_nd_update([[2, 1]], [1.])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[2, 1\] does not index into shape"):
        v.scatter_nd_add([[2, 1]], [1.])


def test_scatter_methods_as_tf():
    v = tf.Variable([[100., 1., 1.], [4., 1., 202.]])
    assert v.scatter_update(Slices(tf.constant([[1., 1., 1.]]), tf.constant([0]))).numpy().tolist() == [
        [1, 1, 1], [4, 1, 202]]
    assert v.scatter_add(Slices(tf.constant([[1., 1., 1.]]), tf.constant([0]))).numpy()[0].tolist() == [2, 2, 2]
    assert v.scatter_sub(Slices([[1., 1., 1.]], [0])).numpy()[0].tolist() == [1, 1, 1]
    assert v.scatter_max(Slices([[100., 1., 1.]], [0])).numpy()[0].tolist() == [100, 1, 1]
    assert v.scatter_min(Slices([[100., 1., 0.]], [0])).numpy()[0].tolist() == [100, 1, 0]
    assert v.scatter_mul(Slices([[2., 2., 2.]], [0])).numpy()[0].tolist() == [200, 2, 0]
    assert v.scatter_div(Slices([[2., 2., 2.]], [0])).numpy()[0].tolist() == [100, 1, 0]
    assert v.scatter_add(Slices(1., [1, 1])).numpy()[1].tolist() == [6, 3, 204]  # scalar updates every element
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 2 is not in \[0, 2\)"):
        v.scatter_update(Slices([[1., 1., 1.]], [2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Must have updates.shape = indices.shape \+ params.shape\[1:\] or updates.shape = \[\], "
                             r"got updates.shape \[2\], indices.shape \[1,2\], params.shape \[2,3\]"):
        v.scatter_update(Slices([5., 6.], [[0, 1]]))
    with pytest.raises(TypeError, match=r"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: \[1, 2\]"):
        v.scatter_update([1, 2])


def test_scatter_in_function_and_concurrently():
    v = tf.Variable(np.zeros(4, np.int64))

    @tf.function
    def step(i):
        v.scatter_nd_add(tf.reshape(i, [1, 1]), tf.constant([1], tf.int64))
        v.scatter_add(Slices(tf.constant([10], tf.int64), tf.reshape(i, [1])))

    def worker(i):
        for _ in range(200):
            step(tf.constant(i % 4))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert v.numpy().tolist() == [4400] * 4  # no update lost: each holds the variable's lock
