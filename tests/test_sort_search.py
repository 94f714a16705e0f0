"""tf.sort, tf.argsort, tf.math.top_k's full-sort path, tf.searchsorted, tf.unique,
tf.unique_with_counts and tf.math.bincount: against NumPy, TF's printed results (recorded from
TensorFlow 2.21), TF's errors, and inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf

INT_DTYPES = [np.int8, np.uint8, np.int16, np.int32, np.int64]
FLOAT_DTYPES = [np.float16, np.float32, np.float64]


def _values(rng, dtype, shape):
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        # small ranges make ties; the extremes check the key transforms
        v = rng.integers(-5 if info.min < 0 else 0, 6, shape).astype(dtype)
        v.flat[0], v.flat[-1] = info.min, info.max
        return v
    v = rng.standard_normal(shape).astype(dtype)
    v.flat[::7] = 0.5  # ties
    v.flat[1] = -0.0
    return v


def _np_argsort(x, axis, descending):
    """Stable argsort; descending keeps equal elements in index order as TF's does."""
    x = np.moveaxis(x, axis, -1)
    if descending:
        rows = x.reshape(-1, x.shape[-1]).astype(np.float64)
        out = np.stack([np.lexsort((np.arange(row.size), -row)) for row in rows]).reshape(x.shape)
    else:
        out = np.argsort(x, axis=-1, kind="stable")
    return np.moveaxis(out, -1, axis)


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("n", [5, 300])  # below and above the radix path's threshold
def test_sort_and_argsort_match_numpy(dtype, n):
    rng = np.random.default_rng(n)
    x = _values(rng, dtype, (3, n))
    for axis in (-1, 0, 1):
        for direction in ("ASCENDING", "DESCENDING"):
            idx = tf.argsort(x, axis=axis, direction=direction).numpy()
            want = _np_argsort(x, axis, direction == "DESCENDING")
            np.testing.assert_array_equal(idx, want, err_msg=f"axis={axis} {direction}")
            got = tf.sort(x, axis=axis, direction=direction)
            assert got.dtype == tf.as_dtype(dtype)
            np.testing.assert_array_equal(got.numpy(), np.take_along_axis(x, want, axis))


def test_sort_three_dims_middle_axis():
    x = np.random.default_rng(1).standard_normal((2, 70, 3))
    np.testing.assert_array_equal(tf.sort(x, axis=1).numpy(), np.sort(x, axis=1))
    np.testing.assert_array_equal(tf.argsort(x, axis=-2).numpy(), np.argsort(x, axis=1, kind="stable"))


def test_sort_printed_forms_as_tf():
    assert repr(tf.sort([3., 1., 2.])) == ("<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], "
                                          "dtype=float32)>")
    assert repr(tf.argsort([1, 3, 1, 2, 3], stable=True)) == (
        "<tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 2, 3, 1, 4], dtype=int32)>")
    assert tf.argsort([1, 3, 1, 2, 3], direction="DESCENDING").numpy().tolist() == [1, 4, 3, 0, 2]
    assert tf.sort([[3, 1], [2, 5]], axis=0).numpy().tolist() == [[2, 1], [3, 5]]
    assert tf.sort(tf.constant([3, 1], tf.uint8)).numpy().tolist() == [1, 3]


def test_sort_nan_sorts_as_largest():
    # TF's CPU kernel leaves NaN wherever its comparison sort happens to put it; here it is the
    # largest value (first when descending, and first when ascending, as the negation keeps NaN).
    nan = float("nan")
    assert np.isnan(tf.sort([3., nan, 1., 2.], direction="DESCENDING").numpy()[0])
    assert tf.argsort([3., nan, 1., 2.], direction="DESCENDING").numpy().tolist() == [1, 0, 3, 2]


