"""Tensor.__getitem__, tf.strided_slice and tf.slice vs NumPy indexing, with TF's errors."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import eagerflow as tf

A = np.arange(60, dtype=np.int32).reshape(3, 4, 5)


def check(t, expected):
    expected = np.asarray(expected)
    got = np.asarray(t.numpy())
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if expected.dtype == object:
        assert got.tolist() == expected.tolist()
    else:
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("key", [
    1, -1, (0, 1), (-1, -2, -3), slice(None), slice(1, None), slice(None, None, -1), slice(-1, 0, -1),
    (slice(None), 2), (Ellipsis, 1), (1, Ellipsis), (1, Ellipsis, 2), (None,), (None, 1, None), (Ellipsis, None),
    (slice(0, 3, 2), slice(None, None, -2), slice(1, -1)), (), Ellipsis, slice(10, 20), slice(-10, 10),
    (slice(None), None, slice(None, None, 3)), (0, slice(5, -10, -1)), (slice(2, 0, 1),), (slice(None, None, 7),),
])
def test_getitem_matches_numpy(key):
    x = tf.constant(A)
    check(x[key], A[key])


def test_scalar_and_tensor_indices():
    x = tf.constant(A)
    check(x[tf.constant(1)], A[1])
    check(x[tf.constant(1, tf.int64)], A[1])
    check(x[tf.constant(1, tf.int16)], A[1])
    check(x[np.int64(2)], A[2])
    check(x[np.array(1)], A[1])
    check(x[tf.constant(0, tf.int64):tf.constant(2)], A[0:2])
    check(x[::tf.constant(2)], A[::2])
    check(x[tf.constant(2)::-1], A[2::-1])
    check(x[1, tf.constant(-1)], A[1, -1])
    s = tf.constant(5)
    check(s[...], np.int32(5))
    check(s[None], np.array([5], np.int32))
    check(s[()], np.int32(5))


def test_strings_and_empty():
    s = np.array([b"a", b"bb", b"ccc"], dtype=object)
    x = tf.constant(s)
    check(x[1:], s[1:])
    check(x[::-1], s[::-1])
    assert x[1].numpy() == b"bb"
    e = tf.zeros([0, 3])
    check(e[:, 1], np.zeros((0,), np.float32))
    check(e[::-1], np.zeros((0, 3), np.float32))


def test_bool_mask_indexing():
    x = tf.constant(A[:, :, 0])
    m = np.array([True, False, True])
    check(x[m], A[:, :, 0][m])
    check(x[tf.constant(m)], A[:, :, 0][m])
    with pytest.raises(ValueError, match="mask cannot be scalar."):
        x[True]


def test_list_index_is_a_tuple_like_tf():
    x = tf.constant(A)
    check(x[[1, 2]], A[1, 2])


@pytest.mark.parametrize("key,got", [
    ((slice(None), [1, 2]), "[1, 2]"), ((slice(None), (1, 2)), "(1, 2)"), (1.0, "1.0"), ("a", "'a'"),
    (slice(1.0, 2), "1.0"), (np.array([1, 2]), "array([1, 2])"),
])
def test_invalid_index_type(key, got):
    x = tf.constant(A)
    with pytest.raises(TypeError) as e:
        x[key]
    assert str(e.value) == ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                            "tf.int32/tf.int64 tensors are valid indices, got " + got)


def test_invalid_tensor_index_types():
    x = tf.constant(A)
    with pytest.raises(TypeError, match="valid indices, got <tf.Tensor: shape=\\(\\), dtype=float32"):
        x[tf.constant(1.0)]
    with pytest.raises(TypeError, match="valid indices, got <tf.Tensor: shape=\\(1,\\), dtype=int32"):
        x[tf.constant([1])]


def test_slice_errors():
    x = tf.constant([1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 5 of dimension 0 out of bounds."):
        x[5]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index -1 of dimension 0 out of bounds."):
        x[-4]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"slice index 3 of dimension 1 out of bounds. "
                                                             r"\[Op:StridedSlice\]"):
        tf.zeros([2, 3])[0, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Attempting to slice scalar input."):
        tf.constant(5)[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"strides\[0\] must be non-zero"):
        x[::0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Index out of range using input dim 1; input has only 1 "
                                                             "dims"):
        x[0, 0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Multiple ellipses in slice spec not allowed"):
        x[..., ...]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected begin, end, and strides to be 1D equal size "
                                                             r"tensors, but got shapes \[2\], \[1\], and \[2\] "
                                                             r"instead."):
        tf.strided_slice(x, [0, 0], [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="only stride 1 allowed on non-range indexing."):
        tf.strided_slice(tf.zeros([3, 4]), [1], [0], [-1], shrink_axis_mask=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="was expected to be a int64 tensor but is a int32"):
        tf.strided_slice(x, tf.constant([1], tf.int64), tf.constant([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Index"):
        tf.strided_slice(x, tf.constant([1.0]), tf.constant([2.0]))


def test_strided_slice_masks():
    x = tf.constant(A[:, :, 0])  # [3, 4]
    a = A[:, :, 0]
    check(tf.strided_slice(x, [0, 1], [0, 2], ellipsis_mask=1), a[..., 1:2])
    check(tf.strided_slice(x, [0, 1], [0, 2], new_axis_mask=1, shrink_axis_mask=1), a[None, 1:2])
    check(tf.strided_slice(x, [1], [0], shrink_axis_mask=1), a[1])
    check(tf.strided_slice(x, [1], [0], [2], shrink_axis_mask=1), a[1])
    check(tf.strided_slice(x, [2, 3], [0, 0], [-1, -1], begin_mask=1, end_mask=3), a[::-1, 3::-1])
    check(tf.strided_slice(x, [0, 0], [2, 3]), a[0:2, 0:3])
    check(tf.strided_slice(x, tf.constant([0, 0], tf.int64), tf.constant([2, 3], tf.int64)), a[0:2, 0:3])


def test_tf_slice():
    x = tf.constant(A)
    check(tf.slice(x, [1, 0, 2], [2, -1, 2]), A[1:3, :, 2:4])
    check(tf.slice(x, [0, 0, 0], [0, 4, 5]), A[:0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected size\[0\] in \[0, 2\], but got 5"):
        tf.slice([1, 2, 3], [1], [5])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected begin\[0\] in \[0, 3\], but got -1"):
        tf.slice([1, 2, 3], [-1], [1])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected begin and size arguments to be 1-D tensors of "
                                                             r"size 1, but got shapes \[2\] and \[2\] instead."):
        tf.slice([1, 2, 3], [1, 0], [1, 1])


def test_iteration_uses_unstack():
    x = tf.constant(A[:, :, 0])
    rows = list(x)
    assert len(rows) == 3
    check(rows[2], A[2, :, 0])
    with pytest.raises(TypeError):
        iter(tf.constant(1))


# --- property test: random shapes and random index tuples vs NumPy ---

@st.composite
def index_case(draw):
    shape = draw(st.lists(st.integers(0, 5), min_size=0, max_size=4))
    rank = len(shape)
    n_consuming = draw(st.integers(0, rank + 1))  # rank + 1: too many indices
    use_ellipsis = draw(st.booleans())
    items = []
    for d in range(n_consuming):
        kind = draw(st.sampled_from(["int", "slice", "slice"]))
        if kind == "int":
            # Mostly in range; sometimes out of range (NumPy IndexError <-> InvalidArgumentError).
            items.append(draw(st.integers(-6, 6)))
        else:
            bound = 7
            start = draw(st.one_of(st.none(), st.integers(-bound, bound)))
            stop = draw(st.one_of(st.none(), st.integers(-bound, bound)))
            step = draw(st.one_of(st.none(), st.integers(-3, 3).filter(lambda s: s != 0)))
            items.append(slice(start, stop, step))
    if use_ellipsis:
        items.insert(draw(st.integers(0, len(items))), Ellipsis)
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), None)
    return shape, tuple(items)


@settings(max_examples=300, deadline=None)
@given(index_case())
def test_getitem_property(case):
    shape, key = case
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    try:
        expected = a[key]
    except IndexError:
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.constant(a)[key]
        return
    check(tf.constant(a)[key], expected)


# --- regressions found by the ASan/UBSan run (.ci/sanitize) ---

def test_slice_extreme_begin_with_size_minus_one():
    # size -1 became dim - begin before begin was checked: overflow for begin = INT64_MIN.
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected begin\[0\] in \[0, 4\], but got -9223372036854775808"):
        tf.slice(tf.zeros([4]), tf.constant([-(2 ** 63)], tf.int64), tf.constant([-1], tf.int64))


@pytest.mark.parametrize("ellipsis_mask", [0, 1])
def test_strided_slice_more_than_32_entries(ellipsis_mask):
    # Mask bits were read with shifts past the 64-bit mask width.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected begin, end, and strides to be 1D equal size tensors, but got shapes \[70\]"):
        tf.strided_slice(tf.zeros([4]), [0] * 70, [1] * 70, [1] * 70, ellipsis_mask=ellipsis_mask)


HUGE_STEP_KEYS = [np.s_[::2 ** 62], np.s_[2 ** 31:1:2 ** 62], np.s_[::-2 ** 62], np.s_[-1::-2 ** 63],
                  np.s_[::2 ** 63 - 1], np.s_[1:, ::2 ** 62, ::-2 ** 40]]


@pytest.mark.parametrize("key", HUGE_STEP_KEYS)
def test_huge_steps_match_numpy(key):
    # A step far beyond the dim takes one element; nothing may multiply it by an element stride.
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    if not isinstance(key, tuple):
        key = (key,)
    want = a[key]
    np.testing.assert_array_equal(tf.constant(a)[key].numpy(), want)
    np.testing.assert_array_equal(tf.function(lambda x: x[key])(tf.constant(a)).numpy(), want)
    x = tf.constant(a.astype(np.float64))
    with tf.GradientTape() as g:
        g.watch(x)
        y = x[key]
    dense = np.zeros(a.shape)
    dense[key] = 1.0
    np.testing.assert_array_equal(g.gradient(y, x).numpy(), dense)


@pytest.mark.parametrize("mask", [3, 6, 9, 12])
def test_multiple_ellipsis_bits_are_rejected(mask):
    # TF counts every set bit of ellipsis_mask, also beyond the spec's length.
    x = tf.zeros([2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Multiple ellipses in slice spec not allowed"):
        tf.strided_slice(x, [0, 1], [1, 1], end_mask=15, ellipsis_mask=mask)
    assert tf.strided_slice(x, [0, 1], [1, 1], end_mask=15, ellipsis_mask=8).shape == (2, 1)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.complex64, object])
def test_slices_that_are_runs_share_the_buffer_and_match_numpy(dtype):
    # A slice that is one run of elements (rows, a shrunk leading index, a range within one row) and a
    # split or unstack along the leading axis are views of the input's buffer, as TF's dim-0 slices
    # are; strings and slices within the inline size are copies. Values as NumPy's either way.
    rng = np.random.default_rng(0)
    if dtype is object:
        x = np.array([str(v) for v in range(6 * 7 * 8)], dtype=object).reshape(6, 7, 8)
    else:
        x = (rng.normal(size=(6, 7, 8)) * 10).astype(dtype)
    t = tf.constant(x)

    def same(got, want):
        got = np.asarray(got.numpy())
        if dtype is object:
            assert [v.decode() for v in got.ravel()] == list(np.asarray(want).ravel())
        else:
            np.testing.assert_array_equal(got, want)
    for key in [np.s_[2:5], np.s_[3], np.s_[1, 2:4], np.s_[1, 3], np.s_[4:5, 2:7], np.s_[0, 0, 1:5],
                np.s_[:, 1:3], np.s_[1:5:2], np.s_[-2:], np.s_[5, 6, 7], np.s_[2:2]]:
        same(t[key], x[key])
    for got, want in zip(tf.split(t, [1, 3, 2]), np.split(x, [1, 4])):
        same(got, want)
    for got, want in zip(tf.unstack(t), x):
        same(got, want)


def test_views_outlive_their_base_and_never_write_it():
    base = np.arange(4000, dtype=np.float32).reshape(40, 100)
    t = tf.constant(base)
    rows, parts = t[10:20], tf.split(t, 4)
    v = tf.Variable(t[20:30])
    v.assign_add(tf.ones([10, 100]))
    v[0, 0].assign(-1.0)
    np.testing.assert_array_equal(t.numpy(), base)  # the variable's updates never reach the base
    del t
    np.testing.assert_array_equal(rows.numpy(), base[10:20])
    np.testing.assert_array_equal(tf.exp(parts[1] * 0.0).numpy(), np.ones((10, 100), np.float32))
    np.testing.assert_array_equal(parts[2].numpy(), base[20:30])  # an op on a sibling view left it alone
    np.testing.assert_array_equal(tf.math.negative(tf.split(tf.constant(base), 4)[3]).numpy(), -base[30:40])
