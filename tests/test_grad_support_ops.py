"""The ops added for gradients, against NumPy: UnsortedSegmentSum, ScatterNd, InvertPermutation,
StridedSliceGrad, MirrorPadGrad (values, dtypes, duplicates, zero sizes, TF's errors)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.ops._execute import execute1

DTYPES = [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int16, np.int32, np.int64, np.complex64]


def np_segment_sum(data, ids, n):
    out = np.zeros((n,) + data.shape[ids.ndim:], data.dtype)
    flat = data.reshape((-1,) + data.shape[ids.ndim:])
    for j, i in enumerate(ids.ravel()):
        if i >= 0:
            out[i] += flat[j]
    return out


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_unsorted_segment_sum_matches_numpy(dtype):
    rng = np.random.default_rng(0)
    data = (rng.standard_normal((6, 3)) * 10).astype(dtype)
    ids = np.array([0, 2, -1, 2, 4, 0], np.int32)
    got = tf.math.unsorted_segment_sum(data, ids, 5)
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_allclose(got.numpy(), np_segment_sum(data, ids, 5), rtol=1e-3)


def test_unsorted_segment_sum_shapes():
    data = np.arange(12.0).reshape(2, 3, 2)
    ids = np.array([[0, 1, 0], [3, 3, 1]], np.int64)
    np.testing.assert_array_equal(tf.math.unsorted_segment_sum(data, ids, np.int64(4)).numpy(),
                                  np_segment_sum(data, ids, 4))
    assert tf.math.unsorted_segment_sum(np.zeros((0, 2)), np.zeros(0, np.int32), 3).shape == (3, 2)
    assert tf.math.unsorted_segment_sum(np.ones(3), [0, 0, 1], 0 + 2).numpy().tolist() == [2, 1]


def test_unsorted_segment_sum_int_wraps():
    got = tf.math.unsorted_segment_sum(np.array([2 ** 31 - 1, 1], np.int32), [0, 0], 1)
    assert got.numpy().tolist() == [-(2 ** 31)]


def test_unsorted_segment_sum_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[1\] = 5 is out of range \[0, 3\)"):
        tf.math.unsorted_segment_sum([1.0, 2.0, 3.0], [0, 5, 1], 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not start with segment_ids.shape"):
        tf.math.unsorted_segment_sum([[1.0, 2.0]], [0, 1], 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_segments == -1 must not be negative"):
        tf.math.unsorted_segment_sum([1.0], [0], -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed values"):
        tf.math.unsorted_segment_sum([True], [0], 1)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.__name__)
def test_scatter_nd_matches_numpy(dtype):
    indices = np.array([[1, 0], [0, 2], [1, 0]], np.int32)
    updates = np.array([[1, 2], [3, 4], [5, 6]]).astype(dtype)
    got = tf.scatter_nd(indices, updates, [2, 3, 2])
    want = np.zeros((2, 3, 2), dtype)
    for i, u in zip(indices, updates):
        want[tuple(i)] += u
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), want)


def test_scatter_nd_shapes():
    assert tf.scatter_nd(np.zeros((0, 1), np.int64), np.zeros((0, 3)), np.array([2, 3], np.int64)).numpy().tolist() \
        == [[0, 0, 0], [0, 0, 0]]
    np.testing.assert_array_equal(tf.scatter_nd([[1], [1]], [1.0, 2.0], [3]).numpy(), [0, 3, 0])
    np.testing.assert_array_equal(tf.scatter_nd([[0, 1]], [7], [2, 2]).numpy(), [[0, 7], [0, 0]])


def test_scatter_nd_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into shape \[3\]"):
        tf.scatter_nd([[5]], [1.0], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[-1\] does not index into shape"):
        tf.scatter_nd([[-1]], [1.0], [3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Dimensions \[0,1\) of indices\[shape=\[1,1\]\] must match dimensions \[0,1\) of "
                             r"updates\[shape=\[2\]\]"):
        tf.scatter_nd([[0]], [1.0, 2.0], [3])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Dimensions \[2,1\) of input\[shape=\[3\]\] must match dimensions \[1,1\) of "
                             r"updates\[shape=\[1\]\]"):
        tf.scatter_nd([[0, 1]], [1.0], [3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -3 must be >= 0"):
        tf.scatter_nd([[0]], [1.0], [-3])


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_invert_permutation(dtype):
    p = np.array([3, 0, 4, 1, 2], dtype)
    got = tf.math.invert_permutation(p)
    assert got.dtype == tf.as_dtype(dtype)
    np.testing.assert_array_equal(got.numpy(), np.argsort(p))
    assert tf.math.invert_permutation(np.zeros(0, dtype)).shape == (0,)


def test_invert_permutation_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="0 is duplicated in the input."):
        tf.math.invert_permutation([0, 0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="3 is not between 0 and 3"):
        tf.math.invert_permutation([0, 3, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="invert_permutation expects a 1D vector."):
        tf.math.invert_permutation([[0]])


def _ssg(shape, begin, end, strides, dy, **masks):
    i = lambda v: tf.constant(np.array(v, np.int32))  # noqa: E731
    return execute1("StridedSliceGrad", [i(shape), i(begin), i(end), i(strides), tf.constant(dy)], masks)


@pytest.mark.parametrize("spec", [
    ((6,), [1], [5], [2], {}),
    ((6,), [4], [0], [-1], {}),
    ((3, 4), [1, 0], [0, 0], [1, 1], {"shrink_axis_mask": 1, "end_mask": 2}),
    ((3, 4), [0, 1], [0, 3], [1, 1], {"new_axis_mask": 1}),
    ((2, 3, 4), [0, 1], [0, 2], [1, 1], {"ellipsis_mask": 1}),
    ((4,), [2], [2], [1], {}),
])
def test_strided_slice_grad_is_the_adjoint_of_strided_slice(spec):
    shape, begin, end, strides, masks = spec
    x = np.arange(1.0, np.prod(shape) + 1).reshape(shape)
    y = tf.strided_slice(x, begin, end, strides, **masks).numpy()
    dy = np.random.default_rng(1).standard_normal(y.shape)
    dx = _ssg(shape, begin, end, strides, dy, **masks).numpy()
    # <slice(x), dy> == <x, grad(dy)> for every x: check with the indicator of each element.
    assert dx.shape == shape
    for k in range(x.size):
        e = np.zeros(x.size)
        e[k] = 1
        ye = tf.strided_slice(e.reshape(shape), begin, end, strides, **masks).numpy()
        assert np.isclose((ye * dy).sum(), dx.ravel()[k])


def test_strided_slice_grad_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape of dy was \[3\] instead of \[2\]"):
        _ssg([4], [0], [4], [2], np.ones(3, np.float32))


def _mpg(g, pads, mode):
    return execute1("MirrorPadGrad", [tf.constant(g), tf.constant(np.array(pads, np.int32))], {"mode": mode})


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64], ids=lambda d: d.__name__)
def test_mirror_pad_grad_is_the_adjoint_of_mirror_pad(mode, dtype):
    pads = [[1, 2], [2, 1]]
    shape = (3, 4)
    g = (np.arange(np.prod([5 + 1, 4 + 3])) % 7).reshape(6, 7).astype(dtype)
    got = _mpg(g, pads, mode)
    assert got.dtype == tf.as_dtype(dtype) and got.shape == shape
    want = np.zeros(shape, dtype)
    for k in range(want.size):
        e = np.zeros(want.size, np.int64)
        e[k] = 1
        want.flat[k] = (np.pad(e.reshape(shape), pads, mode=mode.lower()) * g).sum()
    np.testing.assert_array_equal(got.numpy(), want)


def test_mirror_pad_grad_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="paddings must be less than the output dimension size: 3, 1 not less than 1"):
        _mpg(np.ones(5, np.float32), [[3, 1]], "REFLECT")
    with pytest.raises(tf.errors.InvalidArgumentError, match="paddings must be no greater than"):
        _mpg(np.ones(5, np.float32), [[3, 1]], "SYMMETRIC")


def test_inference_matches_kernels_in_a_graph():
    g = tf.Graph()
    with g.as_default():
        a = tf.math.unsorted_segment_sum(tf.compat.v1.placeholder(tf.float32, [None, 3]),
                                         tf.compat.v1.placeholder(tf.int32, [None]), 4)
        b = tf.scatter_nd(tf.compat.v1.placeholder(tf.int32, [None, 1]), tf.compat.v1.placeholder(tf.float32, [None]),
                          [5])
        c = tf.math.invert_permutation(tf.compat.v1.placeholder(tf.int32, [None]))
        d = execute1("MirrorPadGrad", [tf.compat.v1.placeholder(tf.float32, [None, 6]),
                                       tf.constant([[1, 1], [2, 1]])], {"mode": "REFLECT"})
    assert a.shape.as_list() == [4, 3]
    assert b.shape.as_list() == [5]
    assert c.shape.as_list() == [None]
    assert d.shape.as_list() == [None, 3]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("at", [0, 17, 99_999])
@pytest.mark.parametrize("bad", [-1, 1000, -(2**31)])
def test_scatter_nd_reports_the_first_index_out_of_range(index_dtype, at, bad):
    # One index per row is checked in one pass; the message names the first bad one, as TF's does.
    idx = np.random.default_rng(at).integers(0, 1000, (100_000, 1)).astype(index_dtype)
    idx[at, 0] = bad
    idx[-1, 0] = 5000  # a later bad index is not the one reported (unless it is the only one)
    first = at if at < 99_999 else 99_999
    want = f"indices\\[{first}\\] = \\[{bad if at < 99_999 else 5000}\\] does not index into shape \\[1000\\]"
    for call in (lambda: tf.scatter_nd(idx, tf.ones([100_000]), [1000]),
                 lambda: tf.tensor_scatter_nd_update(tf.zeros([1000]), idx, tf.ones([100_000]))):
        with pytest.raises(tf.errors.InvalidArgumentError, match=want):
            call()
