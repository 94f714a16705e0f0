"""Gradients through tf.cond / tf.while_loop (If and While ops) and their AutoGraph forms: tapes inside
tf.function, eager tapes around functions that contain them, eager If ops, captured tensors and
variables, iteration counts including 0, nesting, higher order."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.ops import _execute

import _tape_checker


def _inside(fn):
    """A tf.function computing fn(*args) and its tape gradient w.r.t. the args inside the graph."""
    @tf.function
    def g(*args):
        with tf.GradientTape() as tape:
            tape.watch(args)
            y = fn(*args)
        return y, tape.gradient(y, list(args))
    return g


def _check_inside(fn, *args, atol=1e-6):
    """The in-graph tape gradient of sum(fn) equals the central differences of fn (eager)."""
    args = [np.array(a, np.float64) for a in args]
    _, got = _inside(lambda *xs: tf.reduce_sum(fn(*xs)))(*[tf.constant(a) for a in args])
    f = tf.function(lambda *xs: tf.reduce_sum(fn(*xs)))
    want = _tape_checker.numeric_gradients(f, args, [np.float64(1.0)])
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.zeros_like(w) if g is None else g.numpy(), w, atol=atol, rtol=1e-5)


# ------------------------------------------------------------------------------------------ cond

@pytest.mark.parametrize("x", [1.3, -0.8])
def test_cond_inside_function_both_branches(x):
    def fn(x, y):
        return tf.cond(x > 0, lambda: tf.sin(x) * y * y, lambda: tf.exp(x) + y)
    _check_inside(fn, x, 0.7)


@pytest.mark.parametrize("x", [1.3, -0.8])
def test_cond_eager_tape_around_function(x):
    @tf.function
    def f(x, y):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * y, lambda: x / y)
    _tape_checker.check(f, [x, 0.5], [2.0, -1.5])


@pytest.mark.parametrize("x", [0.7, -0.4])
def test_stateful_if_and_while_numeric(x):
    v = tf.Variable(1.3, dtype=tf.float64)

    @tf.function
    def f(x):
        y = tf.cond(x > 0, lambda: x * v, lambda: x * x)
        for _ in tf.range(2):
            y = y * v + x
        return y

    g = f.get_concrete_function(tf.constant(x, tf.float64)).graph
    types = {op.type for op in g.get_operations()}
    assert {"If", "While"} <= types  # variable reads make them stateful
    _tape_checker.check(f, x)


def test_cond_branch_uses_only_some_inputs_and_untaken_variable():
    v = tf.Variable(2.0)

    @tf.function
    def f(x, y, p):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            r = tf.cond(p, lambda: x * v, lambda: y * 3.0)
        return tape.gradient(r, [x, y, v])

    gx, gy, gv = f(tf.constant(5.0), tf.constant(1.0), tf.constant(True))
    assert (float(gx), float(gy), float(gv)) == (2.0, 0.0, 5.0)
    gx, gy, gv = f(tf.constant(5.0), tf.constant(1.0), tf.constant(False))
    assert (float(gx), float(gy), float(gv)) == (0.0, 3.0, 0.0)  # TF: zeros from the untaken branch


def test_cond_with_several_outputs_and_integer_output():
    def fn(x):
        a, i, b = tf.cond(x[0] > 0, lambda: (x * x, tf.constant(1), tf.reduce_sum(x)),
                          lambda: (x * 2.0, tf.constant(2), tf.reduce_prod(x)))
        return a * b + tf.cast(i, tf.float64)
    _check_inside(fn, [0.5, 1.5])
    _check_inside(fn, [-0.5, 1.5])


@pytest.mark.parametrize("x", [2.0, -3.0])
def test_autograph_if(x):
    @tf.function
    def f(x):
        if x > 0:
            y = x * x * x
        else:
            y = -x * 4.0
        return y
    _tape_checker.check(f, x)


def test_nested_cond():
    def fn(x, y):
        return tf.cond(x > 0,
                       lambda: tf.cond(y > 0, lambda: x * y, lambda: x - y),
                       lambda: tf.cond(y > 0, lambda: tf.sin(x * y), lambda: x * x))
    for x in (1.0, -1.0):
        for y in (0.5, -0.5):
            _check_inside(fn, x, y)


def test_if_op_executed_eagerly():
    then = tf.function(lambda x: x * x).get_concrete_function(tf.TensorSpec([], tf.float32))
    other = tf.function(lambda x: -x).get_concrete_function(tf.TensorSpec([], tf.float32))
    attrs = {"Tcond": tf.bool, "Tin": [tf.float32], "Tout": [tf.float32], "then_branch": then._call_op()[1]["f"],
             "else_branch": other._call_op()[1]["f"], "output_shapes": [[]]}
    x = tf.constant(3.0)
    for pred, want in ((True, 6.0), (False, -1.0)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _execute.execute("StatelessIf", [tf.constant(pred), x], attrs)[0]
        assert float(tape.gradient(y, x)) == want


def test_cond_second_order():
    @tf.function
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.cond(x > 0, lambda: x * x * x, lambda: x * x)
            g = t1.gradient(y, x)
        return g, t2.gradient(g, x)

    g, h = f(tf.constant(2.0))
    assert (float(g), float(h)) == (12.0, 12.0)
    g, h = f(tf.constant(-2.0))
    assert (float(g), float(h)) == (-4.0, 2.0)


# ---------------------------------------------------------------------------------------- while

@pytest.mark.parametrize("n", [0, 1, 3, 6])
def test_while_loop_iteration_counts(n):
    def fn(x, w):
        _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.sin(y) * w + x), [0, x])
        return y
    _check_inside(fn, [0.3, -0.2], 1.1)


@pytest.mark.parametrize("n", [0, 2, 5])
def test_while_eager_tape_around_function(n):
    @tf.function
    def f(x, w):
        i = tf.constant(0)
        y = x
        while i < n:
            y = y * w + tf.tanh(y)
            i += 1
        return y
    _tape_checker.check(f, [0.3, 0.1], [0.9, -1.2])


def test_while_captured_tensor_and_variable_sum_over_iterations():
    v = tf.Variable(1.5, dtype=tf.float64)

    @tf.function
    def f(x, w, n):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            _, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * w + v), [0, x])
        return y, tape.gradient(y, [x, w, v])

    x, w = 0.5, 2.0
    for n in (0, 1, 4):
        y, (gx, gw, gv) = f(tf.constant(x, tf.float64), tf.constant(w, tf.float64), tf.constant(n))
        # y_n = w^n x + v (w^n - 1)/(w - 1)
        np.testing.assert_allclose(float(y), w ** n * x + 1.5 * (w ** n - 1) / (w - 1))
        np.testing.assert_allclose(float(gx), w ** n)
        np.testing.assert_allclose(float(gv), (w ** n - 1) / (w - 1))
        dgw = n * w ** (n - 1) * x + 1.5 * sum(k * w ** (k - 1) for k in range(n))
        np.testing.assert_allclose(float(gw), dgw)


def test_while_matrix_loop_vars():
    def fn(a, m):
        def body(i, s, acc):
            s = tf.tanh(tf.matmul(s, m))
            return i + 1, s, acc + tf.reduce_sum(s * s)
        _, s, acc = tf.while_loop(lambda i, s, acc: i < 3, body, [0, a, tf.constant(0.0, tf.float64)])
        return tf.reduce_sum(s) + acc
    rng = np.random.default_rng(3)
    _check_inside(fn, rng.normal(size=(2, 3)) * 0.5, rng.normal(size=(3, 3)) * 0.5)


def test_while_maximum_iterations():
    def fn(x):
        return tf.while_loop(lambda y: tf.reduce_sum(y) < 100.0, lambda y: y * 1.5 + 0.1, [x],
                             maximum_iterations=4)[0]
    _check_inside(fn, [1.0, 2.0])


@pytest.mark.parametrize("n", [0, 3])
def test_autograph_for_range(n):
    @tf.function
    def f(x, w):
        y = x
        for _ in tf.range(n):
            y = tf.sin(y) * w
        return y
    _tape_checker.check(f, [0.4, 1.0], 0.8)


def test_autograph_for_with_tensor_index():
    @tf.function
    def f(x, ws):
        y = x
        for i in tf.range(3):
            y = y * ws[i] + tf.cast(i, tf.float64)
        return y
    _tape_checker.check(f, [0.4, 1.0], [0.5, -1.5, 2.0])


def test_cond_inside_while_and_while_inside_cond():
    def fn(x, w):
        def body(i, y):
            return i + 1, tf.cond(tf.reduce_sum(y) > 0, lambda: y * w, lambda: y + w)
        _, y = tf.while_loop(lambda i, y: i < 4, body, [0, x])
        z = tf.cond(w > 0, lambda: tf.while_loop(lambda j, z: j < 2, lambda j, z: (j + 1, z * z), [0, y])[1],
                    lambda: y)
        return z
    _check_inside(fn, [0.3, -0.6], 0.9)
    _check_inside(fn, [0.3, -0.6], -0.9)


def test_nested_while():
    def fn(x):
        def outer(i, y):
            _, y = tf.while_loop(lambda j, z: j < i, lambda j, z: (j + 1, z * 0.9 + tf.sin(z)), [0, y])
            return i + 1, y
        return tf.while_loop(lambda i, y: i < 3, outer, [0, x])[1]
    _check_inside(fn, [0.5, 1.0])


def test_while_integer_loop_var_gets_none():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            i, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), [tf.constant(0), x])
        return tape.gradient(y, x), tape.gradient(i, x)

    gy, gi = f(tf.constant(1.0))
    assert float(gy) == 8.0 and gi is None


def test_training_step_with_loop_converges():
    w = tf.Variable(0.0)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            y = tf.constant(1.0)
            for _ in tf.range(3):
                y = y + w
            loss = tf.square(y - 7.0)  # minimum at w = 2
        g = tape.gradient(loss, w)
        w.assign_sub(0.05 * g)
        return loss

    for _ in range(100):
        loss = step()
    assert abs(float(w) - 2.0) < 1e-3 and float(loss) < 1e-4


def test_random_values_in_branches_and_bodies_are_refused_not_recomputed():
    # cond/while_loop gradients recompute forward values: a random draw would differ, so the
    # gradient is refused with a clear error instead of silently belonging to another draw.
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * tf.random.uniform([]), lambda: x)
        return tape.gradient(y, x)
    with pytest.raises(tf.errors.UnimplementedError, match="tf.cond branch whose result depends on the stateful op"):
        f(tf.constant(1.0))

    @tf.function
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * tf.random.normal([])), (0, x))[1]
        return tape.gradient(y, x)
    with pytest.raises(tf.errors.UnimplementedError, match="tf.while_loop body"):
        g(tf.constant(1.0))

    # Random values drawn outside and passed in are fine.
    @tf.function
    def h(x, r):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 0, lambda: x * r, lambda: x)
        return tape.gradient(y, x)
    assert float(h(tf.constant(1.0), tf.constant(0.25))) == 0.25


def test_gradient_through_tensor_array_written_in_while_loop():
    # dynamic_rnn's pattern: a TensorArray carried through tf.while_loop, stacked after it.
    def run(x, w, h0):
        ta = tf.TensorArray(tf.float64, size=x.shape[0])

        def body(i, h, ta):
            h = tf.tanh(x[i] * w + h)
            return i + 1, h, ta.write(i, h)
        _, _, ta = tf.while_loop(lambda i, h, ta: i < x.shape[0], body, (0, h0, ta))
        return tf.reduce_sum(ta.stack() ** 2)

    @tf.function
    def grads(x, w, h0):
        with tf.GradientTape() as tape:
            tape.watch([w, h0])
            y = run(x, w, h0)
        return tape.gradient(y, [w, h0])

    x = tf.constant([0.5, -1.0, 2.0, 0.25], tf.float64)
    w, h0 = tf.constant(0.7, tf.float64), tf.constant(0.1, tf.float64)
    gw, gh = grads(x, w, h0)
    eps = 1e-6
    num_w = (run(x, w + eps, h0) - run(x, w - eps, h0)) / (2 * eps)
    num_h = (run(x, w, h0 + eps) - run(x, w, h0 - eps)) / (2 * eps)
    np.testing.assert_allclose(gw.numpy(), num_w.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gh.numpy(), num_h.numpy(), rtol=1e-6)


def test_second_order_gradient_through_while_loop():
    @tf.function
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), (0, tf.constant(1.0)))[1]
            g = t1.gradient(y, x)
        return y, g, t2.gradient(g, x)
    y, g, gg = f(tf.constant(2.0))  # x^3, 3x^2, 6x
    assert (float(y), float(g), float(gg)) == (8.0, 12.0, 12.0)
