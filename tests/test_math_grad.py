"""Gradients of the math ops, checked numerically (central differences in float64), eagerly and in tf.function."""
import numpy as np
import pytest

import eagerflow as tf

RNG = np.random.default_rng(0)


def _numeric(f, xs, u, i, eps=1e-6):
    num = np.zeros_like(xs[i])
    for idx in np.ndindex(xs[i].shape):
        hi = [a.copy() for a in xs]
        lo = [a.copy() for a in xs]
        hi[i][idx] += eps
        lo[i][idx] -= eps
        fp = np.sum(u * f(*[tf.constant(a) for a in hi]).numpy())
        fm = np.sum(u * f(*[tf.constant(a) for a in lo]).numpy())
        num[idx] = (fp - fm) / (2 * eps)
    return num


def _tape_grads(f, ts, u):
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = f(*ts)
    return tape.gradient(y, ts, output_gradients=u)


def _positional(n, g):
    """g(*args) as a function with n named positional parameters (input_signature needs them)."""
    names = ", ".join(f"a{i}" for i in range(n))
    ns = {"g": g}
    exec(f"def h({names}):\n    return g({names})", ns)
    return ns["h"]


def check_gradient(f, *xs, tol=1e-6, graph=True, expect_none=()):
    """Tape gradients of f at xs (float64 arrays) against central differences, with a random
    upstream gradient; also inside tf.function (fixed shapes, and unknown dims) when `graph`."""
    xs = [np.asarray(x, dtype=np.float64) for x in xs]
    ts = [tf.constant(x) for x in xs]
    y = f(*ts)
    u = RNG.standard_normal(y.shape)
    ut = tf.constant(u)
    eager = _tape_grads(f, ts, ut)
    results = [("eager", eager)]
    if graph:
        results.append(("function", tf.function(lambda *a: _tape_grads(f, a[:-1], a[-1]))(*ts, ut)))
        sig = [tf.TensorSpec([None] * x.ndim, tf.float64) for x in xs] + [tf.TensorSpec([None] * u.ndim, tf.float64)]
        dyn = tf.function(_positional(len(sig), lambda *a: _tape_grads(f, a[:-1], a[-1])), input_signature=sig)
        results.append(("function, unknown dims", dyn(*ts, ut)))
    for i in range(len(xs)):
        if i in expect_none:
            for mode, grads in results:
                assert grads[i] is None, mode
            continue
        num = _numeric(f, xs, u, i)
        for mode, grads in results:
            assert grads[i] is not None, (mode, i)
            assert grads[i].dtype == tf.float64
            assert tuple(grads[i].shape) == xs[i].shape, mode
            np.testing.assert_allclose(grads[i].numpy(), num, rtol=tol, atol=tol, err_msg=f"{mode}, input {i}")


def rand(*shape, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, size=shape)


def away(*shape, lo=0.5, hi=2.0):
    """Values with |x| in [lo, hi] and random signs (away from kinks and poles)."""
    return RNG.uniform(lo, hi, size=shape) * RNG.choice([-1.0, 1.0], size=shape)


UNARY = [
    ("neg", tf.negative, rand(2, 3)),
    ("abs", tf.abs, away(2, 3)),
    ("square", tf.square, rand(2, 3)),
    ("sqrt", tf.sqrt, rand(2, 3, lo=0.5)),
    ("rsqrt", tf.math.rsqrt, rand(2, 3, lo=0.5)),
    ("reciprocal", tf.math.reciprocal, away(2, 3)),
    ("exp", tf.exp, rand(2, 3)),
    ("expm1", tf.math.expm1, rand(2, 3)),
    ("log", tf.math.log, rand(2, 3, lo=0.5)),
    ("log1p", tf.math.log1p, rand(2, 3, lo=-0.5)),
    ("sin", tf.sin, rand(2, 3)),
    ("cos", tf.cos, rand(2, 3)),
    ("tan", tf.tan, rand(2, 3, lo=-1.0, hi=1.0)),
    ("tanh", tf.tanh, rand(2, 3)),
    ("sigmoid", tf.sigmoid, rand(2, 3)),
    ("identity", tf.identity, rand(2, 3)),
    ("sign", tf.sign, away(2, 3)),
    ("scalar", tf.exp, np.array(0.7)),
    ("empty", tf.exp, np.zeros((0, 3))),
]


@pytest.mark.parametrize("name,f,x", UNARY, ids=[u[0] for u in UNARY])
def test_unary(name, f, x):
    check_gradient(f, x)


@pytest.mark.parametrize("f", [tf.floor, tf.math.ceil, tf.round], ids=["floor", "ceil", "round"])
def test_rounding_has_no_gradient(f):
    check_gradient(f, rand(3) + 0.25, expect_none=(0,))