def test_sort_errors_as_tf():
    with pytest.raises(ValueError, match="Argument `direction` should be one of ASCENDING, DESCENDING. "
                                         "Received: direction=UP"):
        tf.sort([3, 1], direction="UP")
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 2 of dimension 0 out of bounds"):
        tf.sort([3, 1], axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index -1 of dimension 0 out of bounds"):
        tf.sort(5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of string is not in the list"):
        tf.sort(["b", "a"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 1 of dimension 0 out of bounds"):
        tf.argsort([3., 1.], axis=1.5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16, np.int8])
def test_top_k_full_sort_path_matches_partial_sort(dtype):
    rng = np.random.default_rng(3)
    x = _values(rng, dtype, (4, 512))
    for k in (512, 100, 3):  # radix (k >= n / 8) and heap paths
        values, indices = tf.math.top_k(x, k)
        want = _np_argsort(x, -1, True)[:, :k]
        np.testing.assert_array_equal(indices.numpy(), want)
        np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, -1))


def test_sort_in_function_and_gradient():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.sort(x, axis=0), tf.argsort(x, direction="DESCENDING")

    x = np.float32([[3, 1, 2], [0.5, 4, -1]])
    s, a = f(x)
    np.testing.assert_array_equal(s.numpy(), np.sort(x, axis=0))
    assert a.numpy().tolist() == [[0, 2, 1], [1, 0, 2]]
    graph = f.get_concrete_function().graph
    assert "TopKV2" in [op.type for op in graph.get_operations()]
    xt = tf.constant(x)
    w = tf.constant([[1., 2., 3.], [4., 5., 6.]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xt)
        y0 = tf.reduce_sum(tf.sort(xt, axis=0) * w)
        y1 = tf.reduce_sum(tf.sort(xt, direction="DESCENDING") * w)
    # TF 2.21's gradients
    assert tape.gradient(y0, xt).numpy().tolist() == [[4.0, 2.0, 6.0], [1.0, 5.0, 3.0]]
    assert tape.gradient(y1, xt).numpy().tolist() == [[1.0, 3.0, 2.0], [5.0, 4.0, 6.0]]


# ---- searchsorted ----

@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16])
def test_searchsorted_matches_numpy(side, dtype):
    rng = np.random.default_rng(5)
    seq = np.sort(rng.integers(0, 20, (3, 40)), axis=-1).astype(dtype)
    vals = rng.integers(-2, 22, (3, 25)).astype(dtype)
    got = tf.searchsorted(seq, vals, side=side, out_type=tf.int64)
    assert got.dtype == tf.int64
    want = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(seq, vals)])
    np.testing.assert_array_equal(got.numpy(), want)


