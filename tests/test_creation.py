"""Creation ops vs NumPy: fill, zeros/ones(_like), range, linspace, eye, one_hot; dtypes and errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import op_def


def check(t, expected, rtol=None):
    expected = np.asarray(expected)
    got = np.asarray(t.numpy())
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype == object:
        assert t.dtype == tf.string
        assert got.tolist() == expected.tolist()
        return
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if rtol:
        np.testing.assert_allclose(got, expected, rtol=rtol)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64, tf.float16, tf.int8, tf.uint8, tf.int16, tf.int32,
                                   tf.int64, tf.bool, tf.complex64])
def test_zeros_ones_all_dtypes(dtype):
    npd = dtype.as_numpy_dtype
    check(tf.zeros([2, 3], dtype), np.zeros((2, 3), npd))
    check(tf.ones([2, 0], dtype), np.ones((2, 0), npd))
    check(tf.ones((), dtype), np.ones((), npd))
    x = tf.constant(np.arange(6).reshape(2, 3).astype(npd))
    check(tf.zeros_like(x), np.zeros((2, 3), npd))
    check(tf.ones_like(x), np.ones((2, 3), npd))
    check(tf.fill([3, 1], tf.constant(np.ones((), npd))), np.ones((3, 1), npd))


def test_zeros_ones_shapes_and_strings():
    check(tf.zeros(2), np.zeros(2, np.float32))
    check(tf.zeros(tf.constant([2, 1])), np.zeros((2, 1), np.float32))
    check(tf.zeros(tf.TensorShape([1, 2])), np.zeros((1, 2), np.float32))
    check(tf.zeros([2], tf.string), np.array([b"", b""], dtype=object))
    check(tf.zeros_like(tf.constant(["a"])), np.array([b""], dtype=object))
    check(tf.zeros_like(tf.constant([1]), dtype=tf.float32), np.zeros(1, np.float32))
    check(tf.ones_like([1.0, 2]), np.ones(2, np.float32))
    check(tf.ones_like(tf.constant([True, False])), np.ones(2, bool))
    check(tf.fill([2], "a"), np.array([b"a", b"a"], dtype=object))
    check(tf.fill([2, 2], 7), np.full((2, 2), 7, np.int32))
    check(tf.fill([], 1.5), np.float32(1.5))
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
        tf.ones([2], tf.string)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of string is not in the list"):
        tf.ones_like(tf.constant(["a"]))


def test_fill_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -1 must be >= 0"):
        tf.fill([-1], 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dimension -1 must be >= 0 \[Op:Fill\]"):
        tf.zeros([-1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"dims must represent a vector, got shape \[1,1\]"):
        tf.fill([[1]], 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"value must represent a scalar, got shape \[2\]"):
        tf.fill([1], [1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="index_type"):
        tf.fill(tf.constant([2.0]), 1)


@pytest.mark.parametrize("args,kwargs,expected", [
    ((5,), {}, np.arange(5, dtype=np.int32)),
    ((2, 9, 3), {}, np.arange(2, 9, 3, dtype=np.int32)),
    ((5, 0, -2), {}, np.arange(5, 0, -2, dtype=np.int32)),
    ((0, 5), {"dtype": tf.float64}, np.arange(0, 5, dtype=np.float64)),
    ((1, 5, 0.5), {}, np.arange(1, 5, 0.5, dtype=np.float32)),
    ((0.0, 1.0, 0.1), {}, np.float32(0.0) + np.arange(10).astype(np.float32) * np.float32(0.1)),
    ((3, 3), {}, np.zeros(0, np.int32)),
    ((0, 5), {"dtype": tf.int64}, np.arange(5, dtype=np.int64)),
])
def test_range(args, kwargs, expected):
    check(tf.range(*args, **kwargs), expected)


def test_range_dtype_inference_and_errors():
    assert tf.range(tf.constant(1), tf.constant(5.0)).dtype == tf.float32
    assert tf.range(tf.constant(0, tf.int64), 3).dtype == tf.int64
    assert tf.range(tf.constant(0.0, tf.float16), 3.0).dtype == tf.float32
    assert tf.range(tf.constant(0.0, tf.float64), 3).dtype == tf.float64
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0: 0"):
        tf.range(0, 5, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit when delta > 0: 5/1"):
        tf.range(5, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start >= limit when delta < 0: 1/5"):
        tf.range(1, 5, -1)
    with pytest.raises(TypeError, match="Cannot convert 5.5 to EagerTensor of dtype int32"):
        tf.range(0, 5.5, dtype=tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tidx"):
        tf.range(0, 5, dtype=tf.uint8)


def test_linspace():
    check(tf.linspace(0.0, 1.0, 5), np.linspace(0, 1, 5).astype(np.float32))
    check(tf.linspace(3.0, 10.0, 1), np.array([3.0], np.float32))
    check(tf.linspace(0.0, 1.0, 0), np.zeros(0, np.float32))
    check(tf.linspace(0, 10, 5), np.linspace(0, 10, 5))
    check(tf.linspace(tf.constant(0.0, tf.float64), 1.0, 3), np.linspace(0, 1, 3))
    check(tf.linspace(tf.constant(0.0, tf.float16), 1.0, 3), np.linspace(0, 1, 3).astype(np.float16))
    check(tf.linspace([0.0, 1.0], [1.0, 2.0], 3), np.linspace([0, 1], [1, 2], 3).astype(np.float32), rtol=1e-6)
    check(tf.linspace([0.0, 1.0], [1.0, 2.0], 3, axis=-1), np.linspace([0, 1], [1, 2], 3, axis=-1).astype(np.float32),
          rtol=1e-6)
    got = tf.linspace(-1.0, 7.0, 33).numpy()
    np.testing.assert_allclose(got, np.linspace(-1, 7, 33), rtol=1e-6)
    assert got[-1] == 7.0


def test_eye():
    check(tf.eye(3), np.eye(3, dtype=np.float32))
    check(tf.eye(2, 3, dtype=tf.int32), np.eye(2, 3, dtype=np.int32))
    check(tf.eye(3, 2, dtype=tf.float64), np.eye(3, 2))
    check(tf.eye(2, batch_shape=[2, 1]), np.broadcast_to(np.eye(2, dtype=np.float32), (2, 1, 2, 2)))
    check(tf.eye(0), np.zeros((0, 0), np.float32))


def test_one_hot():
    check(tf.one_hot([0, 2, -1, 5], 3), np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32))
    check(tf.one_hot([0, 2], 3, on_value=5.0), np.array([[5, 0, 0], [0, 0, 5]], np.float32))
    check(tf.one_hot([0, 2], 3, on_value=2), np.array([[2, 0, 0], [0, 0, 2]], np.int32))
    check(tf.one_hot([0, 2], 3, on_value=5, dtype=tf.float32), np.array([[5, 0, 0], [0, 0, 5]], np.float32))
    check(tf.one_hot([[0, 2]], 3, axis=0), np.eye(3, dtype=np.float32)[[0, 2]].T[:, None, :])
    check(tf.one_hot(tf.constant([0, 2], tf.int64), 3), np.eye(3, dtype=np.float32)[[0, 2]])
    check(tf.one_hot(tf.constant([1], tf.uint8), 2, dtype=tf.int64), np.array([[0, 1]], np.int64))
    check(tf.one_hot([1, -1, 5], 3, on_value="a", off_value="b"),
          np.array([[b"b", b"a", b"b"], [b"b", b"b", b"b"], [b"b", b"b", b"b"]], dtype=object))
    check(tf.one_hot(np.zeros((2, 0), np.int32), 4), np.zeros((2, 0, 4), np.float32))
    check(tf.one_hot([1], 0), np.zeros((1, 0), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="depth must be non-negative, got: -1"):
        tf.one_hot([1], -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected axis to be -1 or between \[0, 2\).  But "
                                                             r"received: 2"):
        tf.one_hot([1], 3, axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'TI' of float"):
        tf.one_hot([1.0], 3)
    with pytest.raises(TypeError, match="dtype <dtype: 'int32'> of on_value does not match dtype <dtype: 'float32'> "
                                        "of off_value"):
        tf.one_hot([1], 3, on_value=2, off_value=0.5)


INFER_CASES = [
    ("Shape", [np.zeros((2, 0, 3))], {"out_type": tf.int64}),
    ("Size", [np.zeros((2, 3))], None),
    ("Rank", [np.zeros((2, 3))], None),
    ("Fill", [np.array([2, 3], np.int32), np.array(1.5)], None),
    ("ZerosLike", [np.array([b"a"], dtype=object)], None),
    ("OnesLike", [np.zeros((2, 1), np.int8)], None),
    ("Range", [np.array(1, np.int32), np.array(10, np.int32), np.array(3, np.int32)], None),
    ("Range", [np.float32(0), np.float32(1), np.float32(0.3)], None),
    ("LinSpace", [np.float32(0), np.float32(1), np.array(4, np.int32)], None),
    ("OneHot", [np.array([[0, 1]], np.int32), np.array(3, np.int32), np.float32(1), np.float32(0)], {"axis": 1}),
]


@pytest.mark.parametrize("op,inputs,attrs", INFER_CASES, ids=[c[0] for c in INFER_CASES])
def test_infer_matches_kernel(op, inputs, attrs):
    inputs = [tf.convert_to_tensor(x) for x in inputs]
    inferred = _core.infer(op_def(op), inputs, attrs)
    outs = _core.execute(op_def(op), inputs, attrs)
    assert [(dt, tuple(d)) for dt, d in inferred] == [(o._dtype_enum, o._shape_tuple) for o in outs]


def test_top_level_exports():
    for name in ["reshape", "transpose", "expand_dims", "squeeze", "concat", "stack", "unstack", "split", "tile", "pad",
                 "gather", "gather_nd", "boolean_mask", "where", "reverse", "broadcast_to", "strided_slice", "slice",
                 "identity", "shape", "rank", "size", "fill", "zeros", "ones", "zeros_like", "ones_like", "range",
                 "linspace", "eye", "one_hot"]:
        assert callable(getattr(tf, name)), name
    assert isinstance(tf.shape(tf.zeros([1])), tf.Tensor)


def test_linspace_negative_num():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit when delta > 0: 1/-1"):
        tf.linspace(0.0, 1.0, -1)


# --- regressions found by the ASan/UBSan run (.ci/sanitize): extreme values are exact, no UB ---

@pytest.mark.parametrize("dt", [tf.int32, tf.int64])
def test_range_extreme_int_bounds(dt):
    lo, hi = dt.min, dt.max
    c = lambda v: tf.constant(v, dt)  # noqa: E731
    # i * delta overflows before start is added; (limit - start) overflows int64.
    check(tf.range(c(lo), c(hi), c(hi)), np.array([lo, -1, hi - 1], dt.as_numpy_dtype))
    check(tf.range(c(hi), c(lo), c(lo)), np.array([hi, -1], dt.as_numpy_dtype))
    assert tf.function(lambda: tf.range(c(lo), c(hi), c(hi)))().numpy().tolist() == [lo, -1, hi - 1]


def test_range_too_many_elements():
    lo, hi = tf.constant(tf.int64.min, tf.int64), tf.constant(tf.int64.max, tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Requires \(\(limit - start\) / delta\) <= 9223372036854775807"):
        tf.range(lo, hi, tf.constant(1, tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Requires \(\(limit - start\) / delta\) <= 9223372036854775807"):
        tf.range(1e30)


def test_range_float_bounds_beyond_int64():
    # The float bounds were also read as int64 (a float -> int cast out of range).
    r = tf.range(1e30, 0.0, -1e29)  # TF: 10 elements (the bounds rounded to float32 first)
    assert r.shape == (10,) and r.dtype == tf.float32
    np.testing.assert_allclose(r.numpy()[[0, -1]], [1e30, 1e29], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.range(float("nan"))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.range(0.0, float("inf"))


def test_broadcast_to_negative_dims():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dimension -1 must be >= 0 \[Op:BroadcastTo\]"):
        tf.broadcast_to(1.0, [-1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dimension -5 must be >= 0 \[Op:BroadcastTo\]"):
        tf.broadcast_to([1.0], [-5, 1])
