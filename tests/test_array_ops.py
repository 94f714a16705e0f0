"""Shape and data-movement ops vs NumPy: values, dtypes, strings, empty dims, errors, inference."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import op_def

DTYPES = [np.float32, np.float64, np.float16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.bool_,
          np.complex64, object]


def sample(shape, dtype=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype is object:
        return np.array([("s%d" % i).encode() * (i % 3 + 1) for i in range(n)], dtype=object).reshape(shape)
    if dtype is np.bool_:
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dtype is np.complex64:
        return (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(np.complex64).reshape(shape)
    return rng.integers(-50, 100, n).astype(dtype).reshape(shape)


def check(t, expected):
    expected = np.asarray(expected)
    got = t.numpy()
    got = np.asarray(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype == object:
        assert t.dtype == tf.string
        assert got.tolist() == expected.tolist()
    else:
        assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
        np.testing.assert_array_equal(got, expected)


def check_infer(op, inputs, attrs=None, outputs=None):
    """infer() with every input known gives exactly the kernel's dtypes and shapes."""
    inputs = [tf.convert_to_tensor(x) for x in inputs]
    inferred = _core.infer(op_def(op), inputs, attrs)
    outs = outputs if outputs is not None else _core.execute(op_def(op), inputs, attrs)
    assert len(inferred) == len(outs)
    for (dt, dims), o in zip(inferred, outs):
        assert dt == o._dtype_enum
        assert tuple(dims) == o._shape_tuple


@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape_transpose_all_dtypes(dtype):
    a = sample((2, 3, 4), dtype)
    x = tf.constant(a)
    check(tf.reshape(x, [4, -1]), a.reshape(4, -1))
    check(tf.reshape(x, [24]), a.reshape(24))
    check(tf.transpose(x), a.transpose())
    check(tf.transpose(x, [1, 0, 2]), a.transpose(1, 0, 2))
    check(tf.transpose(x, [-1, 0, 1]), a.transpose(2, 0, 1))
    check(tf.expand_dims(x, -1), a[..., None])
    check(tf.concat([x, x], axis=-1), np.concatenate([a, a], -1))
    check(tf.stack([x, x], axis=1), np.stack([a, a], 1))
    check(tf.tile(x, [1, 2, 1]), np.tile(a, [1, 2, 1]))
    check(tf.reverse(x, [0, -1]), a[::-1, :, ::-1])
    check(tf.gather(x, [2, 0], axis=1), a[:, [2, 0]])
    check(tf.identity(x), a)
    check(tf.broadcast_to(x[:1], [3, 3, 4]), np.broadcast_to(a[:1], (3, 3, 4)))
    for p, q in zip(tf.unstack(x, axis=1), [a[:, i] for i in range(3)]):
        check(p, q)
    for p, q in zip(tf.split(x, [1, 3], axis=2), np.split(a, [1], axis=2)):
        check(p, q)


