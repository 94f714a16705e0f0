"""The scalar loop interpreter's op table: every (op, dtype) it runs, as a loop update and, for
bool-valued ops, as the loop condition itself (the fused branch), equals the general path
(tf.config.optimizer loop_optimization=False) bit for bit."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.config import optimizer
from eagerflow.ops._execute import execute

OPS = sorted(_core.scalar_loop_ops())
_START = {np.float32: 0.7, np.float64: -1.3, np.int32: 3, np.int64: -7, np.bool_: True}
_OTHER = {np.float32: 1.9, np.float64: 0.45, np.int32: 5, np.int64: 2, np.bool_: False}


def _np_type(enum):
    return tf.as_dtype(enum).as_numpy_dtype


def _call(name, arity, x, c):
    return execute(name, [x, c][:arity])[0]


def _both(fn, *args):
    """fn run by the interpreter and by the plans, with the While's cond and body attrs."""
    try:
        optimizer.set_experimental_options({"loop_optimization": False})
        want = tf.function(fn)(*args)
        optimizer.set_experimental_options({"loop_optimization": None})
        f = tf.function(fn)
        got = f(*args)
    finally:
        optimizer.set_experimental_options({"loop_optimization": None})
    g = f.get_concrete_function(*args).graph
    attrs = [op for op in g.get_operations() if op.type.endswith("While")][0]._node.attrs()
    return got, want, _core.scalar_loop_supported(attrs["cond"], attrs["body"])


def _assert_same(got, want):
    for a, b in zip(tf.nest.flatten(got), tf.nest.flatten(want)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_the_table_covers_arithmetic_and_predicates():
    names = {op for op, _, _, _ in OPS}
    assert {"AddV2", "Sub", "Mul", "Maximum", "Exp", "Tanh", "Less", "Equal", "LogicalAnd", "LogicalNot"} <= names
    assert all(arity in (1, 2) for _, arity, _, _ in OPS)


@pytest.mark.parametrize("name,arity,dtype,predicate", OPS, ids=lambda v: str(v))
@pytest.mark.parametrize("n", [0, 1, 6])
def test_op_as_loop_update(name, arity, dtype, predicate, n):
    t = _np_type(dtype)
    x0, c = tf.constant(_START[t], dtype=t), tf.constant(_OTHER[t], dtype=t)

    def loop(n):
        if predicate:  # a bool loop variable takes the op's value each iteration
            return tf.while_loop(lambda i, x, b: i < n,
                                 lambda i, x, b: (i + 1, x, _call(name, arity, x, c)), (0, x0, False))
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, _call(name, arity, x, c)), (0, x0))
    got, want, compiled = _both(loop, tf.constant(n))
    assert compiled
    _assert_same(got, want)


@pytest.mark.parametrize("name,arity,dtype", [(o, a, d) for o, a, d, p in OPS if p], ids=lambda v: str(v))
def test_predicate_as_loop_condition(name, arity, dtype):
    t = _np_type(dtype)
    if t == np.bool_:  # x flips each iteration: every logical op turns false within two
        x0, c = tf.constant(True), tf.constant(name in ("LogicalAnd", "Equal"))
        if name in ("LogicalNot", "NotEqual"):
            x0 = tf.constant(False)

        def step(x):
            return tf.logical_not(x)
    else:  # x counts up towards c
        x0, c = tf.constant(0, dtype=t), tf.constant(5, dtype=t)

        def step(x):
            return x + tf.constant(1, dtype=t)

    def loop(k):
        return tf.while_loop(lambda x, i: _call(name, arity, x, c), lambda x, i: (step(x), i + k), (x0, 0))
    got, want, compiled = _both(loop, tf.constant(1))
    assert compiled
    _assert_same(got, want)


def _shuffles():
    def swap(n):
        return tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, a), (0, 1, 2))

    def rotate(n):
        return tf.while_loop(lambda i, a, b, c: i < n, lambda i, a, b, c: (i + 1, b, c, a * 2), (0, 1, 2, 3))

    def fibonacci(n):
        return tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, b, a + b), (0, 0, 1))

    def shared(n):  # one value is the next value of two variables
        return tf.while_loop(lambda i, a, b: i < n, lambda i, a, b: (i + 1, a + b, a + b), (0, 1, 2))

    def constant_and_cond_var(n):  # a constant next value; the cond is a bool loop variable
        return tf.while_loop(lambda go, i, a: go, lambda go, i, a: (i + 1 < n, i + 1, 7), (n > 0, 0, 1))

    def float_edges(n):  # overflow to inf, then inf - inf is NaN; NaN compares false
        return tf.while_loop(lambda i, x, y: i < n,
                             lambda i, x, y: (i + 1, x * 1e30, tf.maximum(x - x * 2.0, y)),
                             (0, tf.constant(1.0), tf.constant(-1.0)))
    return [swap, rotate, fibonacci, shared, constant_and_cond_var, float_edges]


@pytest.mark.parametrize("loop", _shuffles(), ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 50])
def test_loop_variable_moves(loop, n):
    got, want, compiled = _both(loop, tf.constant(n))
    assert compiled
    _assert_same(got, want)


def test_int32_wraps_and_int64_does_not():
    def loop(n):
        return tf.while_loop(lambda i, a, b: i < n,
                             lambda i, a, b: (i + 1, a * 7 + 1, b * 7 + 1),
                             (0, tf.constant(1), tf.constant(1, tf.int64)))
    got, want, compiled = _both(loop, tf.constant(20))
    assert compiled
    _assert_same(got, want)
    a, b = 1, 1
    for _ in range(20):
        a, b = (a * 7 + 1) & 0xFFFFFFFF, b * 7 + 1
    assert got[1].numpy() == np.int64(a).astype(np.uint32).astype(np.int32) and got[2].numpy() == b


def test_long_bodies_run_their_plans():
    def body(i, x):
        for _ in range(2100):  # more steps than the interpreter takes in one program
            x = x + 1
        return i + 1, x

    def loop(n):
        return tf.while_loop(lambda i, x: i < n, body, (0, 0))
    got, want, compiled = _both(loop, tf.constant(3))
    assert not compiled
    _assert_same(got, want)
    assert got[1].numpy() == 6300


def test_integer_division_by_zero_raises_as_the_plans_do():
    def loop(n):  # the divisor reaches zero on the third iteration
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x + 100 // (2 - i)), (0, 0))
    errors = []
    for opt in (False, None):
        optimizer.set_experimental_options({"loop_optimization": opt})
        try:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                tf.function(loop)(tf.constant(5))
            errors.append(str(e.value))
        finally:
            optimizer.set_experimental_options({"loop_optimization": None})
    assert errors[0] == errors[1] and "Integer division by zero" in errors[0]
    got, want, compiled = _both(loop, tf.constant(2))  # the divisor stays nonzero: compiled, exact
    assert compiled
    _assert_same(got, want)
