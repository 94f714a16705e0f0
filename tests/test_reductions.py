"""Reductions (tf.reduce_*), argmax/argmin and cumsum/cumprod against NumPy."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops import _execute

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.int8, np.uint8, np.int16, np.int32, np.int64]
RTOL = {np.float16: 1e-2, np.float32: 1e-5, np.float64: 1e-12, np.complex64: 1e-5}


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype in INTS:
        lo = 0 if dtype == np.uint8 else -5
        return rng.integers(lo, 6, size=shape).astype(dtype)
    if dtype == np.complex64:
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def norm_axes(axis, rank):
    if axis is None:
        return tuple(range(rank))
    if isinstance(axis, int):
        axis = [axis]
    return tuple(sorted(a % rank for a in axis))


def identity(op, dtype):
    if op == "sum":
        return 0
    if op == "prod":
        return 1
    if op == "max":
        return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min
    if op == "min":
        return np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).max
    raise AssertionError(op)


def np_reduce(op, x, axis, keepdims):
    """NumPy reference with TF's semantics (wrapping ints, truncating int mean, identities)."""
    axes = norm_axes(axis, x.ndim)
    count = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    out_shape = np.sum(np.zeros(x.shape, np.int8), axis=axes, keepdims=keepdims).shape
    if op == "mean":
        if np.dtype(x.dtype).kind in "iu":
            s = np.sum(x.astype(np.int64), axis=axes, keepdims=keepdims)
            q = np.abs(s) // max(count, 1) * np.sign(s)
            return np.asarray(q).astype(x.dtype)
        acc = np.float32 if x.dtype == np.float16 else x.dtype
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # mean of an empty slice is NaN, as in TF
            return np.asarray(np.mean(x.astype(acc), axis=axes, keepdims=keepdims)).astype(x.dtype)
    if count == 0 and op in ("max", "min"):
        return np.full(out_shape, identity(op, x.dtype), x.dtype)
    if x.dtype == np.float16 and op == "sum":
        return np.asarray(np.sum(x.astype(np.float32), axis=axes, keepdims=keepdims)).astype(np.float16)
    fn = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}[op]
    kw = {"dtype": x.dtype} if op in ("sum", "prod") else {}
    return np.asarray(fn(x, axis=axes, keepdims=keepdims, **kw))


TF_FN = {"sum": tf.reduce_sum, "mean": tf.reduce_mean, "prod": tf.reduce_prod, "max": tf.reduce_max,
         "min": tf.reduce_min}

CASES = [((), None), ((), []), ((5,), 0), ((5,), None), ((3, 4), 1), ((3, 4), 0), ((3, 4), -1), ((3, 4), [-2, 1]),
         ((2, 3, 4), [0, 2]), ((2, 3, 4), (1,)), ((2, 3, 4), []), ((0, 3), 0), ((0, 3), 1), ((2, 0, 3), [0, 2]),
         ((4, 1, 5), 1), ((4, 1, 5), [0, 1]), ((2, 3, 4, 5), [1, 3]), ((2, 3, 4, 5), [0, 2]), ((3, 1, 1, 2), [1, 2])]


def check(op, x, axis, keepdims):
    got = TF_FN[op](tf.constant(x), axis=axis, keepdims=keepdims)
    want = np_reduce(op, x, axis, keepdims)
    assert got.dtype.as_numpy_dtype == x.dtype
    assert got.shape == want.shape, (got.shape, want.shape)
    g = got.numpy()
    if np.dtype(x.dtype).kind in "iub":
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g, want, rtol=RTOL[x.dtype.type], atol=1e-6 if x.dtype != np.float16 else 1e-2)


@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.complex64])
@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "min"])
def test_reductions_vs_numpy(op, dtype):
    if dtype == np.complex64 and op in ("max", "min"):
        pytest.skip("complex has no ordering")
    for i, (shape, axis) in enumerate(CASES):
        x = sample(shape, dtype, seed=i)
        if op == "prod" and np.dtype(dtype).kind == "f":
            x = np.asarray(x / 4 + 1).astype(dtype)  # keep products in range
        for keepdims in (False, True):
            check(op, x, axis, keepdims)


