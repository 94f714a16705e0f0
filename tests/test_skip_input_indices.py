"""op.skip_input_indices (TF's hint to gradient functions): an eager tape names the inputs no source
reaches; gradient functions leave those gradients uncomputed, and every gradient that is read stays
the same."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.eager import backprop
from eagerflow.framework import gradient_registry

rng = np.random.default_rng(7)


def f32(*s):
    return rng.standard_normal(s).astype(np.float32)


@pytest.fixture
def spy():
    """Records (op type, skip_input_indices) of every gradient function call of the wrapped types."""
    seen, saved = [], {}

    def wrap(op_type):
        f = saved[op_type] = gradient_registry._GRADIENTS[op_type]

        def g(op, *grads):
            seen.append((op.type, op.skip_input_indices))
            return f(op, *grads)
        gradient_registry._GRADIENTS[op_type] = g
    yield wrap, seen
    gradient_registry._GRADIENTS.update(saved)


def test_inputs_no_source_reaches_are_named(spy):
    wrap, seen = spy
    wrap("MatMul")
    wrap("AddV2")
    x, w, b = tf.constant(f32(4, 3)), tf.Variable(f32(3, 2)), tf.constant(f32(2))
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.matmul(x, w) + b
    t.gradient(y, w)
    assert seen == [("AddV2", (1,)), ("MatMul", (0,))]
    seen.clear()
    t.gradient(y, x)  # the same entries, other sources
    assert seen == [("AddV2", (1,)), ("MatMul", (1,))]
    seen.clear()
    t.gradient(y, [x, w])
    assert seen == [("AddV2", (1,)), ("MatMul", ())]


@pytest.mark.parametrize("native_walk", [True, False], ids=["C++ walk", "Python walk"])
def test_skipped_products_are_not_computed(monkeypatch, native_walk):
    monkeypatch.setattr(backprop, "_native_walk", native_walk)
    x, w1, w2 = tf.constant(f32(8, 5)), tf.Variable(f32(5, 4)), tf.Variable(f32(4, 3))
    # An outer tape records every gradient op the inner gradient runs (each reads x, a variable or
    # a value computed from them).
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2))
        n = outer._tape.num_entries()
        g1, g2 = t.gradient(loss, [w1, w2])
    ran = [e.type for e in outer._tape.entries()[n:]]
    assert ran.count("MatMul") == 3, ran  # dW2, dH, dW1: not dX
    h = np.maximum(x.numpy() @ w1.numpy(), 0)
    np.testing.assert_allclose(g2.numpy(), h.T @ np.ones((8, 3), np.float32), rtol=1e-5)
    dh = np.ones((8, 3), np.float32) @ w2.numpy().T * (h > 0)
    np.testing.assert_allclose(g1.numpy(), x.numpy().T @ dh, rtol=1e-5)


def _mm(ta, tb):
    return lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb)


# (name, f(a, b), shape of a, shape of b): binary ops whose gradient functions read skip_input_indices.
CASES = [
    ("MatMul", _mm(False, False), (3, 4), (4, 2)),
    ("MatMul ta", _mm(True, False), (4, 3), (4, 2)),
    ("MatMul tb", _mm(False, True), (3, 4), (2, 4)),
    ("MatMul ta tb", _mm(True, True), (4, 3), (2, 4)),
    ("BatchMatMulV2 broadcast", tf.matmul, (2, 3, 4), (4, 5)),
    ("BatchMatMulV2 adjoint", lambda a, b: tf.matmul(a, b, adjoint_a=True), (2, 4, 3), (1, 4, 5)),
    ("AddV2", tf.add, (3, 4), (4,)),
    ("Sub", tf.subtract, (3, 1), (1, 4)),
    ("Mul", tf.multiply, (2, 3, 4), (3, 1)),
    ("RealDiv", lambda a, b: a / (tf.abs(b) + 1.0), (3, 4), (4,)),
    ("Maximum", tf.maximum, (3, 4), (4,)),
    ("Minimum", tf.minimum, (3, 4), (1,)),
    ("SquaredDifference", tf.math.squared_difference, (3, 4), (4,)),
    ("Pow", lambda a, b: tf.pow(tf.abs(a) + 0.5, b), (3, 4), (4,)),
    ("Atan2", tf.math.atan2, (3, 4), (4,)),
    ("DivNoNan", tf.math.divide_no_nan, (3, 4), (4,)),
    ("MulNoNan", tf.math.multiply_no_nan, (3, 4), (4,)),
    ("BiasAdd", tf.nn.bias_add, (2, 3, 4), (4,)),
    ("Conv2D", lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), (2, 5, 5, 3), (3, 3, 3, 4)),
    ("DepthwiseConv2dNative", lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "VALID"), (1, 5, 5, 2),
     (2, 2, 2, 3)),
]


@pytest.mark.parametrize("name,f,sa,sb", CASES, ids=[c[0] for c in CASES])
def test_gradients_read_are_unchanged(name, f, sa, sb):
    a, b = tf.constant(f32(*sa)), tf.constant(f32(*sb))
    weights = tf.constant(f32(*f(a, b).shape))

    def loss():
        return tf.reduce_sum(f(a, b) * weights)
    with tf.GradientTape() as t:
        t.watch([a, b])
        y = loss()
    full = t.gradient(y, [a, b])
    for i, x in enumerate((a, b)):
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = loss()
        # Same ops on the same values: bit for bit.
        np.testing.assert_array_equal(t1.gradient(y, x).numpy(), full[i].numpy())


def test_higher_order_through_a_skipped_input():
    # The inner tape skips dL/dx; the outer one still differentiates dL/dw with respect to x.
    x, w = tf.constant(f32(3, 4)), tf.constant(f32(4, 2))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(w)
            loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
        gw = inner.gradient(loss, w)  # 2 x^T (x w)
        s = tf.reduce_sum(gw)
    gx = outer.gradient(s, x)
    xv, wv = x.numpy().astype(np.float64), w.numpy().astype(np.float64)
    # s = 2 sum_ij (x^T x w)_ij; ds/dx = 2 (x w 1 1^T... ) computed by finite differences.
    eps, num = 1e-3, np.zeros_like(xv)
    for idx in np.ndindex(*xv.shape):
        d = np.zeros_like(xv)
        d[idx] = eps
        num[idx] = (np.sum(2 * (xv + d).T @ ((xv + d) @ wv)) - np.sum(2 * (xv - d).T @ ((xv - d) @ wv))) / (2 * eps)
    np.testing.assert_allclose(gx.numpy(), num, rtol=1e-3, atol=1e-3)


def test_function_tape_gradients_are_unchanged():
    x, w = tf.constant(f32(6, 5)), tf.Variable(f32(5, 3))

    @tf.function
    def g():
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)))
        return t.gradient(loss, w)
    want = x.numpy().T @ (x.numpy() @ w.numpy() > 0).astype(np.float32)
    np.testing.assert_allclose(g().numpy(), want, rtol=1e-5)
