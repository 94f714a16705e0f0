"""float16 conversions round like IEEE (NumPy): every half value, halfway cases, subnormals,
overflow and NaN, through casts and arithmetic."""
import numpy as np

import eagerflow as tf


def test_every_half_value_round_trips_through_float32():
    bits = np.arange(1 << 16, dtype=np.uint16)
    h = bits.view(np.float16)
    f = tf.cast(tf.constant(h), tf.float32).numpy()
    np.testing.assert_array_equal(f, h.astype(np.float32))
    back = tf.cast(tf.constant(f), tf.float16).numpy().view(np.uint16)
    finite = ~np.isnan(h)
    np.testing.assert_array_equal(back[finite], bits[finite])
    assert np.isnan(back.view(np.float16)[~finite]).all()


def test_float32_to_half_rounds_to_nearest_even():
    rng = np.random.default_rng(0)
    x = np.concatenate([
        rng.standard_normal(20000).astype(np.float32) * 10.0 ** rng.integers(-9, 6, 20000),
        # halfway between neighbouring halves (ties go to even), around the normal/subnormal edge
        ((np.arange(2048, dtype=np.float32) + 0.5) * np.float32(2.0 ** -24)),
        np.float32([65504, 65519.99, 65520, 65536, 1e10, -1e10, 2.0 ** -25, 2.0 ** -25 * 1.0001,
                    6.1035156e-05, 5.9604645e-08, -0.0, 0.0, np.inf, -np.inf]),
    ]).astype(np.float32)
    got = tf.cast(tf.constant(x), tf.float16).numpy()
    with np.errstate(over="ignore"):
        want = x.astype(np.float16)
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_float64_and_integers_to_half():
    x = np.array([0.1, 1 / 3, 1e-6, 70000.0, -2.5], np.float64)
    with np.errstate(over="ignore"):
        want = x.astype(np.float32).astype(np.float16)
    np.testing.assert_array_equal(tf.cast(tf.constant(x), tf.float16).numpy(), want)
    np.testing.assert_array_equal(tf.cast(tf.constant([1, 2049, 65504, 70000]), tf.float16).numpy(),
                                  np.float16([1, 2048, 65504, np.inf]))


def test_half_arithmetic_rounds_once_per_op():
    a = np.float16([0.1, 1000.0, 3.0, 65504.0, -0.0])
    b = np.float16([0.2, 0.3, 7.0, 65504.0, 0.0])
    for op, ref in ((tf.add, np.add), (tf.multiply, np.multiply), (tf.subtract, np.subtract),
                    (tf.divide, np.divide)):
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(op(tf.constant(a), tf.constant(b)).numpy(), ref(a, b))
    assert np.isnan(tf.constant(np.float16("nan")).numpy())
    assert tf.reduce_max(tf.constant(np.float16([-np.inf, -1.0]))).numpy() == -1.0