BINARY = [
    ("add", tf.add), ("sub", tf.subtract), ("mul", tf.multiply), ("div", tf.divide),
    ("maximum", tf.maximum), ("minimum", tf.minimum), ("squared_difference", tf.math.squared_difference),
    ("operator_mul", lambda x, y: x * y), ("operator_div", lambda x, y: x / y),
]
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 2)), ((4, 1, 3), (2, 1))]


@pytest.mark.parametrize("name,f", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("sx,sy", SHAPES, ids=[f"{a}x{b}" for a, b in SHAPES])
def test_binary_broadcasting(name, f, sx, sy):
    x = away(*sx)
    y = away(*sy)
    if name in ("maximum", "minimum"):  # keep x and y apart (the kink where they meet)
        x = np.round(x, 1)
        y = np.round(y, 1) + 0.05
    check_gradient(f, x, y)


def test_pow():
    check_gradient(tf.pow, rand(2, 3, lo=0.5), rand(2, 3))
    check_gradient(tf.pow, rand(2, 3, lo=0.5), rand(3))


def test_pow_at_zero_base_is_finite():
    x = tf.constant([0.0, 2.0], tf.float64)
    y = tf.constant([2.0, 3.0], tf.float64)
    with tf.GradientTape() as t:
        t.watch([x, y])
        z = x ** y
    gx, gy = t.gradient(z, [x, y])
    np.testing.assert_allclose(gx.numpy(), [0.0, 12.0])
    np.testing.assert_allclose(gy.numpy(), [0.0, 8.0 * np.log(2.0)])


def test_floormod():
    check_gradient(tf.math.floormod, np.array([[1.3, -2.7, 5.2]]), np.array([2.0, 1.5, -2.5]))


def test_floordiv_has_no_gradient():
    check_gradient(tf.math.floordiv, np.array([1.3, -2.7]), np.array([2.0, 1.5]), expect_none=(0, 1))


def test_clip_by_value():
    x = np.array([[-1.5, -0.2, 0.3], [0.9, 1.7, -0.6]])
    check_gradient(lambda x, lo, hi: tf.clip_by_value(x, lo, hi), x, np.array(-0.5), np.array([0.5, 1.0, 0.8]))


def test_where():
    c = tf.constant([[True, False, True], [False, False, True]])
    check_gradient(lambda x, y: tf.where(c, x, y), rand(2, 3), rand(3))


def test_add_n():
    check_gradient(lambda a, b, c: tf.add_n([a, b, c, a]), rand(2, 2), rand(2, 2), rand(2, 2))


def test_cast_float():
    x = tf.constant([1.5, 2.5], tf.float64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.float32) * 3.0
    g = t.gradient(y, x)
    assert g.dtype == tf.float64
    np.testing.assert_allclose(g.numpy(), [3.0, 3.0])


def test_cast_to_int_stops_gradient():
    x = tf.constant([1.5, 2.5])
    with tf.GradientTape() as t:
        t.watch(x)
        z = tf.cast(tf.cast(x, tf.int32), tf.float32)
    assert t.gradient(z, x) is None


REDUCTIONS = [
    ("sum", tf.reduce_sum), ("mean", tf.reduce_mean), ("prod", tf.reduce_prod),
    ("max", tf.reduce_max), ("min", tf.reduce_min),
]
AXES = [(None, False), (0, False), (1, True), ([0, 2], False), (-1, True), ([], False)]


@pytest.mark.parametrize("name,f", REDUCTIONS, ids=[r[0] for r in REDUCTIONS])
@pytest.mark.parametrize("axis,keepdims", AXES, ids=[f"{a}-{k}" for a, k in AXES])
def test_reductions(name, f, axis, keepdims):
    x = away(2, 3, 2)
    if name in ("max", "min"):
        x = RNG.permutation(12).reshape(2, 3, 2) / 7.0 + 0.1  # distinct values: no ties
    check_gradient(lambda x: f(x, axis=axis, keepdims=keepdims), x)


def test_prod_with_zeros():
    x = np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 1.5]])
    check_gradient(lambda x: tf.reduce_prod(x, axis=1), x)


def test_max_ties_share_gradient():
    x = tf.constant([1.0, 3.0, 3.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_max(x)
    np.testing.assert_allclose(t.gradient(y, x).numpy(), [0.0, 0.5, 0.5, 0.0])


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative(exclusive, reverse):
    check_gradient(lambda x: tf.math.cumsum(x, axis=1, exclusive=exclusive, reverse=reverse), rand(2, 4))
    check_gradient(lambda x: tf.math.cumprod(x, axis=0, exclusive=exclusive, reverse=reverse), away(3, 2))


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_matmul(ta, tb):
    a = rand(3, 2) if ta else rand(2, 3)
    b = rand(4, 3) if tb else rand(3, 4)
    check_gradient(lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb), a, b)


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_batch_matmul_broadcast(ta, tb):
    a = rand(2, 3, 2) if ta else rand(2, 2, 3)
    b = rand(4, 3) if tb else rand(3, 4)
    check_gradient(lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb), a, b)
    check_gradient(lambda a, b: tf.matmul(a, b, adjoint_a=ta, adjoint_b=tb), rand(1, 2, 2, 3) if not ta
                   else rand(1, 2, 3, 2), rand(3, 1, 3, 4) if not tb else rand(3, 1, 4, 3))


