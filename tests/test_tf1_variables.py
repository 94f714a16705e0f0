"""TF1 graph variables and tf.control_dependencies, as TF 2.21 runs them: a tf.Variable made inside
`tf.Graph().as_default()` has no value until a Session runs its initializer, each Session has its own
state, and updates are graph ops a Session runs. Expected values were checked against TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf


def _graph_with_variable():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(3.0, name="v")
        y = v * 2.0
        init = tf.compat.v1.global_variables_initializer()
    return g, v, y, init


def test_uninitialized_read_fails_then_initializer_gives_values():
    g, v, y, init = _graph_with_variable()
    assert repr(v) == "<tf.Variable 'v:0' shape=() dtype=float32>"
    assert v.graph is g and v.initializer.type == "AssignVariableOp" and v.initializer.name == "v/Assign"
    assert init.type == "NoOp" and init.name == "init"
    with g.as_default():
        assert tf.compat.v1.global_variables() == [v] and tf.compat.v1.trainable_variables() == [v]
    with tf.compat.v1.Session(graph=g) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable v. This could mean"):
            sess.run(y)
        sess.run(init)
        assert sess.run(y) == 6.0 and sess.run(v) == 3.0
        with g.as_default():
            inc = v.assign_add(1.0)
        assert sess.run(inc) == 4.0 and sess.run(v) == 4.0
    with tf.compat.v1.Session(graph=g) as other:  # a session of its own: uninitialized again
        with pytest.raises(tf.errors.FailedPreconditionError):
            other.run(v)


def test_names_are_unique_and_scoped():
    g = tf.Graph()
    with g.as_default():
        a = tf.Variable(1.0, name="v")
        b = tf.Variable(np.ones([2, 3], np.float32), name="v")
        with tf.name_scope("outer"):
            c = tf.Variable(0, name="w", trainable=False)
        init = tf.compat.v1.global_variables_initializer()
        assert [x.name for x in tf.compat.v1.global_variables()] == ["v:0", "v_1:0", "outer/w:0"]
        assert [x.name for x in tf.compat.v1.trainable_variables()] == ["v:0", "v_1:0"]
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        np.testing.assert_array_equal(sess.run(b), np.ones([2, 3]))
        assert sess.run(c) == 0 and sess.run(a) == 1.0


def test_eager_variables_are_unchanged():
    v = tf.Variable(2.0)
    assert v.initializer is None
    assert tf.compat.v1.global_variables() == []
    assert float(v) == 2.0


def test_control_dependencies():
    with tf.control_dependencies([tf.constant(1.0)]):  # eagerly: nothing to order
        assert float(tf.constant(2.0) + 1.0) == 3.0
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0)
        with tf.control_dependencies([a]):
            b = tf.constant(2.0)
            with tf.control_dependencies(None):
                c = tf.constant(3.0)
            d = b + 1  # its input already depends on `a`
        assert [x.name for x in b.op.control_inputs] == ["Const"]
        assert c.op.control_inputs == [] and d.op.control_inputs == []
        with pytest.raises(TypeError, match="Can not convert a int into a Tensor or Operation."):
            with tf.control_dependencies([1]):
                pass


def test_control_dependencies_order_a_session_run():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(1.0)
        init = tf.compat.v1.global_variables_initializer()
        update = v.assign(5.0, read_value=False)
        with tf.control_dependencies([update]):
            out = tf.identity(tf.constant(0.0))
    with tf.compat.v1.Session(graph=g) as sess:
        sess.run(init)
        assert sess.run(out) == 0.0
        assert sess.run(v) == 5.0
