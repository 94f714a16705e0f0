"""tf.get_static_value and tf.ensure_shape against TF 2.21's answers for the same tensors (eager values,
the ops TF folds from static shapes and constants, and None for everything else in a graph)."""
import numpy as np
import pytest

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


def test_ensure_shape_as_tf():
    """tf.ensure_shape (the EnsureShape op): TF 2.21's texts eagerly and when a graph is built."""
    x = tf.constant([1, 2, 3])
    for ok in ([None], [3], None, tf.TensorShape([3])):
        assert tf.ensure_shape(x, ok).numpy().tolist() == [1, 2, 3]
    assert tf.ensure_shape(tf.constant(5.0), []).numpy() == 5.0
    prefix = r"^\{\{function_node __wrapped__EnsureShape_device_/job:localhost/replica:0/task:0/device:CPU:0\}\} "
    for bad, text in (([2], r"\[2\]"), ([None, None], r"\[\?,\?\]"), ([], r"\[\]")):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=prefix + r"Shape of tensor input \[3\] is not compatible with expected shape "
                           + text + r"\. \[Op:EnsureShape\] name: $"):
            tf.ensure_shape(x, bad)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:EnsureShape\] name: mine$"):
        tf.ensure_shape(x, [2], name="mine")

    @tf.function
    def f(v):
        y = tf.ensure_shape(v, [None, 3])
        assert y.shape.as_list() == [None, 3] and y.op.type == "EnsureShape"
        with pytest.raises(ValueError, match=r"^Dimension 1 in both shapes must be equal, but are 4 and 3\. Shapes "
                                             r"are \[2,4\] and \[\?,3\]\. for '\{\{node EnsureShape_1\}\}"):
            tf.ensure_shape(y, [2, 4])
        return y
    f.get_concrete_function(tf.TensorSpec([None, None], tf.float32))
    assert f(tf.zeros([2, 3])).shape == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape of tensor \w+ \[2,4\] is not compatible with "
                                                             r"expected shape \[\?,3\]\."):
        f(tf.zeros([2, 4]))
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t:
        s = tf.reduce_sum(tf.ensure_shape(v * 3, [2]))
    assert t.gradient(s, v).numpy().tolist() == [3.0, 3.0]
