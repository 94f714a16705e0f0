"""The C++ gradients (cpp/autodiff/gradients/) against their Python twins, and the C++ backward walk
against the Python one.

Each C++ gradient mirrors the Python function registered for its op type (which the numerical
checks of tests/test_op_table.py cover, and which graphs and other dtypes still use): on every
sample call of the op table plus the broadcasting and attr cases below, in float32 and float64, for
every set of skipped inputs, both give the same tensors bit for bit. The walk is checked the same
way on whole models: `backprop._native_walk` off runs the Python walk and Python functions only.
"""
import itertools

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.eager import backprop
from eagerflow.framework import gradient_registry
from eagerflow.ops._execute import execute
import eagerflow.ops.gradients_impl_all  # noqa: F401

from gradient_checker import OpView
from op_samples import SAMPLES, call, f, i32, i64

NATIVE = sorted(_core.native_gradient_types())

# Cases the op table's samples leave out: broadcasting both ways, leading and inner dims, the
# attrs that change what a gradient computes.
EXTRA = {
    "AddV2": [call(f(2, 3), f(2, 3)), call(f(3), f(4, 2, 3)), call(f(4, 1, 3), f(2, 1)), call(f(), f(2))],
    "Sub": [call(f(2, 3), f(3)), call(f(1, 3), f(2, 1)), call(f(5, 1, 1), f(2, 3))],
    "Mul": [call(f(2, 3), f(2, 3)), call(f(3, 1), f(2, 1, 4)), call(f(1), f(2, 2))],
    "RealDiv": [call(f(2, 3), f(2, 3) + 3.0), call(f(3, 1), f(2, 1, 4) - 3.0), call(f(), f(2, 2) + 3.0)],
    "SquaredDifference": [call(f(2, 1), f(1, 3)), call(f(4, 2, 3), f(3))],
    "MatMul": [call(f(3, 2), f(3, 4), transpose_a=True), call(f(2, 3), f(4, 3), transpose_b=True)],
    "Sum": [call(f(2, 3), i64([1])), call(f(2, 3), i32(0)), call(f(2, 3), i32([0, 1])), call(f(), i32([])),
            call(f(4, 3), i32([]), keep_dims=True)],
    "Mean": [call(f(2, 3), i32([0, 1])), call(f(2, 3, 4), i64([-2, 0]), keep_dims=True), call(f(0, 3), i32([0]))],
    "BiasAdd": [call(f(2, 3), f(3), data_format="NHWC"), call(f(2, 3, 4, 5), f(3), data_format="NCHW")],
    "Reshape": [call(f(2, 3), i32([-1])), call(f(1), i32([]))],
    "ExpandDims": [call(f(2, 3), i32(1))],
    "Squeeze": [call(f(1, 1), squeeze_dims=[0, 1])],
    "Log": [call(f(2, 3) ** 2 + 0.5)],
    "Sqrt": [call(f(4) ** 2)],
    "Reciprocal": [call(f(2, 2) + 4.0)],
    "ClipByValue": [call(f(3, 4), f(3, 4) - 0.5, f() + 0.5), call(f(2, 3), f(), f(2, 3) + 2.0)],
    "Cast": [call(f(2, 3), DstT=tf.float32), call(f(2), DstT=tf.int32), call(f(2), DstT=tf.complex64)],
    "Relu": [call(f(3, 4))],
    "Softmax": [call(f(2, 3, 4))],
    "LogSoftmax": [call(f(5))],
    "Identity": [call(f())],
}


def _cases(name):
    e = SAMPLES.get(name)
    return (list(e.calls) if e is not None else []) + EXTRA.get(name, [])


def _cast(values, dtype):
    """The float64 sample inputs as `dtype` (ints, handles and other dtypes stay as they are)."""
    out = []
    for v in values:
        if isinstance(v, tf.Tensor):
            out.append(v)
            continue
        a = np.asarray(v)
        out.append(tf.constant(a.astype(dtype) if a.dtype == np.float64 else a))
    return out


def _grad_like(t, rng):
    g = rng.standard_normal(t.shape.as_list())
    if t.dtype.is_complex:
        g = g + 1j * rng.standard_normal(t.shape.as_list())
    return tf.constant(g.astype(t.dtype.as_numpy_dtype))


