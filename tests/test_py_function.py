"""tf.py_function / tf.numpy_function: Python called from an op, eagerly and on every graph call."""
import numpy as np
import pytest

import eagerflow as tf


def test_eager_single_output():
    r = tf.py_function(lambda x: x * 2, [tf.constant(1.0)], tf.float32)
    assert r.dtype == tf.float32 and r.numpy() == 2.0


def test_eager_list_of_outputs():
    r = tf.py_function(lambda x: (x * 2, x), [tf.constant(1.0)], [tf.float32, tf.float32])
    assert isinstance(r, list) and [t.numpy() for t in r] == [2.0, 1.0]


def test_python_value_converted_to_tout():
    r = tf.py_function(lambda x: 3, [tf.constant(1.0)], tf.float32)
    assert r.dtype == tf.float32 and r.numpy() == 3.0


def test_wrong_dtype_is_invalid_argument():
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError"):
        tf.py_function(lambda x: x, [tf.constant(1)], tf.float32)


def test_python_exception_is_invalid_argument():
    def bad(x):
        raise ValueError("boom")

    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: boom"):
        tf.py_function(bad, [tf.constant(1.0)], tf.float32)


def test_runs_on_every_call_inside_function():
    calls = []

    def side(x):
        calls.append(float(x.numpy()))
        return x.numpy() * 3

    @tf.function
    def f(x):
        y = tf.py_function(side, [x], tf.float32)
        return y + 1

    assert f(tf.constant(2.0)).numpy() == 7.0
    assert f(tf.constant(3.0)).numpy() == 10.0
    assert calls == [2.0, 3.0]
    assert f.experimental_get_tracing_count() == 1


def test_graph_output_has_unknown_shape():
    shapes = []

    @tf.function
    def f(x):
        y = tf.py_function(lambda a: a, [x], tf.float32)
        shapes.append(y.shape)
        return y

    f(tf.constant([1.0, 2.0]))
    assert shapes[0].rank is None


def test_exception_inside_function():
    def bad(x):
        raise KeyError("nope")

    @tf.function
    def f(x):
        return tf.py_function(bad, [x], tf.float32)

    with pytest.raises(tf.errors.InvalidArgumentError, match="KeyError"):
        f(tf.constant(1.0))


def test_stateful_py_function_without_outputs_used_still_runs():
    calls = []

    @tf.function
    def f(x):
        tf.py_function(lambda a: calls.append(1) or a, [x], tf.float32)
        return x

    f(tf.constant(1.0))
    f(tf.constant(1.0))
    assert calls == [1, 1]


def test_numpy_function():
    seen = []

    def np_fn(a):
        seen.append(type(a))
        return np.sin(a).astype(np.float32)

    r = tf.numpy_function(np_fn, [tf.constant([0.0, 1.0])], tf.float32)
    np.testing.assert_allclose(r.numpy(), np.sin([0.0, 1.0]), rtol=1e-6)
    assert seen == [np.ndarray]

    @tf.function
    def f(x):
        return tf.numpy_function(np_fn, [x], tf.float32)

    np.testing.assert_allclose(f(tf.constant([2.0])).numpy(), np.sin([2.0]), rtol=1e-6)


def test_several_inputs_and_dtypes():
    r = tf.py_function(lambda a, b: (a + tf.cast(b, tf.float32), b * 2), [tf.constant(1.5), tf.constant(2)],
                       [tf.float32, tf.int32])
    assert r[0].numpy() == 3.5 and r[1].numpy() == 4 and r[1].dtype == tf.int32