@pytest.mark.parametrize("op,fn", [("any", np.any), ("all", np.all)])
def test_any_all(op, fn):
    f = {"any": tf.reduce_any, "all": tf.reduce_all}[op]
    for i, (shape, axis) in enumerate(CASES):
        x = sample(shape, np.int8, seed=i) > 2
        for keepdims in (False, True):
            got = f(x, axis=axis, keepdims=keepdims)
            want = fn(x, axis=norm_axes(axis, x.ndim), keepdims=keepdims)
            assert got.dtype == tf.bool
            np.testing.assert_array_equal(got.numpy(), want)
    assert tf.reduce_any([]).numpy() == np.False_
    assert tf.reduce_all(np.zeros([0], bool)).numpy() == np.True_


def test_empty_identities():
    assert np.isneginf(tf.reduce_max(np.zeros([0, 3], np.float32), axis=0).numpy()).all()
    assert np.isneginf(tf.reduce_max(np.zeros([0, 3], np.float16), axis=0).numpy()).all()
    assert (tf.reduce_min(np.zeros([0, 3], np.int32), axis=0).numpy() == 2**31 - 1).all()
    assert (tf.reduce_max(np.zeros([0], np.int8)).numpy() == -128)
    assert (tf.reduce_prod(np.zeros([0, 3], np.float32), axis=0).numpy() == 1).all()
    assert (tf.reduce_sum(np.zeros([2, 0, 3], np.float32), axis=1).numpy() == 0).all()
    assert np.isnan(tf.reduce_mean(np.zeros([0, 3], np.float32), axis=0).numpy()).all()
    assert (tf.reduce_mean(np.zeros([0, 3], np.int32), axis=0).numpy() == 0).all()
    assert tf.reduce_sum(np.zeros([2, 0, 3], np.float32), axis=[0, 2]).shape == (0,)


def test_nan_propagates():
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], np.float32)
    for f in (tf.reduce_max, tf.reduce_min, tf.reduce_sum, tf.reduce_mean):
        np.testing.assert_array_equal(np.isnan(f(x, axis=1).numpy()), [True, False])
        np.testing.assert_array_equal(np.isnan(f(x, axis=0).numpy()), [False, True, False])
        assert np.isnan(f(x).numpy())
    assert np.isnan(tf.reduce_max(np.array([np.nan, 1.0], np.float32)).numpy())
    assert np.isnan(tf.reduce_max(np.array([1.0, np.nan], np.float32)).numpy())


def test_integer_wraparound_and_mean():
    assert tf.reduce_sum(np.array([2**31 - 1, 1], np.int32)).numpy() == -2**31
    assert tf.reduce_sum(np.array([100, 100], np.int8)).numpy() == -56
    assert tf.reduce_sum(np.array([200, 100], np.uint8)).numpy() == 44
    assert tf.reduce_prod(np.array([2**16, 2**16], np.int32)).numpy() == 0
    assert tf.reduce_prod(np.array([300, 300], np.int16)).numpy() == np.int16(90000 - 65536 * 1)
    assert tf.reduce_sum(np.array([2**62, 2**62], np.int64)).numpy() == -2**63
    # Mean accumulates narrow ints widely, then truncates toward zero (as TF).
    assert tf.reduce_mean(np.array([100, 100, 100], np.int8)).numpy() == 100
    assert tf.reduce_mean(np.array([2**31 - 1, 2], np.int32)).numpy() == 1073741824
    assert tf.reduce_mean(np.array([-1, -2, -2], np.int32)).numpy() == -1
    assert tf.reduce_mean(np.array([250, 250], np.uint8)).numpy() == 250
    assert tf.reduce_mean(np.array([[1, 2], [3, 5]], np.int32), axis=0).numpy().tolist() == [2, 3]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8, np.int32])
def test_narrow_int_lengths(dtype):
    # Every unroll/tail split of the row loops (GCC 12 -O3 once miscompiled int8 sums of 24..31).
    rng = np.random.default_rng(3)
    for n in range(1, 300, 1 if dtype in (np.int8, np.int16) else 7):
        x = rng.integers(-100 if dtype != np.uint8 else 0, 100, n).astype(dtype)
        assert tf.reduce_sum(x).numpy() == x.sum(dtype=dtype), n
        assert tf.reduce_prod(x[:40]).numpy() == np.prod(x[:40], dtype=dtype), n
        assert tf.reduce_max(x).numpy() == x.max() and tf.reduce_min(x).numpy() == x.min(), n
        assert tf.argmax(x).numpy() == np.argmax(x) and tf.argmin(x).numpy() == np.argmin(x), n
        np.testing.assert_array_equal(tf.cumsum(x).numpy(), np.cumsum(x, dtype=dtype))
        c = np.stack([x, x[::-1]], axis=1)
        np.testing.assert_array_equal(tf.reduce_sum(c, axis=0).numpy(), c.sum(axis=0, dtype=dtype))


