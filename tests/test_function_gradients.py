"""Gradients through calls of traced functions: one tape entry per call, a cached backward function,
variables read inside functions, nested functions, tapes inside tf.function, higher order."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

import _tape_checker


def _entries(tape):
    return [e.type for e in tape._tape.entries()]


def test_guide_f04_add_with_variable():
    @tf.function
    def add(a, b):
        return a + b

    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        result = add(v, 1.0)
    g = tape.gradient(result, v)
    assert g.dtype == tf.float32 and float(g) == 1.0


def test_call_is_one_tape_entry_on_both_call_paths():
    @tf.function
    def f(x, y):
        return tf.sin(x) * y + x * x * y

    x, y = tf.constant(0.5), tf.constant(2.0)
    results = []
    for _ in range(3):  # first call: Python path (traces); later calls: the C++ cache
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, y])
            out = f(x, y)
        assert _entries(tape) == ["PartitionedCall"]
        results.append([g.numpy() for g in tape.gradient(out, [x, y])])
    want = [np.cos(0.5) * 2 + 2 * 0.5 * 2, np.sin(0.5) + 0.25]
    for r in results:
        np.testing.assert_allclose(r, want, rtol=1e-6)


def test_numeric_call_several_inputs_and_outputs():
    @tf.function
    def f(a, b):
        m = tf.matmul(a, b)
        return tf.tanh(m), tf.reduce_sum(a * a, axis=1), tf.exp(b)

    rng = np.random.default_rng(1)
    _tape_checker.check(f, rng.normal(size=(2, 3)), rng.normal(size=(3, 4)))


def test_numeric_stateful_call():
    v = tf.Variable(0.0, dtype=tf.float64)

    @tf.function
    def f(a, b):
        v.assign_add(1.0)
        return tf.reduce_sum(a * b) * a

    x, y = tf.constant([0.5, 1.5], tf.float64), tf.constant([2.0, -1.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        f(x, y)
    assert [e.type for e in tape._tape.entries()] == ["StatefulPartitionedCall"]
    _tape_checker.check(f, [0.5, 1.5], [2.0, -1.0])


def test_numeric_concrete_function_call():
    @tf.function
    def f(a):
        return tf.reduce_prod(a) + tf.square(a)

    cf = f.get_concrete_function(tf.TensorSpec([3], tf.float64))
    _tape_checker.check(cf, [0.5, -1.5, 2.0])


def test_variable_read_inside_function_is_watched():
    v = tf.Variable([1.0, 2.0])
    w = tf.Variable(3.0, trainable=False)

    @tf.function
    def f(x):
        return tf.reduce_sum(v * v * x) + w

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        y = f(x)
    assert [var is v for var in tape.watched_variables()] == [True]
    gv, gw = tape.gradient(y, [v, w])
    np.testing.assert_allclose(gv.numpy(), [4.0, 8.0])
    assert gw is None  # w is not trainable: not watched


def test_watch_accessed_variables_false():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return v * x

    x = tf.constant(3.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        y = f(x)
    assert tape.watched_variables() == ()
    gx, gv = tape.gradient(y, [x, v])
    assert float(gx) == 2.0 and gv is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = f(x)
    assert float(tape.gradient(y, v)) == 3.0


def test_captured_tensor_gets_gradient():
    c = tf.constant(4.0)

    @tf.function
    def f(x):
        return x * c * c

    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch([x, c])
        y = f(x)
    gx, gc = tape.gradient(y, [x, c])
    assert float(gx) == 16.0 and float(gc) == 12.0


def test_nested_functions_numeric():
    @tf.function
    def inner(a, b):
        return a * tf.sin(b)

    @tf.function
    def middle(a, b):
        return inner(a, b) + inner(b, a) * a

    @tf.function
    def outer(a, b):
        return tf.reduce_sum(middle(a, b) ** 2)

    _tape_checker.check(outer, [0.3, -0.7], [1.1, 0.2])


def test_tape_inside_function_around_another_function():
    v = tf.Variable(1.5, dtype=tf.float64)

    @tf.function
    def inner(x):
        return tf.exp(x) * v

    @tf.function
    def outer(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) * x
        return tape.gradient(y, [x, v])

    x = 0.3
    gx, gv = outer(tf.constant(x, tf.float64))
    np.testing.assert_allclose(float(gx), 1.5 * (np.exp(x) * x + np.exp(x)))
    np.testing.assert_allclose(float(gv), np.exp(x) * x)


def test_second_order_through_call():
    @tf.function
    def f(x):
        return x * x * x

    x = tf.constant(2.0, tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
    assert float(g) == 12.0
    assert float(t2.gradient(g, x)) == 12.0


def test_backward_function_is_built_once_per_concrete_function():
    from eagerflow.eager import function_grad

    @tf.function
    def f(x):
        return x * tf.sin(x)

    x = tf.constant(3.0)
    cf = f.get_concrete_function(x)
    for _ in range(2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        np.testing.assert_allclose(float(tape.gradient(y, x)), np.sin(3.0) + 3.0 * np.cos(3.0), rtol=1e-6)
    op, attrs, n_out = cf._saving_call_op()
    assert cf._saving_call_op() is cf._saving_call_op() and n_out == 1
    b = _core.function_grad_cache_get([attrs["f"]], "saved")
    assert isinstance(b, function_grad._CallBackward) and b.fn is not None
    # The forward call returns sin(x) (a value Mul's gradient reads) besides x * sin(x).
    assert len(attrs["Tout"]) > 1


def test_forward_values_are_saved_not_recomputed():
    # A random op feeding the output: the gradient must use the value the forward drew.
    @tf.function
    def noisy(x):
        return x * tf.random.uniform([3])

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = noisy(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), (y / x).numpy(), rtol=1e-6)

    # A variable read before an assign in the same function: the gradient sees the read value.
    v = tf.Variable(2.0)

    @tf.function
    def read_then_assign(x):
        y = x * v
        v.assign_add(10.0)
        return y

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = read_then_assign(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 2.0, 2.0])


def test_second_order_through_a_saved_call():
    @tf.function
    def cube(x):
        return x * x * x

    x = tf.constant(2.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = cube(x)
        dy = inner.gradient(y, x)
    assert float(dy) == 12.0
    assert float(outer.gradient(dy, x)) == 12.0  # 6x


def test_unconnected_and_integer_outputs():
    @tf.function
    def f(x, y):
        return x * 2.0, tf.cast(x, tf.int32), tf.constant(1.0)

    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        a, i, c = f(x, y)
    assert float(tape.gradient(a, x)) == 2.0
    assert tape.gradient(a, y) is None
    assert float(tape.gradient(a, y, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == 0.0
    # As TF: the call's other outputs connect x to the call, so a constant output gives zeros.
    assert float(tape.gradient(c, x)) == 0.0


def test_side_effects_are_not_rerun_by_the_gradient():
    counter = tf.Variable(0)
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        counter.assign_add(1)
        return x * v

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (float(gx), float(gv)) == (2.0, 3.0)
    assert int(counter) == 1


def test_jacobian_through_function():
    @tf.function
    def f(x):
        return x * x

    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), np.diag([2.0, 4.0, 6.0]))


def test_output_gradients_through_function():
    @tf.function
    def f(x):
        return 3.0 * x

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x, output_gradients=tf.constant([1.0, -2.0]))
    np.testing.assert_allclose(g.numpy(), [3.0, -6.0])


def test_no_tape_no_recording_and_stop_recording():
    @tf.function
    def f(x):
        return x * x

    x = tf.constant(2.0)
    assert float(f(x)) == 4.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = f(x)
    assert tape.gradient(y, x) is None


def test_training_loop_with_function_forward_converges():
    rng = np.random.default_rng(0)
    xs = tf.constant(rng.normal(size=(64, 3)).astype(np.float32))
    ys = tf.constant((xs.numpy() @ np.array([[1.0], [-2.0], [0.5]], np.float32)) + 0.3)
    w = tf.Variable(tf.zeros([3, 1]))
    b = tf.Variable(0.0)

    @tf.function
    def loss_fn(x, y):
        return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))

    losses = []
    for _ in range(200):
        with tf.GradientTape() as tape:
            loss = loss_fn(xs, ys)
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
        losses.append(float(loss))
    assert losses[-1] < 1e-4 < losses[0]
    np.testing.assert_allclose(w.numpy().ravel(), [1.0, -2.0, 0.5], atol=1e-2)


def test_function_with_cond_and_loop_called_eagerly_numeric():
    @tf.function
    def f(x, y):
        if tf.reduce_sum(x) > 0:
            z = x * y
        else:
            z = x - y
        for _ in tf.range(3):
            z = tf.sin(z) * y
        return z

    _tape_checker.check(f, [0.4, 0.3], [1.2, -0.5])
    _tape_checker.check(f, [-0.4, -0.3], [1.2, -0.5])


@pytest.mark.parametrize("stateful", [False, True])
def test_call_op_type(stateful):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        if stateful:
            v.assign(x)
        return x * 2.0

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        f(x)
    assert _entries(tape) == ["StatefulPartitionedCall" if stateful else "PartitionedCall"]
