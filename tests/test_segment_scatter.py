"""The segment reductions (tf.math.segment_*, tf.math.unsorted_segment_*) and the tensor scatters
(tf.tensor_scatter_nd_*): against NumPy, TF's results and errors (recorded from TensorFlow 2.21),
gradients (TF's values) eagerly and in tf.function."""
import numpy as np
import pytest

import eagerflow as tf

_REDUCE = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def np_segment(kind, data, ids, num, sorted_ids):
    """Reference: row j of data (under ids' shape) folds into output row ids[j]."""
    rows = data.reshape((-1,) + data.shape[ids.ndim:])
    out = [None] * num
    count = np.zeros(num, np.int64)
    for j, i in enumerate(ids.ravel()):
        if i < 0:
            continue
        count[i] += 1
        op = _REDUCE["sum" if kind == "mean" else kind]
        out[i] = rows[j].copy() if out[i] is None else op(out[i], rows[j])
    empty = {"sum": 0, "mean": 0, "prod": 1}
    if not sorted_ids:
        if np.issubdtype(data.dtype, np.floating):
            lim = np.finfo(data.dtype)
        else:
            lim = np.iinfo(data.dtype)
        empty.update(max=lim.min, min=lim.max)
    result = np.stack([np.full(rows.shape[1:], empty.get(kind, 0), data.dtype) if o is None else o for o in out])
    if kind == "mean":
        n = np.maximum(count, 1).reshape((-1,) + (1,) * (result.ndim - 1))
        # integer means truncate toward zero (C++ division), as TF's: [-1, 0] -> 0
        result = np.trunc(result / n) if np.issubdtype(data.dtype, np.integer) else result / n
    return result.astype(data.dtype)


@pytest.mark.parametrize("kind", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.float16])
def test_segment_ops_match_numpy(kind, dtype):
    rng = np.random.default_rng(0)
    data = rng.integers(-4, 5, (7, 3)).astype(dtype)
    ids = np.array([0, 0, 2, 2, 2, 5, 5], np.int64)
    got = getattr(tf.math, "segment_" + kind)(data, ids)
    assert got.dtype == tf.as_dtype(dtype) and got.shape == (6, 3)
    np.testing.assert_allclose(got.numpy(), np_segment(kind, data, ids, 6, True), rtol=1e-3)


@pytest.mark.parametrize("kind", ["sum", "mean"])
@pytest.mark.parametrize("ids_dtype", [np.int32, np.int64])
def test_sorted_segment_sums_over_threads_and_shapes(kind, ids_dtype):
    # Many segments (split across threads), empty ones, rows of one element and of many, exactly as
    # the sequential sum in T that TF computes (integers: exact).
    rng = np.random.default_rng(2)
    ids = np.sort(rng.integers(0, 3000, 70_000)).astype(ids_dtype)
    for shape in [(70_000,), (70_000, 3)]:
        data = rng.integers(-50, 50, shape).astype(np.int64)
        got = getattr(tf.math, "segment_" + kind)(data, ids).numpy()
        np.testing.assert_array_equal(got, np_segment(kind, data, ids, ids[-1] + 1, True))
    # Floats: each segment summed in order (scalar segments run four at a time), bit for bit.
    data = rng.standard_normal(70_000).astype(np.float32) * np.float32(1e3) ** rng.integers(-3, 4, 70_000)
    got = getattr(tf.math, "segment_" + kind)(data, ids).numpy()
    np.testing.assert_array_equal(got, np_segment(kind, data, ids, ids[-1] + 1, True))
    # No rows to sum: ids up to 2^40 allocate nothing, as TF's.
    assert getattr(tf.math, "segment_" + kind)(tf.zeros([3, 0]), np.array([0, 0, 2**40])).shape == [2**40 + 1, 0]


@pytest.mark.parametrize("kind", ["sum", "max", "min", "prod"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.int64])
def test_unsorted_segment_ops_match_numpy(kind, dtype):
    rng = np.random.default_rng(1)
    data = rng.integers(0, 5, (2, 5, 2)).astype(dtype)
    ids = np.array([[0, 3, -1, 3, 1], [1, 0, 0, -1, 3]], np.int32)
    got = getattr(tf.math, "unsorted_segment_" + kind)(data, ids, 5)
    np.testing.assert_array_equal(got.numpy(), np_segment(kind, data, ids, 5, False))


