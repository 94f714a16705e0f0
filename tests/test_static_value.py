"""tf.get_static_value against TF 2.21's answers for the same tensors (eager values, the ops TF folds
from static shapes and constants, and None for everything else in a graph)."""
import numpy as np

import eagerflow as tf


def _same(got, want):
    if want is None:
        return got is None
    return got is not None and np.asarray(got).dtype == np.asarray(want).dtype and np.array_equal(got, want)


def test_eager_values_and_python_objects():
    assert _same(tf.get_static_value(tf.constant([1, 2])), np.array([1, 2], np.int32))
    assert tf.get_static_value(3) == 3 and tf.get_static_value([1, 2]) == [1, 2]
    assert tf.get_static_value(tf.Variable(30)) is None
    assert _same(tf.get_static_value(tf.constant(10) + tf.constant(20)), np.int32(30))


def test_graph_tensors():
    seen = {}

    @tf.function
    def f(x, y):
        sv = tf.get_static_value
        seen.update(
            arg=sv(x), shape=sv(tf.shape(x)), unknown_shape=sv(tf.shape(y)), add=sv(x + 1), rank=sv(tf.rank(x)),
            cast=sv(tf.cast(tf.shape(x), tf.float32)), concat=sv(tf.concat([tf.shape(x), [5]], 0)),
            pack=sv(tf.stack([tf.size(x), tf.size(y)])), unpack=sv(tf.unstack(tf.shape(x))[0]),
            identity=sv(tf.identity(tf.shape(x))), equal=sv(tf.equal(tf.shape(x), 2)),
            stop=sv(tf.stop_gradient(tf.rank(y))), split=sv(tf.split(tf.shape(x), 1)[0]),
            range=sv(tf.range(tf.size(x))))
        partial = sv(tf.stack([tf.size(x), tf.size(y)]), partial=True)
        seen.update(partial=[int(partial[0]), partial[1]])
        return x
    f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([None, 3], tf.float32))
    want = dict(arg=None, shape=np.array([2], np.int32), unknown_shape=None, add=None, rank=np.array(1, np.int32),
                cast=np.array([2.0], np.float32), concat=np.array([2, 5], np.int32), pack=None,
                unpack=np.int32(2), identity=np.array([2], np.int32), equal=np.array([True]),
                stop=np.array(2, np.int32), split=np.array([2], np.int32), range=np.array([0, 1], np.int32))
    for k, v in want.items():
        assert _same(seen[k], v), (k, seen[k], v)
    assert seen["partial"] == [2, None]