def test_variable_read():
    v = tf.Variable(rand(2, 2))
    with tf.GradientTape() as t:
        y = tf.reduce_sum(v * v * 3.0)
    np.testing.assert_allclose(t.gradient(y, v).numpy(), 6.0 * v.numpy())


def test_composite_mlp_matches_numeric():
    w1, b1, w2 = rand(3, 4), rand(4), rand(4, 2)

    def f(x, w1, b1, w2):
        h = tf.tanh(tf.matmul(x, w1) + b1)
        return tf.reduce_mean(tf.square(tf.matmul(h, w2) - 1.0), axis=1)
    check_gradient(f, rand(5, 3), w1, b1, w2)


def test_comparisons_block_gradient():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(tf.greater(x, 1.5), tf.float32)
    assert t.gradient(y, x) is None


def test_broadcast_gradient_args_op():
    from eagerflow.ops import _execute
    r0, r1 = _execute.execute("BroadcastGradientArgs", [tf.constant([2, 1, 3]), tf.constant([4, 3])])
    assert r0.numpy().tolist() == [1] and r1.numpy().tolist() == [0]
    r0, r1 = _execute.execute("BroadcastGradientArgs", [tf.constant([1, 4, 3]), tf.constant([3])])
    assert r0.numpy().tolist() == [0] and r1.numpy().tolist() == [0, 1]
    for s0, s1, want0, want1 in [([1, 1], [1], [0, 1], [0, 1]), ([1], [1], [], []), ([3, 1], [1], [1], [0, 1]),
                                 ([], [2, 3], [0, 1], [])]:
        r0, r1 = _execute.execute("BroadcastGradientArgs", [tf.constant(s0, tf.int32), tf.constant(s1, tf.int32)])
        assert (r0.numpy().tolist(), r1.numpy().tolist()) == (want0, want1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        _execute.execute("BroadcastGradientArgs", [tf.constant([2]), tf.constant([3])])


@pytest.mark.parametrize("f", [tf.reduce_logsumexp, tf.math.reduce_variance, tf.math.reduce_std],
                         ids=["logsumexp", "variance", "std"])
def test_composite_reductions(f):
    check_gradient(lambda x: f(x, axis=1), away(3, 4))


try:
    from hypothesis import given, strategies as st
except ImportError:  # hypothesis is a test extra
    given = None

if given is not None:
    @given(st.lists(st.sampled_from([1, 2, 3]), min_size=0, max_size=4), st.data())
    def test_broadcast_gradients_property(out_shape, data):
        """d sum(x * y) / dx is y summed over the axes x was broadcast along (and vice versa)."""
        def input_shape():
            rank = data.draw(st.integers(0, len(out_shape)))
            dims = out_shape[len(out_shape) - rank:]
            return [d if data.draw(st.booleans()) else 1 for d in dims]
        sx, sy = input_shape(), input_shape()
        x = RNG.standard_normal(sx)
        y = RNG.standard_normal(sy)
        tx, ty = tf.constant(x), tf.constant(y)
        with tf.GradientTape() as t:
            t.watch([tx, ty])
            z = tf.reduce_sum(tx * ty)
        gx, gy = t.gradient(z, [tx, ty])
        full = np.broadcast_shapes(x.shape, y.shape)

        def reduce_to(a, shape):
            a = np.broadcast_to(a, full)
            a = a.sum(axis=tuple(range(len(full) - len(shape)))) if len(full) > len(shape) else a
            return a.sum(axis=tuple(i for i, d in enumerate(shape) if d == 1), keepdims=True).reshape(shape)
        np.testing.assert_allclose(gx.numpy(), reduce_to(y, x.shape), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(gy.numpy(), reduce_to(x, y.shape), rtol=1e-10, atol=1e-12)


def test_complex_abs():
    x = tf.constant([3 + 4j, 0j, -1 + 2j], tf.complex64)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.abs(x) * tf.constant([1.0, 2.0, 3.0]))
    g = t.gradient(y, x)
    assert g.dtype == tf.complex64
    np.testing.assert_allclose(g.numpy(), [0.6 + 0.8j, 0j, 3 * (-1 + 2j) / np.sqrt(5)], rtol=1e-6)