def _same(a, b, what):
    if a is None or b is None:
        assert a is None and b is None, "%s: C++ %r, Python %r" % (what, a, b)
        return
    assert isinstance(a, tf.Tensor) and isinstance(b, tf.Tensor), what
    assert a.dtype == b.dtype and a.shape == b.shape, "%s: %s %s vs %s %s" % (what, a.dtype, a.shape, b.dtype,
                                                                               b.shape)
    na, nb = a.numpy(), b.numpy()
    assert na.tobytes() == nb.tobytes(), "%s: C++ %s, Python %s" % (what, na, nb)


def _out_grad_sets(outs, rng):
    """The output gradients a gradient function may get: each output alone and all together."""
    grads = [_grad_like(o, rng) if o.dtype.is_floating or o.dtype.is_complex else None for o in outs]
    if all(g is None for g in grads):
        return []  # an integer output: the walk never asks for its gradient
    if len(outs) == 1:
        g = grads[0]
        holes = tf.constant(g.numpy() * (rng.random(g.shape.as_list()) < 0.5).astype(g.numpy().dtype))
        return [grads, [holes]]  # zeros in the gradient: Sqrt's, Rsqrt's and Reciprocal's gradients mask them
    sets = [grads]
    for i, g in enumerate(grads):
        if g is not None:
            sets.append([g if j == i else None for j in range(len(outs))])
    return sets


@pytest.mark.parametrize("name", NATIVE)
def test_native_gradient_is_the_python_gradient_bit_for_bit(name):
    python_fn = gradient_registry.get_gradient_function(name)
    rng = np.random.default_rng(0)
    checked = 0
    for c, dtype in itertools.product(_cases(name), (np.float32, np.float64)):
        inputs = _cast(c.inputs, dtype)
        attrs = dict(c.attrs or {})
        outs = list(execute(name, inputs, attrs))
        n = len(inputs)
        for og, skip_n in itertools.product(_out_grad_sets(outs, rng), range(n + 1)):
            for skip in itertools.combinations(range(n), skip_n):
                native = _core.native_gradient(name, inputs, outs, attrs, og, list(skip))
                view = OpView(name, inputs, outs, attrs)
                view.skip_input_indices = skip or None
                python = python_fn(view, *og)
                assert native is not None, name
                assert len(native) == len(python) == n
                for i in range(n):
                    if i in skip and native[i] is None:
                        continue  # the C++ gradient may skip where the Python one does not
                    _same(native[i], python[i], "%s input %d (%s, skip %s)" % (name, i, dtype.__name__, skip))
                checked += 1
    assert checked, "%s has no case" % name


def test_every_native_gradient_mirrors_a_registered_python_function():
    for name in NATIVE:
        assert gradient_registry.get_gradient_function(name) is not None, name


def test_replacing_the_python_function_turns_the_native_gradient_off():
    x = tf.constant([1.0, 2.0])
    y = x * x
    f = gradient_registry._GRADIENTS["Mul"]
    try:
        gradient_registry._GRADIENTS["Mul"] = lambda op, grad: [grad, grad]
        assert _core.native_gradient("Mul", [x, x], [y], {}, [x]) is None
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = x * x
        assert tape.gradient(z, x).numpy().tolist() == [2.0, 2.0]  # the replacement's gradient
        del gradient_registry._GRADIENTS["Mul"]
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = x * x
        with pytest.raises(LookupError, match="gradient registry has no entry for: Mul"):
            tape.gradient(z, x)
    finally:
        gradient_registry._GRADIENTS["Mul"] = f
    assert _core.native_gradient("Mul", [x, x], [y], {}, [x]) is not None


# ---- the walk: C++ against Python on whole models ----

def _both_walks(fn):
    """fn() run with the C++ walk and with the Python walk (Python gradient functions only)."""
    out = fn()
    backprop._native_walk = False
    try:
        ref = fn()
    finally:
        backprop._native_walk = True
    return out, ref