def test_float_accuracy_large():
    rng = np.random.default_rng(7)
    x = (rng.random(1_000_003) + 1000).astype(np.float32)  # naive float32 summation drifts here
    want = np.sum(x.astype(np.float64))
    np.testing.assert_allclose(tf.reduce_sum(x).numpy(), want, rtol=1e-5)
    np.testing.assert_allclose(tf.reduce_mean(x).numpy(), want / x.size, rtol=1e-5)
    m = x[:1_000_000].reshape(1000, 1000)
    for axis in (0, 1, None, [0, 1]):
        w = np.sum(m.astype(np.float64), axis=norm_axes(axis, 2))
        np.testing.assert_allclose(tf.reduce_sum(m, axis=axis).numpy(), w, rtol=1e-5)
    tall = x[:600_000].reshape(200_000, 3)  # few columns, many rows: rows split across threads
    np.testing.assert_allclose(tf.reduce_sum(tall, axis=0).numpy(), np.sum(tall.astype(np.float64), axis=0), rtol=1e-5)
    np.testing.assert_array_equal(tf.reduce_max(tall, axis=0).numpy(), np.max(tall, axis=0))
    np.testing.assert_array_equal(tf.reduce_min(m, axis=1).numpy(), np.min(m, axis=1))
    wide = x[:600_000].reshape(3, 200_000)  # few long rows
    np.testing.assert_allclose(tf.reduce_sum(wide, axis=1).numpy(), np.sum(wide.astype(np.float64), axis=1), rtol=1e-5)
    b = rng.standard_normal((20, 300, 40)).astype(np.float32)  # batched column reductions
    np.testing.assert_allclose(tf.reduce_sum(b, axis=1).numpy(), np.sum(b.astype(np.float64), axis=1), rtol=1e-4,
                               atol=1e-4)


def test_float16_sum_accumulates_in_float():
    x = np.full(4096, 0.1, np.float16)  # a float16 accumulator stalls at 256
    np.testing.assert_allclose(tf.reduce_sum(x).numpy(), 409.5, rtol=1e-3)
    np.testing.assert_allclose(tf.reduce_sum(x.reshape(64, 64), axis=0).numpy(), np.full(64, 6.4), rtol=1e-3)
    np.testing.assert_allclose(tf.reduce_mean(x).numpy(), 0.1, rtol=1e-3)