def test_searchsorted_as_tf():
    got = tf.searchsorted([[0, 3, 9, 9, 10], [1, 2, 3, 4, 5]], [[2, 4, 9], [0, 2, 6]])
    assert repr(got) == ("<tf.Tensor: shape=(2, 3), dtype=int32, numpy=\narray([[1, 2, 2],\n       [0, 1, 5]], "
                         "dtype=int32)>")
    assert tf.searchsorted([0, 3, 9, 9, 10], [2, 4, 9], side="right").numpy().tolist() == [1, 2, 4]
    assert tf.searchsorted([[0, 3, 9]], [2, 4, 9]).numpy().tolist() == [1, 2, 2]
    with pytest.raises(ValueError, match="Argument `side` must be either 'right' or 'left'. "
                                         "Received: `side` = 'middle'."):
        tf.searchsorted([0, 3], [2], side="middle")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Leading dim_size of both tensors must match"):
        tf.searchsorted([[0, 3, 9], [1, 2, 3]], [[2, 4, 9]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute LowerBound as input #1"):
        tf.searchsorted([1., 2.], [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'out_type' of float"):
        tf.searchsorted([1., 2.], [2.], out_type=tf.float32)


# ---- unique ----

def test_unique_as_tf():
    got = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])
    assert repr(got) == ("Unique(y=<tf.Tensor: shape=(5,), dtype=int32, numpy=array([1, 2, 4, 7, 8], dtype=int32)>, "
                         "idx=<tf.Tensor: shape=(9,), dtype=int32, numpy=array([0, 0, 1, 2, 2, 2, 3, 4, 4], "
                         "dtype=int32)>)")
    y, idx, count = tf.unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8])
    assert count.numpy().tolist() == [2, 1, 3, 1, 2]
    y, idx = tf.unique(["a", "b", "a"])
    assert y.numpy().tolist() == [b"a", b"b"] and idx.numpy().tolist() == [0, 1, 0]
    assert tf.unique([1., 2.], out_idx=tf.int64).idx.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="unique expects a 1D vector"):
        tf.unique([[1, 2]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'out_idx' of float"):
        tf.unique([1., 2.], out_idx=tf.float32)


@pytest.mark.parametrize("dtype", [np.float32, np.int8, np.uint8, np.int64, np.float16, np.uint32, np.bool_])
def test_unique_matches_numpy(dtype):
    x = np.random.default_rng(2).integers(0, 5, 50).astype(dtype)
    y, idx, count = tf.unique_with_counts(x)
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first)  # TF keeps the order of first occurrence
    np.testing.assert_array_equal(y.numpy(), x[np.sort(first)])
    np.testing.assert_array_equal(count.numpy(), counts[order])
    np.testing.assert_array_equal(y.numpy()[idx.numpy()], x)


def test_unique_has_no_complex_kernel():
    with pytest.raises(tf.errors.NotFoundError, match=r"Unique\[T=DT_COMPLEX64\]"):
        tf.unique(np.array([1j], np.complex64))


def test_unique_zero_signs_and_nans():
    nan = float("nan")
    y, idx = tf.unique([0.0, -0.0, nan, nan, 1.0])
    assert y.shape == (4,) and idx.numpy().tolist() == [0, 0, 1, 2, 3]  # each NaN is its own value


# ---- bincount ----

def test_bincount_as_tf():
    assert tf.math.bincount([1, 1, 2, 5]).numpy().tolist() == [0, 2, 1, 0, 0, 1]
    assert tf.math.bincount([1, 1, 2, 5], minlength=8).numpy().tolist() == [0, 2, 1, 0, 0, 1, 0, 0]
    assert tf.math.bincount([1, 1, 2, 5], maxlength=2).numpy().tolist() == [0, 2]
    got = tf.math.bincount([1, 1, 2, 5], weights=[1., 2., 3., 4.])
    assert repr(got) == ("<tf.Tensor: shape=(6,), dtype=float32, numpy=array([0., 3., 3., 0., 0., 4.], "
                         "dtype=float32)>")
    assert tf.math.bincount([[1, 1], [2, 5]], axis=-1).numpy().tolist() == [[0, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 1]]
    assert tf.math.bincount([[1, 1], [2, 5]], axis=-1, binary_output=True).numpy().tolist() == [
        [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 1]]
    assert tf.math.bincount([], minlength=3).numpy().tolist() == [0, 0, 0]
    assert tf.math.bincount([1, 2], dtype=tf.float64).dtype == tf.float64
    assert tf.math.bincount([1.5, 2.]).numpy().tolist() == [0, 1, 1]


def test_bincount_errors_as_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input arr must be non-negative!"):
        tf.math.bincount([1, -1])
    with pytest.raises(ValueError, match=r"Unsupported value for argument axis=1. Only 0 and -1 are currently "):
        tf.math.bincount([1, 2], axis=1)
    with pytest.raises(ValueError, match="Arguments `binary_output` and `weights` are mutually exclusive"):
        tf.math.bincount([1, 2], weights=[1., 2.], binary_output=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`weights` must be the same shape as `arr` .* "
                                                             r"Received \[3\]"):
        tf.math.bincount([1, 2], weights=[1., 2., 3.])


def test_bincount_matches_numpy_and_runs_in_function():
    x = np.random.default_rng(4).integers(0, 30, 1000).astype(np.int32)
    w = np.random.default_rng(5).standard_normal(1000)
    np.testing.assert_array_equal(tf.math.bincount(x).numpy(), np.bincount(x))
    np.testing.assert_allclose(tf.math.bincount(x, weights=w).numpy(), np.bincount(x, weights=w))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(v):
        return tf.math.bincount(v, minlength=40), tf.unique(v).y, tf.searchsorted(tf.sort(v), v)

    counts, y, pos = f(x)
    np.testing.assert_array_equal(counts.numpy(), np.bincount(x, minlength=40))
    assert sorted(y.numpy().tolist()) == sorted(set(x.tolist()))
    np.testing.assert_array_equal(pos.numpy(), np.searchsorted(np.sort(x), x))


def test_static_shapes_in_function_as_tf():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([None, 5]), tf.TensorSpec([None], tf.int32)])
    def f(x, seq, v):
        for t in (tf.sort(x, axis=0), tf.argsort(x), tf.searchsorted(seq, x), *tf.unique_with_counts(v),
                  tf.math.bincount(v)):
            shapes.append(t.shape.as_list())
        return x

    f.get_concrete_function()
    assert shapes == [[None, 3], [None, 3], [None, 3], [None], [None], [None], [None]]  # TF 2.21's


def test_sort_unknown_rank_in_function():
    x = np.float32([[3, 1], [2, 5], [0, 0]])
    f = tf.function(lambda v: tf.sort(v, axis=0), input_signature=[tf.TensorSpec(None)])
    np.testing.assert_array_equal(f(x).numpy(), np.sort(x, 0))
    g = tf.function(lambda v: tf.argsort(v, axis=-2), input_signature=[tf.TensorSpec(None)])
    np.testing.assert_array_equal(g(x).numpy(), np.argsort(x, 0, kind="stable"))