def _same_structure(a, b, what="gradient"):
    fa, fb = tf.nest.flatten(a, expand_composites=True), tf.nest.flatten(b, expand_composites=True)
    assert len(fa) == len(fb), what
    for x, y in zip(fa, fb):
        _same(x, y, what)


def _rng_vars(dtype, *shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [tf.Variable(rng.standard_normal(s).astype(dtype)) for s in shapes]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mlp_step_gradients_match_the_python_walk(dtype):
    w1, b1, w2, b2 = _rng_vars(dtype, (8, 6), (6,), (6, 3), (3,))
    rng = np.random.default_rng(1)
    x = tf.constant(rng.standard_normal((4, 8)).astype(dtype))
    y = tf.constant(rng.integers(0, 3, 4))

    def grads():
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.bias_add(tf.matmul(x, w1), b1))
            logits = tf.matmul(h, w2) + b2
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        return tape.gradient(loss, [w1, b1, w2, b2])
    _same_structure(*_both_walks(grads))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_elementwise_and_softmax_chain_matches_the_python_walk(dtype):
    (w,) = _rng_vars(dtype, (3, 4))
    x = tf.constant(np.linspace(-1, 1, 12).reshape(3, 4).astype(dtype))

    def grads():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = tf.tanh(x * w) - tf.sigmoid(w) + tf.square(-w)
            b = tf.exp(tf.reshape(a, [4, 3]) * 0.1)
            c = tf.nn.softmax(b) + tf.nn.log_softmax(b) * 2.0
            s = tf.reduce_sum(c, axis=1, keepdims=True) / tf.cast(tf.reduce_mean(tf.cast(c, tf.float64) ** 2), c.dtype)
            loss = tf.reduce_sum(s * w[0, 0]) + tf.reduce_sum(tf.identity(w))
        g1 = tape.gradient(loss, [w, x])
        g2 = tape.gradient([loss, a], {"w": w})  # two targets; a persistent tape walked twice
        return g1, g2
    _same_structure(*_both_walks(grads))


def test_shared_weights_accumulate_as_the_python_walk_does():
    (w,) = _rng_vars(np.float32, (3, 3))
    x = tf.constant(np.eye(3, dtype=np.float32))

    def grads():
        with tf.GradientTape() as tape:
            h = x
            for _ in range(3):
                h = tf.tanh(tf.matmul(h, w)) + h
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)
    _same_structure(*_both_walks(grads))


def test_mixed_entries_go_to_python_functions():
    """IndexedSlices (a gather's gradient through a read), float16 and complex ops, a custom
    gradient and an op with only a Python gradient, between C++ ones."""
    emb, w = _rng_vars(np.float32, (5, 3), (3, 2))

    @tf.custom_gradient
    def scaled(t):
        return t * 3.0, lambda g: g * 0.5

    def grads():
        with tf.GradientTape() as tape:
            e = tf.gather(emb, [0, 2, 2])
            h = tf.cast(tf.nn.relu(tf.cast(tf.matmul(e, w), tf.float16)), tf.float32)
            z = tf.cast(h, tf.complex64) * tf.constant(1 + 2j, tf.complex64)
            loss = tf.reduce_sum(scaled(tf.cast(z * tf.math.conj(z), tf.float32))) + tf.reduce_sum(tf.sin(emb))
        return tape.gradient(loss, [emb, w])
    out, ref = _both_walks(grads)
    assert isinstance(out[0], tf.Tensor)  # IndexedSlices + a dense gradient sum to a dense one
    _same_structure(out, ref)


def test_indexed_slices_only_gradient_is_kept():
    (emb,) = _rng_vars(np.float32, (5, 3))

    def grads():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.gather(emb, [1, 1, 4])) + tf.reduce_sum(tf.gather(emb, [0]) * 2.0)
        return tape.gradient(loss, emb)
    out, ref = _both_walks(grads)
    assert isinstance(out, tf.IndexedSlices)
    _same_structure(out, ref)


def test_higher_order_gradients_match_the_python_walk():
    x = tf.constant([0.3, -0.7, 1.2])

    def grads():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.tanh(x) * tf.sigmoid(x) * x)
            dx = inner.gradient(y, x)
            z = tf.reduce_sum(tf.square(dx))
        return dx, outer.gradient(z, x)
    out, ref = _both_walks(grads)
    _same_structure(out, ref)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.reduce_sum(x * x * x)
        d2 = t2.gradient(t1.gradient(y, x), x)
    np.testing.assert_allclose(d2.numpy(), 6 * x.numpy(), rtol=1e-6)