@pytest.mark.parametrize("kind", ["max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
def test_unsorted_segment_max_min_at_scale(kind, dtype):
    # One element per row (a select per element, no branch), negative ids dropped, NaN never wins (TF's
    # reducer compares with > / <), empty segments the type's extreme.
    rng = np.random.default_rng(4)
    data = (rng.normal(size=20_000) * 100).astype(dtype)
    if dtype != np.int32:
        data[::97] = np.nan
    ids = rng.integers(-3, 300, 20_000).astype(np.int64)
    ids[ids == 7] = 8  # segment 7 stays empty
    ref = np.full(301, np.finfo(dtype).min if kind == "max" else np.finfo(dtype).max, dtype) \
        if dtype != np.int32 else np.full(301, np.iinfo(dtype).min if kind == "max" else np.iinfo(dtype).max, dtype)
    for v, i in zip(data, ids):
        if i >= 0 and ((v > ref[i]) if kind == "max" else (v < ref[i])):
            ref[i] = v
    got = getattr(tf.math, "unsorted_segment_" + kind)(data, ids, 301).numpy()
    np.testing.assert_array_equal(got, ref)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[5\] = 301 is out of range \[0, 301\)"):
        getattr(tf.math, "unsorted_segment_" + kind)(data[:10], np.array([0, 1, 2, 3, 4, 301, 400, 0, 0, 0]), 301)


def test_segment_results_as_tf():
    d = [[1., 2.], [3., 4.], [5., 6.]]
    assert tf.math.segment_sum(d, [0, 0, 2]).numpy().tolist() == [[4, 6], [0, 0], [5, 6]]
    assert tf.math.segment_prod(d, [0, 0, 2]).numpy().tolist() == [[3, 8], [1, 1], [5, 6]]
    assert tf.math.segment_max([1, 2, 3], [0, 0, 2]).numpy().tolist() == [2, 0, 3]
    assert tf.math.segment_mean([1, 2, 4], [0, 0, 2]).numpy().tolist() == [1, 0, 4]
    got = tf.math.unsorted_segment_max([1., 2., 3., 4.], [0, 2, 0, 2], 4)
    assert repr(got) == ("<tf.Tensor: shape=(4,), dtype=float32, numpy=\narray([ 3.0000000e+00, -3.4028235e+38,  "
                         "4.0000000e+00, -3.4028235e+38],\n      dtype=float32)>")
    assert tf.math.unsorted_segment_min([1, 2, 3, 4], [0, 2, 0, 2], 4).numpy().tolist() == [1, 2147483647, 2,
                                                                                           2147483647]
    assert tf.math.unsorted_segment_prod([1., 2., 3., 4.], [0, 2, 0, -1], 4).numpy().tolist() == [3, 1, 2, 1]
    assert tf.math.unsorted_segment_mean([1., 2., 3., 4.], [0, 2, 0, -1], 4).numpy().tolist() == [2, 0, 2, 0]
    mean_int = tf.math.unsorted_segment_mean([1, 2, 3, 4], [0, 2, 0, -1], 4)
    assert mean_int.dtype == tf.float64 and mean_int.numpy().tolist() == [2, 0, 2, 0]
    np.testing.assert_allclose(tf.math.unsorted_segment_sqrt_n([1., 2., 3., 4.], [0, 2, 0, -1], 4).numpy(),
                               [2.828427, 0, 2, 0], rtol=1e-6)
    np.testing.assert_allclose(
        tf.math.unsorted_segment_sqrt_n([[1., 2.], [3., 4.]], [[0, 1], [1, 0]], 3).numpy(), [3.535534, 3.535534, 0],
        rtol=1e-6)
    assert tf.math.unsorted_segment_sum(5., 0, 2).numpy().tolist() == [5, 0]
    # NaN never wins a max (TF's reducer compares with >)
    assert tf.math.segment_max([float("nan"), 2., 1.], [0, 0, 0]).numpy().tolist() == [2]


@pytest.mark.parametrize("call, message", [
    (lambda: tf.math.segment_sum([1., 2., 3.], [0, 2, 1]), "segment ids are not increasing"),
    (lambda: tf.math.segment_sum([1., 2.], [1, 0]), "segment ids are not increasing"),
    (lambda: tf.math.segment_sum([1., 2., 3.], [-1, 0, 1]),
     r"Segment id -1 out of range \[0, 2\), possibly because 'segment_ids' input is not sorted."),
    (lambda: tf.math.segment_sum([1., 2.], [-2, -1]), "segment ids must be >= 0"),
    (lambda: tf.math.segment_sum([1., 2., 3.], [0, 1]), "segment_ids should be the same size as dimension 0 of"),
    (lambda: tf.math.segment_sum([1., 2., 3.], [[0, 1, 1]]), "segment_ids should be a vector."),
    (lambda: tf.math.segment_sum(1., [0]), "input must be at least rank 1"),
    (lambda: tf.math.unsorted_segment_max([1., 2.], [0, 5], 4), r"segment_ids\[1\] = 5 is out of range \[0, 4\)"),
    (lambda: tf.math.unsorted_segment_max([1., 2.], [0, 1], -1), "Input num_segments == -1 must not be negative."),
    (lambda: tf.math.unsorted_segment_sum(tf.ones([2, 3]), [[0, 1, 1]], 2),
     r"data.shape = \[2,3\] does not start with segment_ids.shape = \[1,3\]"),
    (lambda: tf.math.unsorted_segment_sum(tf.ones([2, 3]), [[0, 1, 1]], [2]),
     r"num_segments should be a scalar, not shape \[1\]"),
    (lambda: tf.math.segment_max(tf.constant([1., 2.]), tf.constant([0, 1], tf.int16)),
     "Value for attr 'Tindices' of int16 is not in the list of allowed values: int32, int64"),
    (lambda: tf.math.segment_max(tf.constant([1j, 2]), [0, 1]),
     "Value for attr 'T' of complex128 is not in the list of allowed values: float, double, int32, uint8, int16, int8, "
     "int64, bfloat16, uint16, half, uint32, uint64"),
])
def test_segment_errors_as_tf(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()


@pytest.mark.parametrize("at", [1, 32_767, 32_768, 65_536, 100_000, 199_999])
def test_segment_ids_decreasing_anywhere(at):
    # The sortedness check runs over chunks in parallel: a step down at any place, chunk edges included.
    ids = np.arange(200_000, dtype=np.int64) // 7
    ids[at] = ids[at - 1] - 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        tf.math.segment_sum(tf.ones([200_000]), ids)


def np_tensor_scatter(kind, tensor, indices, updates):
    out = tensor.copy()
    k = indices.shape[-1]
    flat_idx = indices.reshape(-1, k)
    flat_upd = updates.reshape((flat_idx.shape[0],) + tensor.shape[k:])
    for i, u in zip(flat_idx, flat_upd):
        where = tuple(i)
        if kind == "update":
            out[where] = u
        elif kind == "add":
            out[where] += u
        elif kind == "sub":
            out[where] -= u
        elif kind == "min":
            out[where] = np.minimum(out[where], u)
        else:
            out[where] = np.maximum(out[where], u)
    return out


@pytest.mark.parametrize("kind", ["update", "add", "sub", "min", "max"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.float16, np.int64])
def test_tensor_scatter_matches_numpy(kind, dtype):
    rng = np.random.default_rng(2)
    tensor = rng.integers(0, 50, (4, 3, 2)).astype(dtype)
    fn = getattr(tf, "tensor_scatter_nd_" + kind)
    for indices, upd_shape in [(np.array([[1], [3], [1]]), (3, 3, 2)), (np.array([[0, 2], [3, 1], [0, 2]]), (3, 2)),
                               (np.array([[[2, 1, 0]], [[0, 0, 1]]]), (2, 1))]:
        updates = rng.integers(0, 50, upd_shape).astype(dtype)
        got = fn(tensor, indices, updates)
        with np.errstate(over="ignore"):  # uint8 wraps, as TF's
            want = np_tensor_scatter(kind, tensor, indices, updates)
        np.testing.assert_array_equal(got.numpy(), want)


def test_tensor_scatter_as_tf():
    t = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    assert repr(tf.tensor_scatter_nd_update(t, [[0, 1], [2, 0]], [10., 20.])) == (
        "<tf.Tensor: shape=(3, 2), dtype=float32, numpy=\narray([[ 1., 10.],\n       [ 3.,  4.],\n       [20.,  6.]], "
        "dtype=float32)>")
    assert tf.tensor_scatter_nd_update(t, [[0, 1], [0, 1]], [10., 20.]).numpy()[0, 1] == 20  # in order
    assert tf.tensor_scatter_nd_add(t, [[0, 1], [0, 1]], [10., 20.]).numpy()[0, 1] == 32
    assert tf.tensor_scatter_nd_update(["a", "b"], [[1]], ["c"]).numpy().tolist() == [b"a", b"c"]
    assert tf.tensor_scatter_nd_update(t, [[0, 1]], [10]).numpy()[0, 1] == 10  # converted to t's dtype
    assert tf.tensor_scatter_nd_update(t, tf.zeros([0, 2], tf.int32), tf.zeros([0])).numpy().tolist() == t.numpy(
    ).tolist()
    # NaN updates never win a min or max
    assert tf.tensor_scatter_nd_min(t, [[2, 1], [1, 0]], [float("nan"), 2.]).numpy().tolist() == [[1, 2], [2, 4],
                                                                                                  [5, 6]]


@pytest.mark.parametrize("call, error, message", [
    (lambda t: tf.tensor_scatter_nd_update(t, [[3, 1]], [10.]), tf.errors.InvalidArgumentError,
     r"indices\[0\] = \[3, 1\] does not index into shape \[3,2\]"),
    (lambda t: tf.tensor_scatter_nd_max(t, [[2, 1], [-1, 0]], [1., 2.]), tf.errors.InvalidArgumentError,
     r"indices\[1\] = \[-1, 0\] does not index into shape \[3,2\]"),
    (lambda t: tf.tensor_scatter_nd_update(t, [[0, 1]], [10., 20.]), tf.errors.InvalidArgumentError,
     r"Outer dimensions of indices and update must match. Indices shape: \[1,2\], updates shape:\[2\]"),
    (lambda t: tf.tensor_scatter_nd_update(t, [[0, 1, 1]], [10.]), tf.errors.InvalidArgumentError,
     r"Inner dimensions of output shape must match inner dimensions of updates shape. Output: \[3,2\] updates: \[1\]"),
    (lambda t: tf.tensor_scatter_nd_update(t, [[0], [1]], [[1., 1., 1.], [2., 2., 2.]]), tf.errors.InvalidArgumentError,
     r"The inner 1 dimensions of output.shape=\[3,2\] must match the inner 1 dimensions of updates.shape=\[2,3\]"),
    (lambda t: tf.tensor_scatter_nd_update([5.], 0, [1.]), tf.errors.InvalidArgumentError,
     r"Indices shape must have rank at least one. Found:\[\]"),
    (lambda t: tf.tensor_scatter_nd_update([5.], [0], 1.), tf.errors.InvalidArgumentError,
     r"Updates shape must have rank at least one. Found:\[\]"),
    (lambda t: tf.tensor_scatter_nd_update(tf.zeros([0]), [[0]], [1.]), tf.errors.InvalidArgumentError,
     "Indices and updates specified for empty output shape"),
    (lambda t: tf.tensor_scatter_nd_add(["a", "b"], [[1]], ["c"]), tf.errors.NotFoundError,
     "Could not find device for node"),
    (lambda t: tf.tensor_scatter_nd_update([1, 2], tf.constant([[1]], tf.int16), [3]), tf.errors.NotFoundError,
     "Could not find device for node"),
    (lambda t: tf.tensor_scatter_nd_add([1, 2], tf.constant([[1]], tf.int16), [3]), tf.errors.InvalidArgumentError,
     "Value for attr 'Tindices' of int16 is not in the list of allowed values: int32, int64"),
])
def test_tensor_scatter_errors_as_tf(call, error, message):
    with pytest.raises(error, match=message):
        call(tf.constant([[1., 2.], [3., 4.], [5., 6.]]))


# Gradients: TF 2.21's values for the same expressions.
_W = [[1., 2., 3.], [4., 5., 6.]]
_GRADIENT_CASES = [
    (lambda x: tf.reduce_sum(tf.math.segment_max(x, [0, 0]) * [1., 2., 3.]), [[1, 0, 3], [0, 2, 0]]),
    (lambda x: tf.reduce_sum(tf.math.unsorted_segment_prod(tf.transpose(x), [1, 0, 1], 2) * [[1., 2.], [3., 4.]]),
     [[6, 1, 9], [-4, 2, 2]]),
    (lambda x: tf.reduce_sum(tf.tensor_scatter_nd_update(x, [[0, 1], [1, 2]], [7., 8.]) * _W), [[1, 0, 3], [4, 5, 0]]),
    (lambda x: tf.reduce_sum(tf.tensor_scatter_nd_max(x, [[0, 1], [1, 2]], [7., -8.]) * _W), [[1, 0, 3], [4, 5, 6]]),
    (lambda x: tf.reduce_sum(tf.math.unsorted_segment_mean(x, [1, 1], 3) * [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]),
     [[2, 2.5, 3], [2, 2.5, 3]]),
    (lambda x: tf.reduce_sum(tf.math.unsorted_segment_sqrt_n(tf.reshape(x, [-1]), [0, 1, 1, 0, 2, 1], 3) * [1., 2., 3.]),
     [[0.70710677, 1.1547005, 1.1547005], [0.70710677, 3.0, 1.1547005]]),
]


@pytest.mark.parametrize("case", range(len(_GRADIENT_CASES)))
def test_gradients_as_tf(case):
    fn, want = _GRADIENT_CASES[case]
    x = tf.constant([[3., 1., 2.], [0.5, 4., -1.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), want, rtol=1e-6)

    @tf.function
    def traced(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return tape.gradient(y, x)

    np.testing.assert_allclose(traced(x).numpy(), want, rtol=1e-6)


def test_segment_ops_in_function_shapes():
    traced_shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([None], tf.int32)])
    def f(data, ids):
        s = tf.math.segment_sum(data, ids)
        u = tf.math.unsorted_segment_max(data, ids, 4)
        traced_shapes.extend([s.shape.as_list(), u.shape.as_list()])
        return s, u

    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    s, u = f(data, np.int32([0, 0, 1, 3]))
    assert traced_shapes == [[None, 3], [4, 3]]  # TF's static shapes
    np.testing.assert_array_equal(s.numpy(), np_segment("sum", data, np.int32([0, 0, 1, 3]), 4, True))
    np.testing.assert_array_equal(u.numpy(), np_segment("max", data, np.int32([0, 0, 1, 3]), 4, False))


def test_graph_build_errors_as_tf():
    spec = tf.TensorSpec
    with pytest.raises(ValueError, match=r"Shape must be rank 1 but is rank 2 for '\{\{node SegmentSum\}\}"):
        tf.function(lambda d, i: tf.math.segment_sum(d, i),
                    input_signature=[spec([3, 2]), spec([1, 3], tf.int32)]).get_concrete_function()
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4 for '{{node UnsortedSegmentMax}}"):
        tf.function(lambda d, i: tf.math.unsorted_segment_max(d, i, 5),
                    input_signature=[spec([3, 2]), spec([4], tf.int32)]).get_concrete_function()
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0 for '{{node TensorScatterUpdate}}"):
        tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u),
                    input_signature=[spec([3, 2]), spec([], tf.int32), spec([None])]).get_concrete_function()


@pytest.mark.parametrize("build, message", [
    (lambda s: tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u), input_signature=[
        s([3, 2]), s([1, 2], tf.int32), s([2])]),
     r"Dimensions \[0,1\) of indices\[shape=\[1,2\]\] = \[1\] must match dimensions \[0,1\) of updates\[shape=\[2\]\] = "
     r"\[2\]: Dimension 0 in both shapes must be equal, but are 1 and 2. Shapes are \[1\] and \[2\]. for "
     r"'\{\{node TensorScatterUpdate\}\}"),
    (lambda s: tf.function(lambda t, i, u: tf.tensor_scatter_nd_add(t, i, u), input_signature=[
        s([3, 2]), s([2, 1], tf.int32), s([2, 3])]),
     r"Dimensions \[1,2\) of input\[shape=\[3,2\]\] = \[2\] must match dimensions \[1,2\) of updates\[shape=\[2,3\]\] = "
     r"\[3\]: Dimension 0 in both shapes must be equal, but are 2 and 3."),
    (lambda s: tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u), input_signature=[
        s([3, 2]), s([2, 1], tf.int32), s([2])]),
     r"of updates\[shape=\[2\]\] = \[\]: Shapes must be equal rank, but are 1 and 0"),
    (lambda s: tf.function(lambda i, u: tf.scatter_nd(i, u, [3, 2]), input_signature=[s([1, 2], tf.int32), s([2])]),
     r"Dimensions \[0,1\) of indices\[shape=\[1,2\]\] = \[1\] must match .* for '\{\{node ScatterNd\}\}"),
])
def test_scatter_shape_inference_errors_as_tf(build, message):
    with pytest.raises(ValueError, match=message):
        build(tf.TensorSpec).get_concrete_function()
    # unknown dims merge with anything (TF: no error at build)
    f = tf.function(lambda t, i, u: tf.tensor_scatter_nd_update(t, i, u), input_signature=[
        tf.TensorSpec([3, 2]), tf.TensorSpec([None, 1], tf.int32), tf.TensorSpec([None, 2])])
    assert f.get_concrete_function().structured_outputs.shape == (3, 2)
