"""Inverse trigonometric, hyperbolic and special functions against Python's math module and
their defining identities (their gradients are checked by the op table, tests/op_samples.py)."""
import math

import numpy as np
import pytest

import eagerflow as tf

X = [-0.9, -0.5, 0.0, 0.3, 0.99]
P = [0.1, 0.5, 1.0, 2.5, 7.0, 30.0, -0.5, -2.5]


@pytest.mark.parametrize("name,fn,points", [
    ("asin", math.asin, X), ("acos", math.acos, X), ("atan", math.atan, P), ("atanh", math.atanh, X),
    ("sinh", math.sinh, P), ("cosh", math.cosh, P), ("asinh", math.asinh, P), ("acosh", math.acosh, [1.0, 2.5, 30.0]),
    ("erf", math.erf, P), ("erfc", math.erfc, P), ("lgamma", math.lgamma, P),
    ("softsign", lambda v: v / (1 + abs(v)), P), ("log_sigmoid", lambda v: -math.log1p(math.exp(-v)), P),
])
@pytest.mark.parametrize("dtype,rtol", [(tf.float32, 2e-6), (tf.float64, 1e-14)])
def test_unary_matches_math(name, fn, points, dtype, rtol):
    got = getattr(tf.math, name)(tf.constant(points, dtype))
    assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), [fn(v) for v in points], rtol=rtol, atol=1e-30)


def test_top_level_and_nn_names():
    assert tf.asin is tf.math.asin and tf.atan2 is tf.math.atan2 and tf.cosh is tf.math.cosh
    assert tf.nn.softsign is tf.math.softsign
    assert tf.truncatediv(7, -2).numpy() == -3 and tf.truncatemod(-7, 2).numpy() == -1


def test_special_function_identities():
    x = tf.constant([0.25, 1.0, 3.5, 12.0, -0.5], tf.float64)
    d = tf.math.digamma
    np.testing.assert_allclose((d(x + 1.0) - d(x)).numpy(), 1 / x.numpy(), rtol=1e-12)
    assert abs(d(tf.constant(1.0, tf.float64)).numpy() + 0.5772156649015329) < 1e-14
    v = tf.constant(np.linspace(-0.999, 0.999, 41))
    np.testing.assert_allclose(tf.math.erf(tf.math.erfinv(v)).numpy(), v.numpy(), rtol=1e-13, atol=1e-15)
    z = tf.math.zeta(tf.constant([2.0, 4.0, 3.0], tf.float64), tf.constant([1.0, 1.0, 2.5], tf.float64)).numpy()
    np.testing.assert_allclose(z[:2], [math.pi ** 2 / 6, math.pi ** 4 / 90], rtol=1e-14)
    z2 = tf.math.zeta(tf.constant(3.0, tf.float64), tf.constant(3.5, tf.float64)).numpy()
    assert abs(z[2] - z2 - 2.5 ** -3) < 1e-14
    pg = tf.math.polygamma(tf.constant([0.0, 1.0, 2.0], tf.float64), tf.constant([2.5, 1.0, 1.0], tf.float64))
    np.testing.assert_allclose(pg.numpy(), [d(tf.constant(2.5, tf.float64)).numpy(), math.pi ** 2 / 6,
                                            -2 * 1.2020569031595942], rtol=1e-13)


def test_domains_and_edges_as_tf():
    nan, inf = float("nan"), float("inf")
    np.testing.assert_array_equal(tf.math.digamma(tf.constant([0.0, -1.0, -inf])).numpy(), [nan, nan, nan])
    np.testing.assert_array_equal(tf.math.erfinv(tf.constant([1.0, -1.0, 1.5])).numpy(), [inf, -inf, nan])
    np.testing.assert_array_equal(tf.math.zeta(tf.constant([1.0, 0.5]), tf.constant([1.0, 1.0])).numpy(),
                                  [inf, nan])
    assert np.isnan(tf.math.polygamma(tf.constant(1.5), tf.constant(1.0)).numpy())
    np.testing.assert_array_equal(tf.math.xlogy(tf.constant([0.0, 0.0, 1.0]), tf.constant([0.0, nan, 1.0])).numpy(),
                                  [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(tf.math.xdivy(tf.constant([0.0, 2.0]), tf.constant([0.0, 4.0])).numpy(), [0.0, 0.5])
    assert tf.math.nextafter(tf.constant(1.0), tf.constant(2.0)).numpy() == np.nextafter(np.float32(1), np.float32(2))
    assert tf.math.nextafter(tf.constant(1.0, tf.float64), 0.0).numpy() == np.nextafter(1.0, 0.0)
    np.testing.assert_allclose(tf.math.atan2(tf.constant([1.0, -1.0]), tf.constant([-1.0, -1.0])).numpy(),
                               [math.atan2(1, -1), math.atan2(-1, -1)], rtol=1e-6)


def test_integer_truncation_wraps_and_checks_zero():
    a = tf.constant([7, -7, -2**31], tf.int32)
    b = tf.constant([2, 2, -1], tf.int32)
    assert tf.truncatediv(a, b).numpy().tolist() == [3, -3, -2**31]
    assert tf.truncatemod(a, b).numpy().tolist() == [1, -1, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        tf.truncatediv(a, tf.constant([1, 0, 1]))
    assert tf.truncatediv(tf.constant([7.5, -7.5]), 2.0).numpy().tolist() == [3.0, -3.0]
    assert tf.truncatemod(tf.constant([7.5, -7.5]), 2.0).numpy().tolist() == [1.5, -1.5]


def test_dtype_sets_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed values: bfloat16, half, "
                                                               "float, double\n"):
        tf.math.erf(tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values: float, double\n"):
        tf.math.zeta(tf.constant([1], tf.float16), tf.constant([1], tf.float16))
    assert tf.math.asin(tf.constant([0.5 + 0.5j], tf.complex64)).dtype == tf.complex64


def test_log_sigmoid_gradient_is_sigmoid_of_minus_x():
    x = tf.constant([0.3, -2.0, 40.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log_sigmoid(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 1 / (1 + np.exp(x.numpy())), rtol=1e-14)


def test_no_gradient_where_tf_has_none():
    x, n = tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, n])
        y = tf.math.polygamma(n, x)
        z = tf.truncatediv(x, 2.0)
    assert tape.gradient(y, n) is None
    assert tape.gradient(z, x) is None