def test_output_gradients_unconnected_and_targets_as_sources():
    (w,) = _rng_vars(np.float64, (2, 2))
    u = tf.Variable([1.0, 2.0], dtype=tf.float64)

    def grads():
        with tf.GradientTape(persistent=True) as tape:
            y = tf.matmul(w, w)
        g = tape.gradient(y, [w, u, y], output_gradients=tf.ones((2, 2), tf.float64) * 3.0,
                          unconnected_gradients="zero")
        return g
    _same_structure(*_both_walks(grads))


def test_errors_are_the_python_walks():
    x = tf.constant([1.0, 2.0])
    f = gradient_registry._GRADIENTS["Sin"]
    gradient_registry._GRADIENTS["Sin"] = lambda op, grad: [grad, grad]
    try:
        for walk in (True, False):
            backprop._native_walk = walk
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(tf.sin(x) * x)
            with pytest.raises(tf.errors.InternalError, match="Recorded operation 'Sin' returned too few gradients. "
                                                              "Expected 1 but received 2"):
                tape.gradient(y, x)
    finally:
        backprop._native_walk = True
        gradient_registry._GRADIENTS["Sin"] = f


def test_tape_inside_a_function_takes_the_python_walk():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)))
        return tape.gradient(loss, w)
    g = step(tf.constant([[1.0, -1.0]]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.nn.relu(tf.matmul(tf.constant([[1.0, -1.0]]), w)))
    _same(g, tape.gradient(loss, w), "tf.function gradient")


def test_the_mlp_walk_calls_no_python_gradient(monkeypatch):
    w1, b1, w2, b2 = _rng_vars(np.float32, (8, 6), (6,), (6, 3), (3,))
    x, y = tf.constant(np.ones((4, 8), np.float32)), tf.constant([0, 1, 2, 1])
    called = []

    def spy(pruned, out_grads):
        called.append(pruned[1])
        return backprop._python_gradient.__wrapped__(pruned, out_grads)
    spy.__wrapped__ = backprop._python_gradient
    monkeypatch.setattr(backprop, "_python_gradient", spy)
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, tf.matmul(h, w2) + b2))
        loss = loss + tf.reduce_sum(tf.sin(b2))
    assert all(g is not None for g in tape.gradient(loss, [w1, b1, w2, b2]))
    assert called == ["Sin"]


def test_an_eager_tapes_gradient_taken_while_tracing_is_the_python_walks():
    x = tf.constant([[0.5, -1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_mean(tf.tanh(x) * x + x)

    @tf.function
    def grad():
        return tape.gradient(y, x)
    np.testing.assert_allclose(grad().numpy(), tape.gradient(y, x).numpy(), rtol=1e-6)


def test_aliased_outputs_and_intermediate_sources_match_the_python_walk():
    """The walk lets each op's output gradients go once the op has run, but for sources and for
    outputs that may be other tensors (a custom gradient returning its input)."""
    (w,) = _rng_vars(np.float32, (3,))
    x = tf.constant([0.5, -1.0, 2.0])

    @tf.custom_gradient
    def passthrough(t):
        return t, lambda g: g * 2.0

    def grads():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            h = tf.tanh(x * w)
            y = h * 3.0
            z = passthrough(y)
            loss = tf.reduce_sum(z * y + h * h)
        return tape.gradient(loss, [x, h, y, w, z])
    out, ref = _both_walks(grads)
    assert all(g is not None for g in out)
    _same_structure(out, ref)


def test_trainable_dtypes_are_tfs():
    # TF's backprop_util.IsTrainable, which both walks apply through one C++ rule.
    assert {d.name for d in backprop._TRAINABLE} == {
        "bfloat16", "float16", "float32", "float64", "complex64", "complex128", "resource", "variant"}
    x = tf.constant([1, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.float32) * 2.0
    assert tape.gradient(y, x) is None