def test_reduction_errors():
    x = np.ones([2, 3], np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(2 for input with 2 dimension\(s\)"):
        tf.reduce_sum(x, axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(-3 for input"):
        tf.reduce_sum(x, axis=-3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid reduction dimension \(0 for input with 0"):
        tf.reduce_sum(1.0, axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Axes contains duplicate dimension: 0"):
        tf.reduce_sum(x, axis=[0, -2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"(?s)Value for attr 'T' of bool .*\[Op:Sum\]"):
        tf.reduce_sum(np.array([True]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex64"):
        tf.reduce_max(np.array([1 + 2j], np.complex64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a bool tensor but is a int32 tensor"):
        tf.reduce_any(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tidx' of float"):
        tf.reduce_sum(x, axis=tf.constant([0.0]))
    with pytest.raises(TypeError):
        tf.reduce_sum(x, axis=1.5)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reduce_mean(np.array(["a"], object))


def test_axis_forms():
    x = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    for axis in (1, np.int64(1), np.int32(1), [1], (1,), np.array([1]), tf.constant(1), tf.constant([1], tf.int64),
                 tf.constant([[1]])):
        np.testing.assert_array_equal(tf.reduce_sum(x, axis=axis).numpy(), x.sum(axis=1))
    np.testing.assert_array_equal(tf.reduce_sum(x.tolist()).numpy(), x.sum())
    assert tf.reduce_sum(x, axis=None, keepdims=True).shape == (1, 1, 1)
    assert tf.math.reduce_sum is tf.reduce_sum


# --- argmax / argmin ---

@pytest.mark.parametrize("dtype", FLOATS + INTS)
def test_argmax_argmin_vs_numpy(dtype):
    for i, shape in enumerate([(5,), (3, 4), (2, 3, 4), (4, 1), (1, 4), (2, 0, 3), (300, 5)]):
        x = sample(shape, dtype, seed=i)
        for axis in range(-len(shape), len(shape)):
            if shape[axis] == 0:
                continue
            for tf_fn, np_fn in ((tf.argmax, np.argmax), (tf.argmin, np.argmin)):
                got = tf_fn(x, axis=axis)
                assert got.dtype == tf.int64
                np.testing.assert_array_equal(got.numpy(), np_fn(x, axis=axis))


def test_argmax_ties_nan_bool_and_output_type():
    assert tf.argmax([1.0, 3.0, 3.0]).numpy() == 1  # first index of a tie
    assert tf.argmin([1.0, 1.0, 3.0]).numpy() == 0
    np.testing.assert_array_equal(tf.argmax([[1, 5, 5], [7, 7, 0]], axis=1).numpy(), [1, 0])
    np.testing.assert_array_equal(tf.argmax([[1, 7], [5, 7], [5, 0]], axis=0).numpy(), [1, 0])
    # TF skips NaN (comparisons with NaN are false); NumPy would return the NaN's index.
    assert tf.argmax(np.array([np.nan, 1.0], np.float32)).numpy() == 1
    assert tf.argmin(np.array([2.0, np.nan, 1.0], np.float32)).numpy() == 2
    assert tf.argmax(np.array([np.nan, np.nan], np.float32)).numpy() == 0
    assert tf.argmax(np.array([-np.inf, np.nan], np.float32)).numpy() == 0
    assert tf.argmax([True, False, True]).numpy() == 0
    assert tf.argmin([True, False, True]).numpy() == 1
    assert tf.argmax([[1, 2], [3, 0]]).numpy().tolist() == [1, 0]  # axis=None means 0
    r = tf.argmax([[1, 2], [3, 0]], 1, tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [1, 0]
    assert tf.math.argmax([3, 1], output_type=tf.int16).dtype == tf.int16
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_type' of int16"):
        tf.math.argmin([3, 1], output_type=tf.int16)  # TF's ArgMin takes int32/int64 only
    assert tf.argmax(np.zeros([0, 3], np.float32), axis=1).shape == (0,)


def _tf_arg_reference(x, is_max):
    """TF's scan along the last axis: start from the lowest (highest) value at index 0 and take the
    first strictly better element; NaN never wins."""
    limits = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
    init = limits.min if is_max else limits.max
    y = x if x.dtype.kind != "f" else np.where(np.isnan(x), -np.inf if is_max else np.inf, x)
    idx = np.argmax(y, axis=-1) if is_max else np.argmin(y, axis=-1)
    best = np.take_along_axis(y, idx[..., None], -1)[..., 0]
    return np.where(best > init if is_max else best < init, idx, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16, np.int8, np.uint8])
@pytest.mark.parametrize("n", [63, 64, 65, 80, 100, 1000, 4099])
def test_argmax_argmin_long_rows_ties_nan_vs_reference(dtype, n):
    rng = np.random.default_rng(n)
    rows = 40
    if np.dtype(dtype).kind == "f":
        x = rng.integers(-3, 4, (rows, n)).astype(dtype)  # few values: many ties across lanes
        x[rng.random((rows, n)) < 0.2] = np.nan
        x[5] = np.nan
        x[6, ::7] = np.inf
        x[7] = -np.inf
        x[7, n - 1] = np.nan
        x[8] = np.finfo(dtype).min
        x[9] = np.finfo(dtype).max
        x[10] = -0.0
        x[10, n // 2] = 0.0
        x[11, rng.integers(n)] = np.nan
    else:
        lo = 0 if np.dtype(dtype).kind == "u" else -3
        x = rng.integers(lo, 4, (rows, n)).astype(dtype)
        x[8] = np.iinfo(dtype).min
        x[9] = np.iinfo(dtype).max
    x[12, n - 1] = x[12].max() + 1 if np.dtype(dtype).kind != "f" else 100  # the extreme in the tail
    x[13, :] = x[13, 0]
    # Monotone rows (every block of the row beats the best so far) and distinct random values
    # (blocks rarely do); modulo keeps small integer types' values distinct from each other's.
    ramp = (np.arange(n) % 100).astype(dtype)
    x[14], x[15] = ramp, ramp[::-1]
    x[16:20] = (rng.permutation(n * 4).reshape(4, n) % (100 if np.dtype(dtype).itemsize == 1 else n * 4)).astype(dtype)
    x[20, 0] = x[20].max() + 1 if np.dtype(dtype).kind != "f" else 100  # the extreme first
    for is_max, fn in ((True, tf.argmax), (False, tf.argmin)):
        np.testing.assert_array_equal(fn(x, axis=1).numpy(), _tf_arg_reference(x, is_max), err_msg=str(is_max))
        np.testing.assert_array_equal(fn(x.T, axis=0).numpy(), _tf_arg_reference(x, is_max))
        np.testing.assert_array_equal(fn(x.reshape(2, rows // 2, n), axis=-1).numpy(),
                                      _tf_arg_reference(x, is_max).reshape(2, rows // 2))


def test_argmax_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Reduction axis 0 is empty in shape \[0,3\]"):
        tf.argmax(np.zeros([0, 3], np.float32), axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected dimension in the range \[-2, 2\), but got 2"):
        tf.argmax(np.zeros([2, 3], np.float32), axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"range \[0, 0\), but got 0"):
        tf.argmax(3.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"dim must be a scalar, but received tensor of shape: \[1\]"):
        _execute.execute1("ArgMax", [tf.constant([[1.0]]), tf.constant([0])], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_type' of float"):
        tf.argmax([1, 2], output_type=tf.float32)
    with pytest.raises(TypeError, match="axis must be int"):
        tf.argmax([[1, 2]], axis=[1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex64"):
        tf.argmax(np.array([1j], np.complex64))


# --- cumsum / cumprod ---

def np_scan(fn, x, axis, exclusive, reverse):
    if x.shape[axis] == 0:
        return x.copy()
    if x.dtype == np.float16:  # eagerflow accumulates float16 in float
        return np_scan(fn, x.astype(np.float32), axis, exclusive, reverse).astype(np.float16)
    if reverse:
        x = np.flip(x, axis)
    if exclusive:
        ident = 1 if fn is np.cumprod else 0
        pad = np.full_like(np.take(x, [0], axis=axis), ident)
        x = np.concatenate([pad, np.delete(x, -1, axis=axis)], axis=axis)
    out = fn(x, axis=axis, dtype=x.dtype)
    return np.flip(out, axis) if reverse else out


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.int8, np.int64, np.complex64])
def test_cumsum_cumprod_vs_numpy(dtype):
    for i, shape in enumerate([(5,), (3, 4), (2, 3, 4), (300, 3), (1, 0)]):
        x = sample(shape, dtype, seed=i)
        for axis in range(-len(shape), len(shape)):
            for exclusive in (False, True):
                for reverse in (False, True):
                    for tf_fn, np_fn in ((tf.math.cumsum, np.cumsum), (tf.math.cumprod, np.cumprod)):
                        if np_fn is np.cumprod and shape[axis] > 5:
                            continue
                        got = tf_fn(x, axis=axis, exclusive=exclusive, reverse=reverse)
                        want = np_scan(np_fn, x, axis, exclusive, reverse)
                        assert got.dtype.as_numpy_dtype == dtype and got.shape == want.shape
                        if np.dtype(dtype).kind in "iu":
                            np.testing.assert_array_equal(got.numpy(), want)
                        else:
                            np.testing.assert_allclose(got.numpy(), want, rtol=RTOL[dtype], atol=1e-2)


def test_cumsum_wraps_and_errors():
    np.testing.assert_array_equal(tf.cumsum(np.array([100, 100], np.int8)).numpy(), [100, -56])
    np.testing.assert_array_equal(tf.cumsum([1, 2, 3], exclusive=True, reverse=True).numpy(), [5, 3, 0])
    np.testing.assert_array_equal(tf.cumsum([1.0, 2.0], axis=tf.constant(0, tf.int64)).numpy(), [1.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ScanOp: Expected scan axis in the range \[-2, 2\), but got 2"):
        tf.cumsum([[1, 2, 3]], axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ScanOp: axis must be a scalar, not \[1\]"):
        tf.cumsum([1.0, 2.0], axis=[0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"range \[0, 0\)"):
        tf.cumsum(3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
        tf.cumsum([True])


# --- composites ---

def test_reduce_logsumexp():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    want = np.log(np.sum(np.exp(x.astype(np.float64)), axis=1, keepdims=True))
    np.testing.assert_allclose(tf.reduce_logsumexp(x, axis=1, keepdims=True).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(tf.reduce_logsumexp(x).numpy(), np.log(np.exp(x.astype(np.float64)).sum()), rtol=1e-6)
    big = np.array([1000.0, 1000.0], np.float32)
    np.testing.assert_allclose(tf.reduce_logsumexp(big).numpy(), 1000 + np.log(2), rtol=1e-6)
    assert tf.reduce_logsumexp(np.array([1.0, 2.0, np.inf], np.float32)).numpy() == np.inf
    assert tf.reduce_logsumexp(np.array([-np.inf, -np.inf], np.float32)).numpy() == -np.inf
    assert tf.reduce_logsumexp(np.zeros([0], np.float32)).numpy() == -np.inf
    assert np.isnan(tf.reduce_logsumexp(np.array([np.nan, 1.0], np.float32)).numpy())
    r = tf.reduce_logsumexp(np.array([[1.0, 2.0], [-np.inf, -np.inf]], np.float32), axis=1).numpy()
    np.testing.assert_allclose(r, [2.3132617, -np.inf], rtol=1e-6)
    assert tf.reduce_logsumexp(np.array([1.0, 2.0], np.float16)).dtype == tf.float16
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32"):
        tf.reduce_logsumexp([1, 2])


def test_reduce_variance_std():
    x = np.array([[1.0, 2.0], [3.0, 5.0]], np.float32)
    np.testing.assert_allclose(tf.math.reduce_variance(x).numpy(), np.var(x), rtol=1e-6)
    np.testing.assert_allclose(tf.math.reduce_variance(x, axis=0, keepdims=True).numpy(), np.var(x, 0, keepdims=True))
    with pytest.raises(TypeError, match="Input must be either real or complex"):
        tf.math.reduce_variance([1, 2])
    np.testing.assert_allclose(tf.math.reduce_std(x, axis=1).numpy(), np.std(x, axis=1), rtol=1e-6)


# --- property test ---

@settings(max_examples=150, deadline=None)
@given(st.data())
def test_reductions_property(data):
    rank = data.draw(st.integers(0, 4))
    shape = tuple(data.draw(st.lists(st.integers(0, 5), min_size=rank, max_size=rank)))
    dtype = data.draw(st.sampled_from([np.float32, np.float64, np.int32, np.int64, np.int8]))
    op = data.draw(st.sampled_from(["sum", "mean", "max", "min", "prod"]))
    dims = data.draw(st.lists(st.integers(0, max(rank - 1, 0)), unique=True, max_size=rank)) if rank else []
    axis = [d - rank if data.draw(st.booleans()) else d for d in dims]
    if data.draw(st.booleans()):
        axis = None
    keepdims = data.draw(st.booleans())
    x = sample(shape, dtype, seed=data.draw(st.integers(0, 2**16)))
    if op == "prod" and np.dtype(dtype).kind == "f":
        x = np.asarray(x / 4 + 1).astype(dtype)
    check(op, x, axis, keepdims)


# --- infer() agrees with the kernels ---

def test_infer_matches_kernels():
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    b = tf.constant(np.ones([2, 3], bool))
    cases = [
        ("Sum", [x, tf.constant([0, 2])], {"keep_dims": False}),
        ("Mean", [x, tf.constant(-1)], {"keep_dims": True}),
        ("Max", [x, tf.constant([], tf.int32)], {}),
        ("Prod", [x, tf.constant([0, 1, 2], tf.int64)], {"keep_dims": False}),
        ("Min", [x, tf.constant(1)], {}),
        ("Any", [b, tf.constant(1)], {"keep_dims": True}),
        ("All", [b, tf.constant([0, 1])], {}),
        ("ArgMax", [x, tf.constant(1)], {}),
        ("ArgMin", [x, tf.constant(-1)], {"output_type": tf.int32}),
        ("Cumsum", [x, tf.constant(2)], {"exclusive": True}),
        ("Cumprod", [x, tf.constant(0)], {"reverse": True}),
    ]
    for name, inputs, attrs in cases:
        op = _execute.op_def(name)
        (dt, dims), = _core.infer(op, inputs, attrs)
        out = _core.execute1(op, inputs, attrs)
        assert dt == out._dtype_enum and tuple(dims) == out._shape_tuple, name
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
        _core.infer(_execute.op_def("Sum"), [x, tf.constant(3)], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="duplicate"):
        _core.infer(_execute.op_def("Sum"), [x, tf.constant([1, 1])], {})


def test_int8_mean_many_elements_regression():
    # GCC 12 miscompiled the vectorized widening int8 -> int64 accumulation (25 elements gave 40).
    for n in (9, 25, 100, 1000):
        x = np.full([n], 100, np.int8)
        assert tf.reduce_mean(x).numpy() == 100
        assert tf.reduce_mean(np.full([3, n], -100, np.int16), axis=1).numpy().tolist() == [-100] * 3


def _pairwise(x, op):
    """The kernels' pairwise tree (as NumPy's sum): 8 accumulators up to 128 elements, halves cut
    at a multiple of 8 above; in x's dtype, one rounding per operation."""
    n = len(x)
    if n < 8:
        a = x[0]
        for v in x[1:]:
            a = op(a, v)
        return a
    if n <= 128:
        r = list(x[:8])
        i = 8
        while i + 8 <= n:
            r = [op(r[j], x[i + j]) for j in range(8)]
            i += 8
        a = op(op(op(r[0], r[1]), op(r[2], r[3])), op(op(r[4], r[5]), op(r[6], r[7])))
        for v in x[i:]:
            a = op(a, v)
        return a
    h = n // 2
    h -= h % 8
    return op(_pairwise(x[:h], op), _pairwise(x[h:], op))


@pytest.mark.parametrize("n", [1024, 2048, 3000, 4096 + 40])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_and_prod_follow_the_pairwise_tree_bit_for_bit(n, dtype):
    """Nodes of 1024 elements run eight leaves side by side: the same operations in the same order."""
    x = np.random.default_rng(n).standard_normal(n).astype(dtype)
    np.testing.assert_array_equal(tf.reduce_sum(x).numpy(), _pairwise(x, lambda a, b: a + b))
    np.testing.assert_array_equal(tf.reduce_sum(x).numpy(), np.sum(x))
    p = (1 + x / 64).astype(dtype)
    np.testing.assert_array_equal(tf.reduce_prod(p).numpy(), _pairwise(p, lambda a, b: a * b))
    i = np.arange(n, dtype=np.int32) * 7919
    np.testing.assert_array_equal(tf.reduce_sum(i).numpy(), np.sum(i, dtype=np.int32))


def test_count_nonzero_matches_numpy_for_every_kind_of_zero():
    x = np.array([[0, 1, 2], [0, 0, 3]])
    assert tf.math.count_nonzero(x).dtype == tf.int64 and int(tf.math.count_nonzero(x)) == 3
    got = tf.math.count_nonzero(x.astype(np.float32), axis=1, keepdims=True, dtype=tf.int32)
    assert got.dtype == tf.int32 and got.numpy().tolist() == [[2], [1]]
    assert int(tf.math.count_nonzero([True, False, True])) == 2
    assert int(tf.math.count_nonzero(["", "a", "b"])) == 2
    assert int(tf.math.count_nonzero([1 + 0j, 0j, -0.0j])) == 1
    assert tf.math.count_nonzero(tf.zeros([2, 0]), axis=0).shape == [0]
    f = tf.function(lambda v: tf.math.count_nonzero(v, axis=[0]))
    assert f(tf.constant(x)).numpy().tolist() == [0, 1, 2]
    rng = np.random.default_rng(0)
    big = rng.random((300, 700)) < 0.3
    assert int(tf.math.count_nonzero(big)) == np.count_nonzero(big)
