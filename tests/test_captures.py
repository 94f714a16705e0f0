"""Captures: eager tensors used inside a tf.function are fed at call time; Python values are Consts."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core


def test_eager_tensor_is_captured_as_placeholder():
    outside = tf.constant([1.0, 2.0])

    @tf.function
    def f(x):
        return x + outside + 1.0

    assert f(tf.constant([10.0, 20.0])).numpy().tolist() == [12.0, 23.0]
    cf = f.get_concrete_function(tf.constant([0.0, 0.0]))
    assert len(cf.captured_inputs) == 1 and cf.captured_inputs[0] is outside
    types = [op.type for op in cf.graph.get_operations()]
    assert types.count("Placeholder") == 2  # the argument and the capture
    assert "Const" in types  # the Python 1.0


def test_variables_are_read_live_not_captured_by_value():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        return v * 2.0

    assert f().numpy() == 2.0
    v.assign(5.0)
    assert f().numpy() == 10.0


def test_tf1_graph_embeds_eager_tensors_as_consts():
    outside = tf.constant(3)
    g = tf.Graph()
    with g.as_default():
        c = outside + 1
    assert [op.type for op in g.get_operations()] == ["Const", "Const", "AddV2"]
    assert tf.compat.v1.Session(graph=g).run(c) == 4


def test_constant_in_graph_keeps_its_name():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3, name="c")
        d = tf.constant([1.0, 2.0], dtype=tf.float64, name="d")
    assert c.name == "c:0" and d.name == "d:0" and d.dtype == tf.float64


def test_plan_rejects_symbolic_feeds():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=[2], name="x")
        y = x * 2.0
    plan = _core.Plan(g._graph, [x], [y], [])
    with pytest.raises(TypeError, match="concrete"):
        plan.run([x])
    assert plan.run([tf.constant([1.0, 2.0])])[0].numpy().tolist() == [2.0, 4.0]


def test_cast_in_graph_is_a_node():
    @tf.function
    def f(x):
        return tf.cast(x, tf.int32), tf.constant(x, dtype=tf.float64) if False else tf.cast(x, tf.float64)

    a, b = f(tf.constant([1.7, -2.5]))
    assert a.numpy().tolist() == [1, -2] and b.dtype == tf.float64
    np.testing.assert_allclose(b.numpy(), [1.7, -2.5], rtol=1e-6)
