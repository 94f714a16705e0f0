"""tf.Variable arguments of a tf.function, as TF 2.21 traces them: by VariableSpec (dtype, shape,
trainable, aliasing), the function seeing the variable it was traced with and each call feeding
its own variable's handle. Expected values were checked against TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.ops.variable_spec import VariableSpec


def test_same_spec_shares_a_trace_and_aliasing_is_part_of_the_key():
    @tf.function(autograph=False)
    def f(v, w):
        return v + w

    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    got = []
    for x, y in [(a, a), (a, b), (b, a), (b, b)]:
        got.append((float(f(x, y)), f.experimental_get_tracing_count()))
    assert got == [(2.0, 1), (3.0, 2), (3.0, 2), (4.0, 2)]
    assert float(f(tf.Variable(1.0, trainable=False), b)) == 3.0
    assert f.experimental_get_tracing_count() == 3


def test_structured_signature_and_inputs():
    @tf.function(autograph=False)
    def f(v, w):
        return v + w

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    cf = f.get_concrete_function(a, b)
    assert cf.structured_input_signature == (
        (VariableSpec((), tf.float32, True, 0), VariableSpec((), tf.float32, True, 1)), {})
    assert repr(cf.structured_input_signature[0][0]) == (
        "VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=0)")
    assert [repr(t) for t in cf.inputs] == ["<tf.Tensor 'v:0' shape=() dtype=resource>",
                                           "<tf.Tensor 'w:0' shape=() dtype=resource>"]
    assert cf.captured_inputs == []
    assert float(cf(b, a)) == 3.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a resource tensor but is a float tensor"):
        cf(tf.constant(1.0), a)  # the flat signature takes it, as in TF


def test_variable_spec_repr():
    assert repr(VariableSpec(None, tf.int32, trainable=False, alias_id=3)) == (
        "VariableSpec(shape=<unknown>, dtype=tf.int32, trainable=False, alias_id=3)")
    assert repr(VariableSpec([None, 2])) == (
        "VariableSpec(shape=(None, 2), dtype=tf.float32, trainable=True, alias_id=None)")


def test_the_body_sees_the_traced_variable_and_assigns_reach_each_callers():
    names = []

    @tf.function
    def h(v, x):
        names.append(v.name)
        v.assign_add(x)
        return v.read_value()

    a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
    assert float(h(a, 1.0)) == 2.0 and float(h(b, 1.0)) == 3.0
    assert h.experimental_get_tracing_count() == 1 and names == ["a:0"]
    assert float(a) == 2.0 and float(b) == 3.0


def test_a_closure_over_the_traced_variable_follows_the_argument():
    # TF 2.21 feeds the argument's handle wherever the traced variable is used.
    a, b = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function(autograph=False)
    def g(v):
        return v + a

    assert float(g(a)) == 2.0 and float(g(b)) == 4.0
    assert g.experimental_get_tracing_count() == 1


def test_control_flow_shapes_and_gradients():
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    shapes = []

    @tf.function
    def f(v, x):
        shapes.append((v.shape, v.read_value().shape))
        if tf.reduce_sum(x) > 0:
            v.assign_add(x)
        else:
            v.assign_sub(x)
        i = tf.constant(0)
        while i < 2:
            v.assign(v * 2.0)
            i += 1
        return tf.reduce_sum(v)

    assert float(f(a, tf.constant([1.0, 1.0]))) == 20.0
    assert float(f(b, tf.constant([-1.0, -1.0]))) == 36.0
    assert f.experimental_get_tracing_count() == 1
    assert shapes == [(tf.TensorShape([2]), tf.TensorShape([2]))]
    np.testing.assert_array_equal(a.numpy(), [8.0, 12.0])
    np.testing.assert_array_equal(b.numpy(), [16.0, 20.0])


@pytest.mark.parametrize("body", ["plain", "cond", "while", "for"])
def test_gradients_reach_the_called_variable(body):
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])

    if body == "plain":
        fn = lambda v: tf.reduce_sum(v * v)  # noqa: E731
    elif body == "cond":
        fn = lambda v: tf.cond(tf.reduce_sum(v) > 0, lambda: tf.reduce_sum(v * v), lambda: -tf.reduce_sum(v))  # noqa: E731
    elif body == "while":
        fn = lambda v: tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + tf.reduce_sum(v * v)),  # noqa: E731
                                     [0, 0.0])[1] / 3.0
    else:
        def fn(v):
            s = tf.constant(0.0)
            for _ in tf.range(2):
                s += tf.reduce_sum(v * v)
            return s / 2.0
    f = tf.function(fn)
    with tf.GradientTape(persistent=True) as tape:
        ya, yb = f(a), f(b)
    np.testing.assert_allclose(tape.gradient(ya, a).numpy(), 2 * a.numpy())
    np.testing.assert_allclose(tape.gradient(yb, b).numpy(), 2 * b.numpy())
    assert tape.gradient(yb, a) is None
    assert f.experimental_get_tracing_count() == 1


def test_tape_inside_the_function_and_an_optimizer_step():
    @tf.function
    def g(v, x):
        with tf.GradientTape() as t:
            y = tf.reduce_sum(v * x)
        return t.gradient(y, v)

    a, b = tf.Variable([1.0, 2.0]), tf.Variable([3.0, 4.0])
    np.testing.assert_array_equal(g(a, tf.constant([2.0, 3.0])).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(g(b, tf.constant([5.0, 7.0])).numpy(), [5.0, 7.0])
    assert g.experimental_get_tracing_count() == 1

    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step(v):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(v * v)
        opt.apply_gradients([(t.gradient(loss, v), v)])
        return loss

    c = tf.Variable([1.0, 1.0])
    assert float(step(c)) == 2.0
    np.testing.assert_allclose(c.numpy(), [0.8, 0.8])


def test_lists_of_variables():
    @tf.function
    def s(vs):
        return tf.add_n([v * 1.0 for v in vs])

    assert float(s([tf.Variable(1.0), tf.Variable(2.0)])) == 3.0
    assert float(s([tf.Variable(5.0), tf.Variable(6.0)])) == 11.0
    assert s.experimental_get_tracing_count() == 1
