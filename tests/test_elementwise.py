"""Binary elementwise ops and operators vs NumPy: dtypes, broadcasting, wrap-around, TF's division rules."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute1

from _elementwise_common import ALL, C64, F32, FLOATS, INTS, SIGNED, check_close, sample

BOOL, STR = np.bool_, object
SHAPE_PAIRS = [((), ()), ((5,), ()), ((), (5,)), ((3, 1), (1, 4)), ((0, 3), (1, 3)), ((2, 0), (2, 1)),
               ((2, 3, 4), (3, 1)), ((4,), (4,)), ((1,), (5,)), ((5, 1, 1), (1, 1)), ((0,), ()), ((2, 1, 3), (4, 1))]


def _floordiv(x, y):
    if x.dtype.kind == "f":  # TF: floor(x / y) with the quotient rounded to the dtype first
        return np.floor(np.divide(x, y))
    return np.floor_divide(x, y)


def _floormod(x, y):
    if x.dtype.kind == "f":  # TF: fmod, then shifted by y when the signs differ
        r = np.fmod(x, y)
        return np.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)
    return np.mod(x, y)


def _squared_difference(x, y):
    d = x - y
    return d * np.conj(d) if d.dtype.kind == "c" else d * d


NUMERIC = FLOATS + INTS + [C64]
REAL = FLOATS + INTS
# name -> (wrapper, raw op, NumPy reference, dtypes TF has kernels for)
BINARY = {
    "add": (tf.add, "AddV2", np.add, NUMERIC),
    "subtract": (tf.subtract, "Sub", np.subtract, NUMERIC),
    "multiply": (tf.multiply, "Mul", np.multiply, NUMERIC),
    "floordiv": (tf.math.floordiv, "FloorDiv", _floordiv, REAL),
    "floormod": (tf.math.floormod, "FloorMod", _floormod, REAL),
    "pow": (tf.pow, "Pow", np.power, FLOATS + SIGNED + [C64]),
    "maximum": (tf.maximum, "Maximum", np.maximum, REAL),
    "minimum": (tf.minimum, "Minimum", np.minimum, REAL),
    "squared_difference": (tf.math.squared_difference, "SquaredDifference", _squared_difference,
                           FLOATS + [np.int32, np.int64, C64]),
    "less": (tf.less, "Less", np.less, REAL),
    "less_equal": (tf.less_equal, "LessEqual", np.less_equal, REAL),
    "greater": (tf.greater, "Greater", np.greater, REAL),
    "greater_equal": (tf.greater_equal, "GreaterEqual", np.greater_equal, REAL),
    "equal": (tf.equal, "Equal", np.equal, NUMERIC + [BOOL, STR]),
    "not_equal": (tf.not_equal, "NotEqual", np.not_equal, NUMERIC + [BOOL, STR]),
    "logical_and": (tf.logical_and, "LogicalAnd", np.logical_and, [BOOL]),
    "logical_or": (tf.logical_or, "LogicalOr", np.logical_or, [BOOL]),
    "logical_xor": (tf.math.logical_xor, None, np.logical_xor, [BOOL]),
    "bitwise_and": (tf.bitwise.bitwise_and, "BitwiseAnd", np.bitwise_and, INTS),
    "bitwise_or": (tf.bitwise.bitwise_or, "BitwiseOr", np.bitwise_or, INTS),
    "bitwise_xor": (tf.bitwise.bitwise_xor, "BitwiseXor", np.bitwise_xor, INTS),
    "left_shift": (tf.bitwise.left_shift, "LeftShift", np.left_shift, INTS),
    "right_shift": (tf.bitwise.right_shift, "RightShift", np.right_shift, INTS),
}
# Dtypes eagerflow accepts beyond TF's kernels: strings add as TF's Add op adds them.
EXTRA = {("add", STR)}
# Dtypes TF's op definition allows but no CPU kernel takes: NotFoundError, as in TF.
NO_KERNEL = {("floordiv", C64)}


def operands(name, dtype, sx, sy, seed=0):
    x, y = sample(dtype, sx, seed), sample(dtype, sy, seed + 1)
    if dtype in INTS and name in ("floordiv", "floormod"):
        y = np.where(y == 0, np.ones_like(y), y)
        y = np.where((y == -1) & (x.min(initial=0) == np.iinfo(dtype).min), np.full_like(y, 3), y)
    if dtype in INTS and name in ("pow", "left_shift", "right_shift"):
        bits = 8 * np.dtype(dtype).itemsize
        hi = 20 if name == "pow" else bits - 1
        y = (np.abs(y.astype(np.int64)) % (hi + 1)).astype(dtype)
    if dtype is C64 and name == "pow":  # 0j ** 0j is NaN in TF (exp(0 * log 0)), 1 in NumPy
        x = np.where(x == 0, np.ones_like(x), x)
    return x, y


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_numpy(name):
    fn, _, ref, dtypes = BINARY[name]
    for dtype in dtypes:
        for sx, sy in SHAPE_PAIRS:
            x, y = operands(name, dtype, sx, sy)
            got = fn(tf.constant(x), tf.constant(y))
            with np.errstate(all="ignore"):
                want = np.asarray(ref(x, y))
            if want.dtype != np.bool_ and dtype is not STR:
                want = want.astype(dtype)
            if name == "pow" and dtype is C64:  # std::pow(complex<float>) is exp(y log x): looser
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-5, equal_nan=True)
                continue
            check_close(np.asarray(got.numpy()), want)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_unsupported_dtypes(name):
    fn, op, _, dtypes = BINARY[name]
    for dtype in ALL:
        if dtype in dtypes or (name, dtype) in EXTRA:
            continue
        x = tf.constant(sample(dtype, (2,)))
        err = ValueError if op is None else tf.errors.InvalidArgumentError
        if (name, dtype) in NO_KERNEL:
            err = tf.errors.NotFoundError
        with pytest.raises(err):
            fn(x, x)


def test_broadcast_incompatible_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        tf.add(tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[2\]"):
        tf.constant(np.ones((2, 3))) * tf.constant(np.ones(2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:Less\]"):
        tf.constant([1, 2]) < tf.constant([1, 2, 3])


def test_integer_overflow_wraps():
    assert (tf.constant([2 ** 31 - 1]) + 1).numpy()[0] == -2 ** 31
    assert (tf.constant([-2 ** 31]) - 1).numpy()[0] == 2 ** 31 - 1
    assert (tf.constant([2 ** 31 - 1]) * 2).numpy()[0] == -2
    assert (tf.constant(np.array([200], np.uint8)) + tf.constant(np.array([100], np.uint8))).numpy()[0] == 44
    assert (tf.constant(np.array([5], np.uint8)) - tf.constant(np.array([10], np.uint8))).numpy()[0] == 251
    assert (tf.constant(np.array([-1], np.int16)) * tf.constant(np.array([-1], np.int16))).numpy()[0] == 1
    big = tf.constant(np.array([40000], np.int64)).numpy()
    assert (tf.constant(np.array([-25536], np.int16)) * np.int16(-25536)).numpy()[0] == np.int16(big[0] ** 2 % 65536
                                                                                                 - 65536)
    assert tf.pow(tf.constant(np.array([3], np.int8)), tf.constant(np.array([5], np.int8))).numpy()[0] == -13
    assert tf.math.floordiv(tf.constant([-2 ** 31]), -1).numpy()[0] == -2 ** 31
    assert tf.math.floormod(tf.constant([-2 ** 31]), -1).numpy()[0] == 0


def test_floor_division_semantics_match_python():
    xs, ys = [-7, 7, -7, 7, 0, -1, 6, -6], [2, -2, -2, 2, 3, 5, 3, -4]
    for dtype in (tf.int8, tf.int16, tf.int32, tf.int64, tf.float32, tf.float64):
        x, y = tf.constant(xs, dtype), tf.constant(ys, dtype)
        assert tf.math.floordiv(x, y).numpy().tolist() == [a // b for a, b in zip(xs, ys)]
        assert tf.math.floormod(x, y).numpy().tolist() == [a % b for a, b in zip(xs, ys)]
        assert (x // y).numpy().tolist() == [a // b for a, b in zip(xs, ys)]
        assert (x % y).numpy().tolist() == [a % b for a, b in zip(xs, ys)]
    fx, fy = [-7.5, 7.5, -7.5, 7.5], [2.0, -2.0, -2.0, 2.0]
    x, y = tf.constant(fx), tf.constant(fy)
    assert tf.math.floordiv(x, y).numpy().tolist() == [a // b for a, b in zip(fx, fy)]
    assert tf.math.floormod(x, y).numpy().tolist() == [a % b for a, b in zip(fx, fy)]
    assert tf.math.mod is tf.math.floormod
    # Floats divide by zero to inf/NaN; the quotient is rounded to float32 before floor (TF).
    np.testing.assert_array_equal(tf.math.floordiv(tf.constant([-7.0, 7.0, 0.0, 1.0]), tf.constant([0.0, 0.0, 0.0, 0.1])),
                                  [-np.inf, np.inf, np.nan, 10.0])
    assert np.isnan(tf.math.floormod(tf.constant([7.0]), tf.constant([0.0])).numpy()[0])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_floor_division_by_one_divisor_matches_numpy(dtype):
    # By a scalar, integer FloorDiv/FloorMod divide in double where that is exact (|a|, |b| < 2^53)
    # and correct the truncated quotient: every edge of the range against NumPy, and int64 beyond 2^53.
    info = np.iinfo(dtype)
    x = np.random.default_rng(3).integers(info.min, info.max, 70_003, dtype=dtype, endpoint=True)
    x[:6] = [info.min, info.max, 0, -1, 1, info.min + 1]
    for b in [1, -1, 2, -2, 3, -3, 7, -7, 100, info.max, info.min, info.min + 1]:
        b = dtype(b)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(tf.math.floordiv(x, b).numpy(), np.floor_divide(x, b), err_msg=str(b))
            np.testing.assert_array_equal(tf.math.floormod(x, b).numpy(), np.mod(x, b), err_msg=str(b))
    if dtype == np.int64:
        big = np.array([2**62 + 1, -(2**62) - 3, 2**53 + 1, 5, -(2**53) - 1], np.int64)
        for b in [3, -7, 2**60 + 7, -(2**55)]:
            np.testing.assert_array_equal(tf.math.floordiv(big, np.int64(b)).numpy(), big // b)
            np.testing.assert_array_equal(tf.math.floormod(big, np.int64(b)).numpy(), big % b)
    f = tf.function(lambda v: (v * 1) // 7 + (v * 1) % 7)  # forwarded (in-place) outputs
    np.testing.assert_array_equal(f(tf.constant(x)).numpy(), (x // 7 + x % 7).astype(dtype))


def test_integer_division_by_zero():
    for fn in (tf.math.floordiv, tf.math.floormod, lambda a, b: a // b, lambda a, b: a % b):
        for dtype in (tf.int8, tf.uint8, tf.int32, tf.int64):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
                fn(tf.constant([7, 1], dtype), tf.constant([1, 0], dtype))
    # `/` converts integers to floats first: no error, inf.
    assert (tf.constant([1]) / 0).numpy()[0] == np.inf
    assert tf.truediv(tf.constant([-1]), tf.constant([0])).numpy()[0] == -np.inf


def test_pow_rules():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integers to negative integer powers are not allowed"):
        tf.pow(tf.constant([2]), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="negative integer powers"):
        tf.constant([2]) ** -1
    assert tf.pow(2, 3).numpy() == 8 and tf.pow(2, 3).dtype == tf.int32
    assert (2 ** tf.constant([3])).numpy().tolist() == [8]
    assert (tf.constant([1.5]) ** 2).numpy().tolist() == [2.25]
    np.testing.assert_array_equal(tf.pow(tf.constant([0.0, -8.0, 2.0]), tf.constant([-1.0, 1 / 3, np.inf])).numpy(),
                                  [np.inf, np.nan, np.inf])


def test_shift_counts_clamp_like_tf():
    i8 = lambda v: tf.constant(np.array(v, np.int8))  # noqa: E731
    assert tf.bitwise.left_shift(i8([1, 1, 1, -8, 3]), i8([1, 7, 8, -1, 100])).numpy().tolist() == [2, -128, -128, -8,
                                                                                                      -128]
    assert tf.bitwise.right_shift(i8([-8, 8, -8, 8, -128]), i8([1, 9, 40, -1, 7])).numpy().tolist() == [-4, 0, -1, 8,
                                                                                                         -1]
    u8 = lambda v: tf.constant(np.array(v, np.uint8))  # noqa: E731
    assert tf.bitwise.left_shift(u8([1, 1, 255]), u8([7, 8, 200])).numpy().tolist() == [128, 128, 128]
    assert tf.bitwise.left_shift(tf.constant([1, 1]), tf.constant([31, 32])).numpy().tolist() == [-2 ** 31, -2 ** 31]


def test_mixed_dtypes_are_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute AddV2 as input #1\(zero-based\) was expected to be a int32 tensor but is "
                             r"a float tensor"):
        tf.constant([1]) + tf.constant([1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor but is a int32"):
        tf.add(2.5, tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Mul"):
        tf.multiply(tf.constant([1]), tf.constant(2.5))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.maximum(tf.constant([1], tf.int64), tf.constant([1], tf.int32))


def test_truediv_dtype_rules():
    for dtype, out in [(tf.int8, tf.float32), (tf.uint8, tf.float32), (tf.int16, tf.float32), (tf.int32, tf.float64),
                       (tf.int64, tf.float64), (tf.float16, tf.float16), (tf.float32, tf.float32),
                       (tf.float64, tf.float64)]:
        x, y = tf.constant([1, 3], dtype), tf.constant([2, 4], dtype)
        for r in (x / y, tf.truediv(x, y), tf.divide(x, y), tf.math.divide(x, y)):
            assert r.dtype == out
            np.testing.assert_allclose(r.numpy(), [0.5, 0.75])
    assert tf.divide(1, 2).dtype == tf.float64 and tf.divide(1, 2).numpy() == 0.5
    assert tf.divide([1, 2], tf.constant(2.0)).dtype == tf.float32
    assert (5 / tf.constant([2, 4])).numpy().tolist() == [2.5, 1.25]
    with pytest.raises(TypeError, match=r"`x` and `y` must have the same dtype, got tf.int32 != tf.float32."):
        tf.truediv(tf.constant([1]), tf.constant([2.0]))
    with pytest.raises(TypeError, match="must have the same dtype"):
        tf.divide(tf.constant(1), 2.5)
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.divide(2.5, tf.constant(1))
    np.testing.assert_array_equal((tf.constant([1.0, -1.0, 0.0]) / 0.0).numpy(), [np.inf, -np.inf, np.nan])


def test_operator_overloads_and_reflected_forms():
    a = np.array([[1, -2, 3]], np.int32)
    t = tf.constant(a)
    for got, want in [(t + 2, a + 2), (2 + t, 2 + a), (t - 2, a - 2), (2 - t, 2 - a), (t * 3, a * 3), (3 * t, 3 * a),
                      (t // 2, a // 2), (7 // t, 7 // a), (t % 2, a % 2), (7 % t, 7 % a), (abs(t) ** 2, a ** 2),
                      (2 ** abs(t), 2 ** np.abs(a)), (-t, -a), (abs(t), np.abs(a)), (~t, ~a),
                      (t & 6, a & 6), (6 & t, 6 & a), (t | 4, a | 4), (4 | t, 4 | a), (t ^ 5, a ^ 5), (5 ^ t, 5 ^ a),
                      (t < 2, a < 2), (t <= 1, a <= 1), (t > 1, a > 1), (t >= 3, a >= 3), (t == 3, a == 3),
                      (t != 3, a != 3), (2 < t, 2 < a), (t + t, a + a)]:
        assert isinstance(got, tf.Tensor)
        assert got.numpy().dtype == want.dtype and got.numpy().tolist() == want.tolist()
    # NumPy arrays and lists on the left give tensors (the array adopts the tensor's dtype).
    for got, want in [(a + t, a + a), (np.array([[1.0, 2.0, 3.0]]) * t, a * np.array([[1, 2, 3]], np.int32)),
                      ([[1, 1, 1]] + t, a + 1), (a < t, a < a), (a == t, a == a)]:
        assert isinstance(got, tf.Tensor), type(got)
        assert got.numpy().tolist() == want.tolist()
    b = tf.constant([True, False])
    assert (b & True).numpy().tolist() == [True, False]
    assert (True | b).numpy().tolist() == [True, True]
    assert (b ^ tf.constant([True, True])).numpy().tolist() == [False, True]
    assert (~b).numpy().tolist() == [False, True]
    f = tf.constant([1.5, -2.5])
    assert (f / 2).numpy().tolist() == [0.75, -1.25] and (3 / f).dtype == tf.float32
    assert (f // 1).numpy().tolist() == [1.0, -3.0] and (f % 1).numpy().tolist() == [0.5, 0.5]


def test_unary_operator_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool is not in the list"):
        -tf.constant([True])
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool is not in the list"):
        abs(tf.constant([True]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="of float is not in the list"):
        ~tf.constant([1.0])


def test_cast():
    x = tf.constant([-1.5, -0.5, 0.5, 1.9, 2.5])
    assert tf.cast(x, tf.int32).numpy().tolist() == [-1, 0, 0, 1, 2]
    assert tf.cast([1.7, -1.7], tf.int32).numpy().tolist() == [1, -1]
    assert tf.cast(1.7, "int64").dtype == tf.int64 and tf.dtypes.cast(1.7, np.int64).numpy() == 1
    y = tf.constant(np.array([-1.5, 300.7, 1e10, np.nan, 70000.5, -40000.2], np.float32))
    assert tf.cast(y, tf.uint8).numpy().tolist() == [255, 44, 0, 0, 112, 192]
    assert tf.cast(y, tf.int16).numpy().tolist() == [-1, 300, 0, 0, 4464, 25536]
    assert tf.cast(y, tf.int32).numpy().tolist() == [-1, 300, -2 ** 31, -2 ** 31, 70000, -40000]
    assert tf.cast(tf.constant([300]), tf.uint8).numpy().tolist() == [44]
    assert tf.cast(tf.constant([0.0, 0.1, np.nan]), tf.bool).numpy().tolist() == [False, True, True]
    assert tf.cast(tf.constant([1 + 2j]), tf.float32).numpy().tolist() == [1.0]
    assert tf.cast(tf.constant([True, False]), tf.float32).numpy().tolist() == [1.0, 0.0]
    assert tf.cast(tf.constant([1, 2]), tf.complex64).numpy().tolist() == [1 + 0j, 2 + 0j]
    assert tf.cast(x, tf.float32) is x
    assert tf.cast(tf.constant(np.zeros((0, 2), np.float32)), tf.int8).shape == (0, 2)
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to float is not supported"):
        tf.cast(tf.constant(["1"]), tf.float32)
    assert tf.dtypes.saturate_cast(tf.constant([1e10, -1e10, 3.7]), tf.int32).numpy().tolist() == [2147483520, -2 ** 31,
                                                                                                   3]
    assert tf.dtypes.saturate_cast(tf.constant([300, -5]), tf.uint8).numpy().tolist() == [255, 0]


def test_clip_by_value_scalar_bounds_equal_full_bounds_bitwise():
    # Scalar float bounds run minps/maxps and a NaN select; full-size bounds the element-wise form:
    # the same bits, NaN kept, zeros of both signs on ties (the bound's, as TF's vector path).
    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        x = rng.normal(size=70_001).astype(dtype)
        x[:9] = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1e-40]
        for lo, hi in ((-0.5, 0.5), (0.0, 0.0), (-0.0, -0.0), (-0.0, 0.0), (0.0, -0.0), (2.0, 1.0), (-np.inf, np.inf)):
            scalar = tf.clip_by_value(tf.constant(x), tf.constant(dtype(lo)), tf.constant(dtype(hi))).numpy()
            full = tf.clip_by_value(tf.constant(x), tf.constant(np.full_like(x, lo)), tf.constant(np.full_like(x, hi)))
            assert scalar.tobytes() == full.numpy().tobytes(), (dtype, lo, hi)


def test_clip_by_value():
    assert tf.clip_by_value(tf.constant([1, 5, 10]), 2, 8).numpy().tolist() == [2, 5, 8]
    assert tf.clip_by_value([1, 5, 10], 2, 8).dtype == tf.int32
    assert tf.clip_by_value(tf.constant([1.0, 5, 10]), 2, 8).numpy().tolist() == [2, 5, 8]
    assert tf.clip_by_value(tf.constant([1, 5, 10]), 8, 2).numpy().tolist() == [8, 8, 8]
    r = tf.clip_by_value(tf.constant([[1, 5, 10], [3, 4, 5]]), [2, 3, 4], 8)
    assert r.numpy().tolist() == [[2, 5, 8], [3, 4, 5]]
    r = tf.clip_by_value(tf.constant([[1, 5, 10], [3, 4, 5]]), tf.constant([[2, 3, 4], [0, 0, 9]]), tf.constant(8))
    assert r.numpy().tolist() == [[2, 5, 8], [3, 4, 9]]  # min > max: min wins
    np.testing.assert_array_equal(tf.clip_by_value(tf.constant([np.nan, 1.0]), 0.0, 0.5).numpy(), [np.nan, 0.5])
    np.testing.assert_array_equal(tf.clip_by_value(tf.constant([1.0, 3.0]), np.nan, 2.0).numpy(), [np.nan, np.nan])
    assert tf.clip_by_value(tf.constant(np.zeros((0, 3), np.float32)), 1.0, 3.0).shape == (0, 3)
    for dtype in FLOATS + INTS:
        x = sample(dtype, (50,))
        lo, hi = dtype(0), dtype(5)
        with np.errstate(all="ignore"):
            want = np.minimum(np.maximum(x, lo), hi) if dtype in INTS else np.where(np.isnan(x), x, np.clip(x, lo, hi))
        check_close(tf.clip_by_value(tf.constant(x), lo, hi).numpy(), want.astype(dtype))
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.clip_by_value(tf.constant([1, 5, 10]), 2.5, 8)
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2, 3\) are incompatible"):
        tf.clip_by_value(tf.constant([1, 5, 10]), [[2, 3, 4], [1, 1, 1]], 8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Maximum as input #1"):
        tf.clip_by_value(tf.constant([1, 5, 10], tf.int8), tf.constant(2), 8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool is not in the list"):
        tf.clip_by_value(tf.constant([True]), False, True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="same shape as input, or a scalar"):
        execute1("ClipByValue", [tf.constant([1, 2]), tf.constant([0, 0, 0]), tf.constant(1)])


def test_add_n_and_scalar_mul():
    assert tf.add_n([1, 2, 3]).numpy() == 6
    assert tf.add_n([[1, 2], [3, 4]]).numpy().tolist() == [4, 6]
    one = tf.constant([1, 2])
    assert tf.add_n([one]) is one
    xs = [sample(F32, (3, 4), seed=s) for s in range(5)]
    np.testing.assert_allclose(tf.add_n([tf.constant(v) for v in xs]).numpy(), sum(xs), rtol=1e-6)
    assert tf.add_n([tf.constant([2 ** 31 - 1]), tf.constant([1])]).numpy()[0] == -2 ** 31
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.add_n([])
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute AddN as input #1"):
        tf.add_n([tf.constant([1, 2]), tf.constant([1.0, 2.0])])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input 0: \[2\] != input 1: \[\]"):
        tf.add_n([tf.constant([1, 2]), tf.constant(1)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="of string is not in the list"):
        tf.add_n([tf.constant(["a"]), tf.constant(["b"])])
    assert tf.scalar_mul(2, tf.constant([1, 2])).numpy().tolist() == [2, 4]
    assert tf.math.scalar_mul(tf.constant(2.0), tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    with pytest.raises(TypeError, match="Cannot convert 2.5"):
        tf.scalar_mul(2.5, tf.constant([1, 2]))
    with pytest.raises(ValueError, match=r"The input scalar must be a 0-D value. Received shape \(1,\)."):
        tf.scalar_mul(tf.constant([2.0]), tf.constant([1.0, 2.0]))


def test_logical_wrappers():
    assert tf.logical_and(True, False).numpy() is np.False_
    assert tf.math.logical_xor(tf.constant([True, False]), [True, True]).numpy().tolist() == [False, True]
    with pytest.raises(ValueError, match="Tensor conversion requested dtype bool for Tensor with dtype int32"):
        tf.math.logical_xor(tf.constant([1]), [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"LogicalAnd as input #0\(zero-based\) was expected to be "
                                                             r"a bool tensor but is a int32"):
        tf.logical_and(tf.constant([1]), tf.constant([1]))
    assert tf.math.equal(tf.constant(["a", "b"]), "a").numpy().tolist() == [True, False]
    assert tf.add(tf.constant(["a"]), "b").numpy().tolist() == [b"ab"]


def test_namespaces():
    top = ("add subtract multiply divide truediv pow maximum minimum negative abs sign exp sqrt square tanh sigmoid "
           "sin cos tan floor round equal not_equal less less_equal greater greater_equal logical_and logical_or "
           "logical_not cast clip_by_value add_n scalar_mul").split()
    math = ("add subtract multiply divide truediv floordiv floormod mod pow maximum minimum squared_difference "
            "negative abs sign exp expm1 log log1p sqrt rsqrt square reciprocal tanh sigmoid sin cos tan floor ceil "
            "round is_nan is_inf is_finite equal not_equal less less_equal greater greater_equal logical_and "
            "logical_or logical_xor logical_not add_n scalar_mul softplus").split()
    for n in top:
        assert callable(getattr(tf, n)), n
    for n in math:
        assert callable(getattr(tf.math, n)), n
    for n in "relu relu6 elu selu softplus sigmoid tanh".split():
        assert callable(getattr(tf.nn, n)), n
    for n in "bitwise_and bitwise_or bitwise_xor invert left_shift right_shift".split():
        assert callable(getattr(tf.bitwise, n)), n
    assert tf.add is tf.math.add and tf.dtypes.cast is tf.cast


# ---- infer agrees with the binary kernels ----

def test_binary_infer_matches_kernel():
    ops = {op for _, op, _, _ in BINARY.values() if op} | {"RealDiv"}
    for d in _core.list_ops():
        if d.name not in ops:
            continue
        for dtype in ALL:
            for sx, sy in SHAPE_PAIRS[:6] + [((2,), (3,))]:
                inputs = [tf.constant(v) for v in operands("pow", dtype, sx, sy)]
                try:
                    out = _core.execute(d, inputs, {})
                except tf.errors.OpError as e:
                    if "division by zero" in str(e) or "negative integer powers" in str(e):
                        continue
                    with pytest.raises(type(e)):
                        _core.infer(d, inputs, {})
                    continue
                ((dt, dims),) = _core.infer(d, inputs, {})
                assert dt == out[0]._dtype_enum and dims == list(out[0]._shape_tuple), (d.name, dtype, sx, sy)


# ---- property test: broadcasting matches NumPy ----

_FINITE = st.floats(-1e3, 1e3, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, min_side=0,
                                                                max_side=4))
def test_broadcasting_property(data, shapes):
    (sx, sy), result = shapes.input_shapes, shapes.result_shape
    x = data.draw(hnp.arrays(np.float32, sx, elements=_FINITE))
    y = data.draw(hnp.arrays(np.float32, sy, elements=_FINITE))
    tx, ty = tf.constant(x), tf.constant(y)
    for got, want in [(tx + ty, x + y), (tx * ty, x * y), (tf.maximum(tx, ty), np.maximum(x, y)),
                      (tx - ty, x - y), (tx > ty, x > y), (tf.math.squared_difference(tx, ty), (x - y) ** 2)]:
        assert got.shape == result
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
