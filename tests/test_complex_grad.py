"""Gradients with respect to complex64 and complex128 inputs, in TF's convention: for a real loss L, the gradient
of z is dL/dRe(z) + i dL/dIm(z) (a holomorphic op passes grad * conj(f'(z))).

Every op of the registry whose sample (tests/op_samples.py) has a gradient and also runs with its
float inputs made complex (either width) is checked against central differences of
L = sum(Re(conj(g) * f)) for a random complex upstream gradient g, eagerly and built in a graph.
Ops where TF follows another rule say which in their sample (`complex_grad`). A few values
obtained from TensorFlow 2.21 pin the convention itself."""
import zlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.framework import gradient_registry
from eagerflow.ops import math_ops
from eagerflow.ops._execute import execute
import eagerflow.ops.gradients_impl_all  # noqa: F401

from gradient_checker import call_gradient, check_graph
from op_samples import SAMPLES
from test_op_table import NAMES, OPS, _flat_positions, tensors

_RULES = ("unconjugated", "real_upstream", "zero")


def _complex_values(name, c, ctype):
    """The call's inputs with every float or complex one made `ctype` with a nonzero imaginary
    part (seeded by the op's name); None when the call has no such input."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out, changed = [], False
    for x in c.inputs:
        if isinstance(x, tf.Tensor) and not (x.dtype.is_floating or x.dtype.is_complex):
            out.append(x)  # handles, TensorLists
            continue
        v = x.numpy() if isinstance(x, tf.Tensor) else np.asarray(x)
        if v.dtype.kind in "fc":
            v = np.asarray(v + 1j * rng.uniform(-0.4, 0.4, v.shape), ctype)
            changed = True
        out.append(v)
    return out if changed else None


def _complex_cases(ctype):
    """{op name: [(call, complex values)]} for the differentiable ops that take `ctype`."""
    cases = {}
    for name in NAMES:
        e = SAMPLES[name]
        if e.no_grad or e.no_entry or gradient_registry.get_gradient_function(name) is None:
            continue
        for c in e.calls:
            values = _complex_values(name, c, ctype)
            if values is None:
                continue
            try:
                execute(name, tensors(values), c.attrs)
            except (tf.errors.InvalidArgumentError, tf.errors.NotFoundError, TypeError):
                continue  # the op takes no ctype (its kernel or its function attrs say so)
            cases.setdefault(name, []).append((c, values))
    return cases


CASES = _complex_cases(np.complex64)
CASES128 = _complex_cases(np.complex128)
_BY_TYPE = {np.complex64: CASES, np.complex128: CASES128}


def test_complex_ops_are_found():
    # The discovery above must see the ops whose gradients conjugate, and whatever else takes complex64.
    assert {"Mul", "RealDiv", "Exp", "Pow", "MatMul", "BatchMatMulV2", "Prod", "ComplexAbs", "Sum",
            "Cast"} <= set(CASES), sorted(CASES)
    assert {"Mul", "RealDiv", "Exp", "Pow", "MatMul", "BatchMatMulV2", "Prod", "ComplexAbs", "Sum", "Cast", "Sqrt",
            "Tanh"} <= set(CASES128), \
        sorted(CASES128)


def test_complex_grad_rules_are_known():
    for name, e in SAMPLES.items():
        if e.complex_grad is not None:
            assert set(e.complex_grad) <= set(_RULES) and len(e.complex_grad) == 1, name
            assert name in CASES, "%s declares a complex_grad rule but takes no complex64" % name


def _upstream(outs, rng, real):
    ups = []
    for y in outs:
        shape = tuple(y.shape)
        if y.dtype.is_complex:
            g = rng.standard_normal(shape) + (0 if real else 1j * rng.standard_normal(shape))
        elif y.dtype.is_floating:
            g = rng.standard_normal(shape)
        else:
            ups.append(None)
            continue
        ups.append(np.asarray(g).astype(y.numpy().dtype))
    return ups


def _loss(name, values, attrs, ups):
    """sum(Re(conj(g) * f)) over the outputs, in float64."""
    total = 0.0
    for y, g in zip(execute(name, tensors(values), attrs), ups):
        if g is not None:
            total += float(np.sum(np.real(np.conj(g.astype(np.complex128)) * y.numpy().astype(np.complex128))))
    return total


def _numerical(name, values, attrs, ups, i, delta=1e-2):
    """dL/dRe(x) + i dL/dIm(x) for input i by central differences (the steps as x's dtype holds them)."""
    x = values[i]
    out = np.zeros(x.shape, np.complex128)
    for k in range(x.size):
        for unit in (1, 1j):
            xp, xm = x.copy(), x.copy()
            xp.flat[k] += x.dtype.type(delta * unit)
            xm.flat[k] -= x.dtype.type(delta * unit)
            step = complex(xp.flat[k]) - complex(xm.flat[k])
            step = step.real if unit == 1 else step.imag
            lp = _loss(name, values[:i] + [xp] + values[i + 1:], attrs, ups)
            lm = _loss(name, values[:i] + [xm] + values[i + 1:], attrs, ups)
            out.flat[k] += unit * (lp - lm) / step
    return out


@pytest.mark.parametrize("name, ctype", [(n, np.complex64) for n in sorted(CASES)] +
                         [(n, np.complex128) for n in sorted(CASES128)], ids=lambda v: getattr(v, "__name__", v))
def test_complex_gradient_matches_finite_differences(name, ctype):
    e = SAMPLES[name]
    rule = next(iter(e.complex_grad)) if e.complex_grad else None
    rng = np.random.default_rng(zlib.crc32(name.encode()) + 1)
    checked = 0
    for c, values in _BY_TYPE[ctype][name]:
        names = e.grad or tuple(i.rstrip("*") for i in OPS[name].inputs)  # grad_checked_in: every input
        wrt = [i for i in _flat_positions(OPS[name], len(values), names)
               if isinstance(values[i], np.ndarray) and values[i].dtype == ctype]
        if not wrt:
            continue
        outs = execute(name, tensors(values), c.attrs)
        ups = _upstream(outs, rng, real=rule == "real_upstream")
        got = call_gradient(name, values, c.attrs, ups)
        for i in wrt:
            g = got[i]
            if rule == "zero":
                assert g is None or not np.any(g.numpy()), name
                continue
            assert g is not None and g.dtype == tf.as_dtype(ctype) and tuple(g.shape) == values[i].shape, (name, i, g)
            if rule == "unconjugated":  # grad * f'(z): conj of the convention's gradient for conj(g)
                want = np.conj(_numerical(name, values, c.attrs, [None if u is None else np.conj(u) for u in ups], i))
            else:
                want = _numerical(name, values, c.attrs, ups, i)
            scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
            np.testing.assert_allclose(g.numpy(), want, rtol=2e-3, atol=2e-3 * scale,
                                       err_msg="%s: gradient of input %d" % (name, i))
        check_graph(name, values, c.attrs, wrt)
        checked += 1
    assert checked, "%s: no call has %s values for the inputs %s" % (name, ctype.__name__, e.grad)


# ---- values from TensorFlow 2.21 ----
# The gradient of sum(f(*xs) * u), with u = [1, 2, ...] (times 1 - 0.5j for complex outputs).

def _c(v, ctype=np.complex64):
    return tf.constant(np.array(v, ctype))


_TF_VALUES = {
    "Mul": (lambda x, y: x * y, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
            [[2.5 + 2.5j, 4.5 + 1j], [2 - 1.5j, -2.5j]]),
    "RealDiv": (lambda x, y: x / y, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
                [[0.35 + 0.05j, 0.8235 + 0.7059j], [-0.07 + 0.24j, -0.2768 + 0.519j]]),
    "Exp": (tf.exp, [[1 + 2j, -0.5 + 1j]], [[0.1047 - 3.0373j, 1.1658 - 0.693j]]),
    "Sqrt": (tf.sqrt, [[1 + 2j, -4 + 0j]], [[0.1965 + 0.318j, -0.25 + 0.5j]]),
    "Tanh": (tf.tanh, [[0.5 + 0.3j, -0.2 + 1j]], [[0.6923 + 0.6419j, 6.6665 - 0.8906j]]),
    "Asin": (tf.asin, [[0.5 + 0.3j, -0.2 + 1j]], [[1.1337 + 0.3409j, 1.3359 + 0.8456j]]),
    # A negative real base: log and pow of conj(-2+0j) = -2-0j, on the lower side of the cut.
    "Pow": (tf.pow, [[-2 + 0j, 1 + 1j], [0.5 + 0j, 2 - 1j]],
            [[-0.1768 + 0.3536j, 13.6951 + 7.2779j], [-3.9528 - 3.2017j, -2.8478 - 7.9242j]]),
    "MatMul": (tf.matmul, [[[1 + 2j, 0.5 - 1j], [2j, 1]], [[1 - 1j], [3 + 0.5j]]],
               [[[0.5 + 1.5j, 3.25 + 1j], [1 + 3j, 6.5 + 2j]], [[4 - 5.5j], [2 + 2.25j]]]),
    "MatMul transposed": (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                          [[[1 + 2j, 0.5 - 1j], [2j, 1]], [[1 - 1j, 3 + 0.5j]]],
                          [[[0.5 + 1.5j, 1 + 3j], [3.25 + 1j, 6.5 + 2j]], [[2 + 1j, 3 - 1j]]]),
    "Prod": (tf.reduce_prod, [[1 + 2j, 0.5 - 1j, 2 + 1j]], [[1.25 + 2.5j, 2.5 - 5j, 2.5 + 1.25j]]),
    "Cumprod": (tf.math.cumprod, [[1 + 2j, 0.5 - 1j, 2 + 1j]], [[11.25 - 2.5j, -7.5 + 20j, 7.5 + 3.75j]]),
    "MulNoNan": (tf.math.multiply_no_nan, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
                 [[3.5 + 0.5j, 3.5 + 3j], [2.5j, -2 + 1.5j]]),
    "Xlogy": (tf.math.xlogy, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
              [[1.3122 + 0.2539j, 1.2019 + 1.2134j], [-0.25 + 0.75j, -0.7647 + 0.9412j]]),
    "Xdivy": (tf.math.xdivy, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
              [[0.25 + 0.25j, 1.0588 + 0.2353j], [0.15 - 0.2j, 0.2491 - 0.5329j]]),
    "SquaredDifference": (tf.math.squared_difference, [[1 + 2j, -0.5 + 1j], [3 - 1j, 2 + 0.5j]],
                          [[-7 + 4j, -11 - 3j], [7 - 4j, 11 + 3j]]),
    "ComplexAbs": (tf.abs, [[3 + 4j, 0j]], [[0.6 + 0.8j, 0j]]),
    "Cast to real": (lambda x: tf.cast(x, tf.float32) * tf.constant([2.0, 3.0]), [[3 + 4j, -1j]], [[2, 6]]),
}


@pytest.mark.parametrize("case, ctype", [(c, np.complex64) for c in sorted(_TF_VALUES)] +
                         [(c, np.complex128) for c in sorted(_TF_VALUES)],
                         ids=lambda v: getattr(v, "__name__", v))
def test_complex_gradient_as_tensorflow(case, ctype):
    fn, args, want = _TF_VALUES[case]
    xs = [_c(a, ctype) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
        u = np.arange(1, int(np.prod(y.shape)) + 1).reshape(tuple(y.shape))
        loss = y * tf.constant(u * (1 - 0.5j) if y.dtype.is_complex else u, y.dtype)
    for g, w in zip(tape.gradient(loss, xs), want):
        assert g.dtype == tf.as_dtype(ctype)
        np.testing.assert_allclose(g.numpy(), np.array(w, ctype), atol=2e-4, rtol=1e-4, err_msg=case)


def test_cast_to_complex_gradient_is_the_real_part():
    x = tf.constant([1.5, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.complex64) * tf.constant([1 + 2j, 3 - 1j], tf.complex64)
    g = tape.gradient(y, x)
    assert g.dtype == tf.float32
    np.testing.assert_array_equal(g.numpy(), [1.0, 3.0])  # TF 2.21


# ---- conj ----

def test_conj_is_exact_and_real_tensors_pass_through():
    z = np.array([1 + 2j, -2 + 0j, complex(-2, -0.0), complex(0, -0.0), complex(1e38, 5), complex(2, np.inf),
                  complex(np.nan, 1)], np.complex64)
    got = math_ops.conj(tf.constant(z)).numpy()
    np.testing.assert_array_equal(got, np.conj(z))
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(np.conj(z).imag))
    x = tf.constant([1.0, -2.0])
    assert math_ops.conj(x) is x


def test_conj_gradient_is_the_conjugate():
    # TF: d/dz of conj(z) * a passes conj(grad * conj(a)) = a for grad = 1.
    z = tf.constant([1 + 2j, -0.5 + 1j], tf.complex64)
    a = tf.constant([2 - 1j, 0.5 + 3j], tf.complex64)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = math_ops.conj(z) * a
    np.testing.assert_allclose(tape.gradient(y, z).numpy(), a.numpy())


def test_second_order_complex_gradients_as_tensorflow():
    # Gradients of gradients go through the conj in each gradient function (TF 2.21's values).
    x = _c([1 + 2j, -0.5 + 1j])
    y = _c([3 - 1j, 2 + 0.5j])
    m = _c([[1 + 2j, 0.5 - 1j], [2j, 1]])
    with tf.GradientTape(persistent=True) as outer:
        outer.watch([x, y, m])
        with tf.GradientTape(persistent=True) as inner:
            inner.watch([x, y, m])
            a, b, c, d = tf.exp(x) * y, tf.pow(x, y), tf.matmul(m, m), tf.tanh(x) / y
        ga, gb, gc, (gdx, gdy) = (inner.gradient(a, x), inner.gradient(b, y), inner.gradient(c, m),
                                  inner.gradient(d, [x, y]))
        s = (tf.reduce_sum(ga * y) + tf.reduce_sum(gb * x) + tf.reduce_sum(gc) + tf.reduce_sum(gdx)
             + tf.reduce_sum(gdy * x))
    want = {"x": [65.5214 - 165.5042j, 4.248 - 6.0834j], "y": [-146.6306 + 23.8811j, 2.1663 + 2.6339j],
            "m": [[4, 4], [4, 4]]}
    for k, v in (("x", x), ("y", y), ("m", m)):
        np.testing.assert_allclose(outer.gradient(s, v).numpy(), np.array(want[k], np.complex64), rtol=1e-4,
                                   atol=1e-3, err_msg=k)