def test_reshape_zero_copy_and_errors():
    x = tf.constant(np.arange(1000, dtype=np.float32))
    y = tf.reshape(x, [10, 100])
    assert y._data_ptr() == x._data_ptr()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input to reshape is a tensor with 6 values, but the requested shape has 4"):
        tf.reshape(tf.range(6), [4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="requested shape requires a multiple of 4"):
        tf.reshape(tf.range(6), [-1, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Only one input size may be -1, not both 0 and 1"):
        tf.reshape(tf.range(6), [-1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Size 0 must be non-negative, not -2"):
        tf.reshape(tf.range(6), [-2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tshape"):
        tf.reshape(tf.range(6), tf.constant([6.0]))
    # Zero-size inputs: -1 is inferred from the non-zero dims.
    assert tf.reshape(tf.zeros([0, 2]), [-1, 0]).shape == (2, 0)
    assert tf.reshape(tf.zeros([0, 2]), [-1, 2]).shape == (0, 2)


def test_transpose_expand_squeeze_errors():
    x = tf.zeros([2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"transpose expects a vector of size 2. But input\(1\) "
                                                             r"is a vector of size 3"):
        tf.transpose(x, [0, 1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"1 is missing from \{0,0\}"):
        tf.transpose(x, [0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"2 is out of range \[0 .. 2\)"):
        tf.transpose(x, [0, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to expand dim index 3 for tensor with 2 dim"):
        tf.expand_dims(x, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'dim' must be a tensor with a single value"):
        tf.expand_dims(x, [0, 1])
    assert tf.expand_dims(x, -3).shape == (1, 2, 3)
    y = tf.zeros([1, 2, 1])
    assert tf.squeeze(y).shape == (2,)
    assert tf.squeeze(y, -1).shape == (1, 2)
    assert tf.squeeze(y, (0, 2)).shape == (2,)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Can not squeeze dim\[1\], expected a dimension of 1, "
                                                             r"got 2"):
        tf.squeeze(y, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tried to squeeze dim index 3 for tensor with 3"):
        tf.squeeze(y, 3)


def test_concat_stack_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ConcatOp : Ranks of all input tensors should match: "
                                                             r"shape\[0\] = \[2,3\] vs. shape\[1\] = \[3\]"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([3])], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Dimension 1 in both shapes must be equal"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4])], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"range \[-2, 2\), but got 2"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4])], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"expected to be a float tensor but is a int32"):
        tf.concat([tf.zeros([2, 3]), tf.zeros([2, 4], tf.int32)], 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Can't concatenate scalars"):
        tf.concat([tf.constant(1), tf.constant(2)], 0)
    check(tf.concat([tf.constant([1.0]), [2]], 0), np.array([1, 2], np.float32))
    check(tf.concat([tf.zeros([0, 2]), tf.ones([1, 2])], 0), np.ones((1, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shapes of all inputs must match: values\[0\].shape = "
                                                             r"\[2\] != values\[1\].shape = \[3\]"):
        tf.stack([tf.zeros([2]), tf.zeros([3])])
    with pytest.raises(ValueError, match=r"Argument `axis` = 2 not in range \[-2, 2\)"):
        tf.stack([tf.zeros([2]), tf.zeros([2])], axis=2)
    check(tf.stack([1, 2.5]), np.array([1, 2.5], np.float32))
    check(tf.stack([tf.constant(1.0), 2]), np.array([1, 2], np.float32))
    check(tf.stack([tf.zeros([2]), tf.ones([2])], axis=-1), np.stack([np.zeros(2), np.ones(2)], -1).astype(np.float32))


def test_unstack_split():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shape axis 0 must equal 3, got shape \[2,3\]"):
        tf.unstack(tf.zeros([2, 3]), num=3)
    with pytest.raises(ValueError, match=r"Argument `axis` = 2 not in range \[-2, 2\)"):
        tf.unstack(tf.zeros([2, 3]), axis=2)
    assert tf.unstack(tf.zeros([0, 2])) == []
    assert [t.shape for t in tf.unstack(tf.zeros([2, 3]), axis=-1)] == [(2,)] * 3
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Number of ways to split should evenly divide the split "
                                                             r"dimension, but got split_dim 0 \(size = 5\) and "
                                                             r"num_split 2"):
        tf.split(tf.zeros([5]), 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Determined shape must either match.*Got: 4"):
        tf.split(tf.zeros([5]), [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="There can only be one -1 in the input."):
        tf.split(tf.zeros([5]), [-1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"-input rank\(-1\) <= split_dim < input rank \(1\), "
                                                             r"but got 1"):
        tf.split(tf.zeros([5]), 5, axis=1)
    a = sample((4, 6), np.int32)
    for p, q in zip(tf.split(a, 3, axis=-1), np.split(a, 3, axis=-1)):
        check(p, q)
    for p, q in zip(tf.split(a, [1, -1, 2], axis=1), np.split(a, [1, 4], axis=1)):
        check(p, q)
    assert [p.shape for p in tf.split(tf.zeros([0, 2]), 2)] == [(0, 2), (0, 2)]


def test_tile_pad_reverse_broadcast():
    a = sample((2, 3), np.int32)
    check(tf.tile(a, [2, 0]), np.tile(a, [2, 0]))
    check(tf.tile(tf.constant(5), []), np.array(5, np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected multiples argument to be a vector of length 2 "
                                                             "but got length 1"):
        tf.tile(a, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected multiples\[1\] >= 0, but got -1"):
        tf.tile(a, [2, -1])
    pads = [[1, 2], [0, 3]]
    check(tf.pad(a, pads), np.pad(a, pads))
    check(tf.pad(a, pads, constant_values=7), np.pad(a, pads, constant_values=7))
    check(tf.pad(a, [[1, 1], [2, 2]], mode="reflect"), np.pad(a, [[1, 1], [2, 2]], mode="reflect"))
    check(tf.pad(a, [[2, 1], [3, 2]], mode="SYMMETRIC"), np.pad(a, [[2, 1], [3, 2]], mode="symmetric"))
    s = np.array([[b"a"]], dtype=object)
    check(tf.pad(s, [[1, 1], [1, 0]]), np.array([[b"", b""], [b"", b"a"], [b"", b""]], dtype=object))
    check(tf.pad(s, [[0, 1], [0, 0]], constant_values="x"), np.array([[b"a"], [b"x"]], dtype=object))
    with pytest.raises(TypeError, match="Cannot convert 7.5 to EagerTensor of dtype int32"):
        tf.pad(a, pads, constant_values=7.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"The first dimension of paddings must be the rank of "
                                                             r"inputs\[1,2\] \[2,3\]"):
        tf.pad(a, [[1, 1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Paddings must be non-negative: -1 0"):
        tf.pad(a, [[1, 1], [-1, 0]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be less than the dimension size: 2, 1 "
                                                             "not less than 2"):
        tf.pad(a, [[2, 1], [1, 0]], mode="REFLECT")
    with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be no greater than the dimension size"):
        tf.pad(a, [[3, 1], [1, 0]], mode="SYMMETRIC")
    with pytest.raises(ValueError, match="Received `mode` = FOO"):
        tf.pad(a, pads, mode="foo")
    check(tf.reverse(a, []), a)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"'axis'\[0\] = 2 is out of valid range \[0, 1"):
        tf.reverse(a, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis 1 specified more than once."):
        tf.reverse(a, [1, -1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[3,3\]"):
        tf.broadcast_to(a, [3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Rank of input \(2\) must be no greater than rank of "
                                                             r"output shape \(1\)."):
        tf.broadcast_to(a, [3])
    check(tf.broadcast_to(tf.constant([1, 2], tf.int64), tf.constant([2, 2], tf.int64)), np.array([[1, 2]] * 2))


def test_gather():
    a = sample((3, 4, 5), np.float32)
    check(tf.gather(a, [[2, 0], [1, 1]]), a[[[2, 0], [1, 1]]])
    check(tf.gather(a, tf.constant([3, -0], tf.int64), axis=-2), a[:, [3, 0]])
    check(tf.gather(a, tf.constant(2, tf.int16), axis=2), a[:, :, 2])
    check(tf.gather(a, np.zeros([0], np.int32), axis=1), a[:, :0])
    p = sample((2, 3), np.int32)
    check(tf.gather(p, [[0], [2]], batch_dims=1), np.array([[p[0, 0]], [p[1, 2]]]))
    check(tf.gather(p, [[0], [1]], batch_dims=-1), np.array([[p[0, 0]], [p[1, 1]]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 5 is not in \[0, 3\)"):
        tf.gather([1, 2, 3], [5])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1,1\] = -1 is not in \[0, 3\)"):
        tf.gather([1, 2, 3], [[0, 1], [2, -1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shape must be at least rank 2 but is rank 1"):
        tf.gather([1, 2, 3], [0], axis=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="params must be at least 1 dimensional"):
        tf.gather(tf.constant(1), [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tindices"):
        tf.gather([1, 2, 3], [0.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"batch_dims \(2\) must be less than or equal to axis "
                                                             r"\(1\)."):
        tf.gather(tf.zeros([2, 3, 4]), tf.zeros([2, 3], tf.int32), axis=1, batch_dims=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"params.shape\[0\]: 2 should be equal to "
                                                             r"indices.shape\[0\]: 3"):
        tf.gather(tf.zeros([2, 3]), tf.zeros([3, 1], tf.int32), batch_dims=1)
    s = sample((4,), object)
    check(tf.gather(s, [3, 3, 0]), s[[3, 3, 0]])


def test_gather_nd():
    a = sample((2, 3, 4), np.int64)
    check(tf.gather_nd(a, [[1, 2], [0, 0]]), a[[1, 0], [2, 0]])
    check(tf.gather_nd(a, [[[1, 2, 3]]]), a[[[1]], [[2]], [[3]]])
    assert tf.gather_nd(a, tf.zeros([4, 0], tf.int32)).shape == (4, 2, 3, 4)
    assert tf.gather_nd(a, tf.zeros([0, 2], tf.int32)).shape == (0, 4)
    check(tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1], [0]], batch_dims=1), np.array([2, 3], np.int32))
    s = sample((2, 2), object)
    check(tf.gather_nd(s, [[1, 0]]), np.array([s[1, 0]], dtype=object))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into param shape "
                                                             r"\[3\]"):
        tf.gather_nd([1, 2, 3], [[5]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0,1\] = \[0, 5\] does not index into param "
                                                             r"shape \[2,3\]"):
        tf.gather_nd(tf.zeros([2, 3]), [[[0, 0], [0, 5]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="index innermost dimension length must be <= params rank; "
                                                             "saw: 2 vs. 1"):
        tf.gather_nd([1, 2, 3], [[0, 1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="indices must be at least a vector"):
        tf.gather_nd([1, 2, 3], 1)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.complex64, np.uint8])
def test_where_one_arg(dtype):
    a = sample((3, 4), dtype) if dtype is not np.bool_ else sample((3, 4), dtype)
    a = np.where(np.arange(12).reshape(3, 4) % 3 == 0, np.zeros_like(a), a)
    check(tf.where(a), np.argwhere(a).astype(np.int64))
    check(tf.where(np.zeros((0, 2), dtype)), np.zeros((0, 2), np.int64))


# Every storage width (1, 2, 4, 8, 16 bytes and strings); condition, then and else each whole, one
# element, or broadcast along rows or columns; random masks over sizes that split across threads.
_SELECT_DTYPES = [np.bool_, np.int8, np.float16, np.float32, np.int64, np.complex64, np.complex128, object]
_SELECT_SHAPES = [(), (1,), (1, 1), (700, 1), (1, 150), (700, 150)]


@pytest.mark.parametrize("dtype", _SELECT_DTYPES)
def test_where_select_every_broadcast_form_matches_numpy(dtype):
    rng = np.random.default_rng(7)

    def values(shape):
        v = rng.integers(-100, 100, shape)
        return v.astype(str).astype(object) if dtype is object else v.astype(dtype)
    for sc in _SELECT_SHAPES:
        for sth in _SELECT_SHAPES[::2] + [(700, 150)]:
            for se in _SELECT_SHAPES[1::2]:
                c, t, e = rng.random(sc) < 0.5, values(sth), values(se)
                got = tf.where(c, t, e).numpy()
                want = np.where(c, t, e)
                assert got.shape == want.shape
                if dtype is object:
                    assert [v.decode() for v in got.ravel()] == list(want.ravel())
                else:
                    assert got.tobytes() == want.astype(dtype).tobytes(), (sc, sth, se)


def test_where_coordinates_and_count_of_random_masks():
    rng = np.random.default_rng(8)
    for shape in [(100_003,), (301, 97), (7, 11, 13), (3, 5, 2, 7)]:
        for dtype in (np.bool_, np.float32, np.int8, np.complex64):
            x = ((rng.random(shape) < 0.37) * rng.integers(1, 5, shape)).astype(dtype)
            check(tf.where(x), np.argwhere(x).astype(np.int64))
            check(tf.boolean_mask(tf.constant(x), x != 0), x[x != 0])


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.int32, np.float32, np.int64,
                                   np.float64, np.complex64, np.complex128])
def test_unary_kernels_from_bool_match_numpy(dtype):
    # Cast from bool (chosen through a mask of each byte) and LogicalNot, both in place and not.
    c = np.random.default_rng(9).random(70_001) < 0.5
    assert tf.cast(c, dtype).numpy().tobytes() == c.astype(dtype).tobytes()
    assert tf.cast(c[:5], dtype).numpy().tobytes() == c[:5].astype(dtype).tobytes()
    assert (tf.logical_not(c).numpy() == ~c).all()
    assert (tf.function(lambda v: tf.logical_not(tf.logical_not(v) & v))(tf.constant(c)).numpy()).all()


def test_where_select_and_boolean_mask():
    c = np.array([[True, False, True]])
    x = sample((2, 3), np.float32)
    y = sample((2, 1), np.float32, seed=1)
    check(tf.where(c, x, y), np.where(c, x, y))
    check(tf.where([True, False], [1, 2], [3, 4]), np.array([1, 4], np.int32))
    s1, s2 = sample((2,), object), np.array([b"x", b"y"], dtype=object)
    check(tf.where([True, False], s1, s2), np.array([s1[0], s2[1]], dtype=object))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"condition \[2\], then \[2\], and else \[3\] must be "
                                                             r"broadcastable"):
        tf.where([True, False], tf.constant([1, 2]), tf.constant([1, 2, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="was expected to be a bool tensor but is a int32"):
        tf.where(tf.constant([1, 0]), tf.constant([1, 2]), tf.constant([3, 4]))
    with pytest.raises(ValueError, match="x and y must both be non-None or both be None."):
        tf.where([True, False], tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="WhereOp : Unhandled input dimensions: 0"):
        tf.where(tf.constant(True))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.where(tf.constant(["a", ""]))
    a = np.arange(24).reshape(2, 3, 4).astype(np.int32)
    m = np.array([True, False, True])
    check(tf.boolean_mask(a, m, axis=1), a[:, m])
    m2 = np.arange(6).reshape(2, 3) % 2 == 0
    check(tf.boolean_mask(a, m2), a[m2])
    check(tf.boolean_mask(a, [1, 0]), a[[True, False]])
    check(tf.boolean_mask(a, np.zeros(2, bool)), a[:0])
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(3,\) are incompatible"):
        tf.boolean_mask(a, m)
    with pytest.raises(ValueError, match="mask cannot be scalar."):
        tf.boolean_mask(a, True)


def test_shape_size_rank_identity():
    x = tf.zeros([2, 3, 0])
    check(tf.shape(x), np.array([2, 3, 0], np.int32))
    check(tf.shape(x, out_type=tf.int64), np.array([2, 3, 0], np.int64))
    check(tf.shape(tf.constant(1.0)), np.zeros([0], np.int32))
    check(tf.size(tf.zeros([2, 3])), np.int32(6))
    check(tf.size(tf.zeros([2, 3]), out_type=tf.int64), np.int64(6))
    check(tf.rank(tf.zeros([2, 3])), np.int32(2))
    check(tf.shape(["a"]), np.array([1], np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="out_type"):
        tf.shape(x, out_type=tf.float32)
    t = tf.constant([1, 2])
    i = tf.identity(t)
    assert i is not t and i.dtype == t.dtype
    check(i, t.numpy())


# --- shape inference matches the kernels ---

INFER_CASES = [
    ("Reshape", lambda: [np.zeros((2, 3)), np.array([3, -1], np.int32)], None),
    ("Reshape", lambda: [np.zeros((0, 2)), np.array([-1, 0], np.int64)], None),
    ("Transpose", lambda: [np.zeros((2, 3, 4)), np.array([2, 0, 1], np.int32)], None),
    ("ExpandDims", lambda: [np.zeros((2, 3)), np.array(-1, np.int32)], None),
    ("Squeeze", lambda: [np.zeros((1, 2, 1))], {"squeeze_dims": []}),
    ("Squeeze", lambda: [np.zeros((1, 2, 1))], {"squeeze_dims": [-1]}),
    ("ConcatV2", lambda: [np.zeros((2, 3)), np.ones((2, 1)), np.array(1, np.int32)], None),
    ("Pack", lambda: [np.zeros((2, 3)), np.ones((2, 3))], {"axis": -1}),
    ("Unpack", lambda: [np.zeros((2, 3))], {"num": 3, "axis": 1}),
    ("Split", lambda: [np.array(1, np.int32), np.zeros((2, 4))], {"num_split": 2}),
    ("SplitV", lambda: [np.zeros((2, 5)), np.array([1, -1, 2], np.int32), np.array(1, np.int32)], {"num_split": 3}),
    ("Tile", lambda: [np.zeros((2, 3)), np.array([3, 0], np.int32)], None),
    ("Pad", lambda: [np.zeros((2, 3)), np.array([[1, 2], [0, 1]], np.int32)], None),
    ("PadV2", lambda: [np.zeros((2, 3)), np.array([[1, 2], [0, 1]], np.int32), np.array(1.0)], None),
    ("MirrorPad", lambda: [np.zeros((2, 3)), np.array([[1, 1], [0, 2]], np.int32)], {"mode": "REFLECT"}),
    ("ReverseV2", lambda: [np.zeros((2, 3)), np.array([1], np.int32)], None),
    ("BroadcastTo", lambda: [np.zeros((3, 1)), np.array([2, 3, 4], np.int32)], None),
    ("Identity", lambda: [np.array([b"a"], dtype=object)], None),
    ("GatherV2", lambda: [np.zeros((3, 4, 5)), np.array([[0, 1]], np.int32), np.array(1, np.int32)], None),
    ("GatherV2", lambda: [np.zeros((2, 4, 5)), np.array([[0], [1]], np.int64), np.array(1, np.int32)],
     {"batch_dims": 1}),
    ("GatherNd", lambda: [np.zeros((3, 4, 5)), np.array([[0, 1], [2, 2]], np.int32)], None),
    ("Where", lambda: [np.array([[True, False], [True, True]])], None),
    ("SelectV2", lambda: [np.array([True, False]), np.zeros((3, 2)), np.ones((1, 2))], None),
    ("StridedSlice", lambda: [np.zeros((3, 4, 5)), np.array([1, 0, -1], np.int32), np.array([0, 0, 0], np.int32),
                              np.array([1, 1, -2], np.int32)],
     {"begin_mask": 0, "end_mask": 2, "ellipsis_mask": 2, "new_axis_mask": 0, "shrink_axis_mask": 1}),
    ("Slice", lambda: [np.zeros((3, 4)), np.array([1, 0], np.int32), np.array([-1, 2], np.int32)], None),
]


@pytest.mark.parametrize("op,make,attrs", INFER_CASES, ids=[c[0] for c in INFER_CASES])
def test_infer_matches_kernel(op, make, attrs):
    check_infer(op, make(), attrs)


def test_infer_unknown_values():
    # Constant shape/axis inputs give exact static shapes.
    x = tf.zeros([2, 3])
    dims = _core.infer(op_def("Reshape"), [x, tf.constant([3, 2])], None)[0][1]
    assert dims == [3, 2]
    assert _core.infer(op_def("Squeeze"), [tf.zeros([1, 2])], {"squeeze_dims": [0]})[0][1] == [2]


# --- property tests ---

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(shapes, st.randoms(use_true_random=False))
def test_reshape_transpose_roundtrip(shape, rnd):
    a = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    perm = list(range(len(shape)))
    rnd.shuffle(perm)
    t = tf.transpose(a, perm)
    check(t, a.transpose(perm))
    inv = np.argsort(perm).tolist()
    check(tf.transpose(t, inv), a)
    flat = tf.reshape(t, [-1]) if a.size else tf.reshape(t, [0])
    check(flat, a.transpose(perm).reshape(-1))
    check(tf.reshape(flat, list(a.transpose(perm).shape)), a.transpose(perm))


def test_tf_quirks():
    p = tf.constant([[1, 2, 3], [4, 5, 6]])
    # axis=0 takes TF's plain-gather path, which ignores batch_dims.
    assert tf.gather(p, [[0], [1]], axis=0, batch_dims=1).shape == (2, 1, 3)
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.where(True, 1, 2.5)
    check(tf.where([True, False], 1.5, tf.constant([1.0, 2.0])), np.array([1.5, 2.0], np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.float64, object])
def test_large_transposes_tiled_path(dtype):
    a = sample((3, 70, 45), dtype)
    for perm in [(0, 2, 1), (2, 1, 0), (1, 0, 2), (2, 0, 1)]:
        check(tf.transpose(a, perm), a.transpose(perm))
    b = sample((100, 33), dtype)
    check(tf.transpose(b), b.T)
    check(tf.constant(b)[::-1, ::3], b[::-1, ::3])


# --- regressions found by the ASan/UBSan run (.ci/sanitize): huge sizes fail cleanly, no overflow ---

def test_reshape_too_many_elements():
    big = tf.constant([2 ** 40, 2 ** 40], tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape \[1099511627776, 1099511627776\] has too many elements"):
        tf.reshape(tf.zeros([6]), big)
    with pytest.raises(tf.errors.InvalidArgumentError, match="has too many elements"):
        tf.reshape(tf.zeros([0]), tf.constant([2 ** 40, 2 ** 40, 0, -1], tf.int64))


def test_tile_pad_split_huge_sizes():
    with pytest.raises((tf.errors.InvalidArgumentError, tf.errors.ResourceExhaustedError)):
        tf.tile(tf.zeros([3]), tf.constant([2 ** 62], tf.int64))
    with pytest.raises((tf.errors.InvalidArgumentError, tf.errors.ResourceExhaustedError)):
        tf.pad(tf.zeros([3]), tf.constant([[2 ** 62, 2 ** 62]], tf.int64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Determined shape must either match"):
        tf.split(tf.zeros([4]), tf.constant([2 ** 62] * 4, tf.int64))


def test_gather_nd_huge_index():
    # The flat offset was computed before the range check and overflowed.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[0\] = \[4611686018427387904, 0\] does not index into param shape \[3,3\]"):
        tf.gather_nd(tf.zeros([3, 3]), tf.constant([[2 ** 62, 0]], tf.int64))


@pytest.mark.parametrize("axis", [-(2 ** 63), 2 ** 63 - 1])
def test_gather_extreme_axis(axis):
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.gather(tf.zeros([3]), [0], axis=tf.constant(axis, tf.int64))


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("k,slice_shape", [(1, ()), (2, ()), (1, (5,)), (2, (3, 2))])
def test_gather_nd_matches_numpy_and_names_the_first_bad_index(index_dtype, k, slice_shape):
    # Offsets in one branch-free pass (single elements gathered by a loop, slices copied); the error
    # names the first index out of range, as TF's, wherever it is.
    rng = np.random.default_rng(k)
    params = rng.normal(size=(40, 30) + slice_shape).astype(np.float32)
    idx = rng.integers(0, 30, (2, 5000, k)).astype(index_dtype)
    want = params[tuple(idx[..., d] for d in range(k))]
    np.testing.assert_array_equal(tf.gather_nd(params, idx).numpy(), want)
    for at, bad in ((0, -1), (2345, 40), (4999, 2**31 - 1 if index_dtype == np.int32 else 2**62)):
        b = idx.copy()
        b[1, at, 0] = bad
        b[1, 4999, k - 1] = -5  # later, never the one reported unless it is the same index
        shown = ", ".join(str(v) for v in b[1, at])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"indices\[1,{at}\] = \[{shown}\] does not index into param shape"):
            tf.gather_nd(params, b)
