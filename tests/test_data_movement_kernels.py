"""ConcatV2, Pack, GatherV2, ArgMax/ArgMin and the long reductions against NumPy over many shapes, dtypes
and axes, and their threaded paths against one thread (results must not depend on the thread count)."""
import functools

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.int16, np.float16, np.bool_, np.complex64]


def sample(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 100, shape).astype(dtype)
    if dtype == np.complex64:
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def threads(request):
    tf.config.threading.set_intra_op_parallelism_threads(request.param)
    yield request.param
    tf.config.threading.set_intra_op_parallelism_threads(0)


def run_threads(fn):
    """fn() with one thread and with two: the results as NumPy arrays."""
    out = []
    for n in (1, 2):
        tf.config.threading.set_intra_op_parallelism_threads(n)
        try:
            out.append(np.asarray(fn()))
        finally:
            tf.config.threading.set_intra_op_parallelism_threads(0)
    return out


CONCAT_CASES = [  # (shapes, axis)
    ([(10,)] * 100, 0),
    ([(1,), (1,)], 0),
    ([(0,), (3,), (0,), (2,)], 0),
    ([(2, 0), (2, 1), (2, 0)], 1),
    ([(0, 3), (0, 3)], 0),
    ([(0, 3), (0, 3)], 1),
    ([(3, 4), (3, 1), (3, 7)], 1),
    ([(3, 4), (3, 1), (3, 7)], -1),
    ([(2, 3, 4), (2, 5, 4)], 1),
    ([(2, 3, 4), (1, 3, 4), (4, 3, 4)], 0),
    ([(2, 3, 1), (2, 3, 2)], 2),
    ([(100, 100)] * 10, 1),
    ([(300, 500), (300, 3), (300, 700)], 1),  # large: split across threads inside rows
    ([(70000,), (1,), (90000,)], 0),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shapes,axis", CONCAT_CASES)
def test_concat_matches_numpy(shapes, axis, dtype, threads):
    xs = [sample(s, dtype, i) for i, s in enumerate(shapes)]
    got = tf.concat([tf.constant(x) for x in xs], axis)
    np.testing.assert_array_equal(got.numpy(), np.concatenate(xs, axis))


@pytest.mark.parametrize("shape,axis,count", [((3,), 0, 4), ((3,), 1, 4), ((2, 3), 1, 5), ((0, 2), 1, 3),
                                              ((2, 3), 2, 2), ((), 0, 6), ((400, 300), 1, 3), ((10,), -1, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_])
def test_stack_matches_numpy(shape, axis, count, dtype, threads):
    xs = [sample(shape, dtype, i) for i in range(count)]
    np.testing.assert_array_equal(tf.stack([tf.constant(x) for x in xs], axis).numpy(), np.stack(xs, axis))


def test_concat_and_stack_of_strings(threads):
    a, b = np.array([[b"a", b"bc"], [b"", b"d"]], object), np.array([[b"e"], [b"fgh"]], object)
    assert tf.concat([a, b], 1).numpy().tolist() == np.concatenate([a, b], 1).tolist()
    assert tf.stack([a, a], 1).numpy().tolist() == np.stack([a, a], 1).tolist()


def test_concat_and_stack_convert_mixed_lists_and_iterate_tensors():
    # A tensor given as the list is iterated row by row; its rows are fresh objects each time.
    x = np.arange(6.0).reshape(2, 3)
    for _ in range(50):
        np.testing.assert_array_equal(tf.stack(tf.constant(x)).numpy(), x)
    np.testing.assert_array_equal(tf.concat(([1.0], tf.constant([2.5], tf.float32), np.float32([3])), 0).numpy(),
                                  np.float32([1, 2.5, 3]))  # the first tensor's dtype is the hint
    assert tf.stack([1, tf.constant(2, tf.int64)]).dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a float tensor"):
        tf.stack([tf.constant(1), tf.constant(2.0)])


GATHER_CASES = [  # (params shape, indices shape, axis, batch_dims)
    ((10,), (4,), 0, 0),
    ((1,), (1,), 0, 0),
    ((1_000_000,), (100_000,), 0, 0),  # many rows: split across threads
    ((5, 3), (2, 3), 0, 0),
    ((5, 3), (7,), 1, 0),
    ((4, 5, 6), (3,), 1, 0),
    ((4, 5, 6), (2, 2), 2, 0),
    ((4, 5, 6), (4, 3), 1, 1),
    ((4, 5, 6), (4, 5, 2), 2, 2),
    ((4, 5, 6), (4, 7), 2, 1),
    ((300, 400), (500,), 0, 0),
    ((3, 0), (2,), 0, 0),
    ((3, 4), (0,), 0, 0),
]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64, np.int16])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.float16, np.bool_, np.complex64])
@pytest.mark.parametrize("pshape,ishape,axis,batch_dims", GATHER_CASES)
def test_gather_matches_numpy(pshape, ishape, axis, batch_dims, dtype, index_dtype, threads):
    params = sample(pshape, dtype, 1)
    n = pshape[axis]
    if index_dtype == np.int16 and n > 30000:
        pytest.skip("int16 indices cannot address this axis")
    idx = np.random.default_rng(2).integers(0, max(n, 1), ishape).astype(index_dtype)
    got = tf.gather(tf.constant(params), tf.constant(idx), axis=axis, batch_dims=batch_dims).numpy()
    if batch_dims == 0:
        want = np.take(params, idx, axis=axis)
    else:  # one take per batch element
        lead = pshape[:batch_dims]
        want = np.stack([np.take(params[b], idx[b], axis=axis - batch_dims) for b in np.ndindex(*lead)])
        want = want.reshape(lead + want.shape[1:])
    np.testing.assert_array_equal(got, want)


def test_gather_of_strings(threads):
    p = np.array([b"x", b"yy", b"", b"zzz"], object)
    assert tf.gather(p, [3, 0, 0, 2]).numpy().tolist() == [b"zzz", b"x", b"x", b""]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
def test_gather_out_of_range_is_tf_error(index_dtype, threads):
    def check(params, indices, message, **kw):
        with pytest.raises(tf.errors.InvalidArgumentError, match=message.replace("[", r"\[").replace(")", r"\)")):
            tf.gather(params, tf.constant(np.array(indices, index_dtype)), **kw)
    check([1., 2., 3.], [0, 5], "indices[1] = 5 is not in [0, 3)")
    check([1., 2., 3.], [[0, 1], [-1, 2]], "indices[1,0] = -1 is not in [0, 3)")
    check([[1., 2.], [3., 4.]], [0, 7], "indices[1] = 7 is not in [0, 2)", axis=1)
    check(np.zeros(0, np.float32), [0], "indices[0] = 0 is not in [0, 0)")
    check(np.zeros((2, 3), np.float32), [[5], [1]], "indices[0,0] = 5 is not in [0, 3)", axis=1, batch_dims=1)
    check(np.zeros((2, 3), np.float32), [[1], [3]], "indices[1,0] = 3 is not in [0, 3)", axis=1, batch_dims=1)
    # The first bad index in order is reported, wherever the threads split the work.
    idx = np.zeros(200_000, index_dtype)
    idx[150_000], idx[190_000], idx[199_999] = 10**6, -3, 10**6 + 1
    check(np.zeros(10**6, np.float32), idx, "indices[150000] = 1000000 is not in [0, 1000000)")
    idx[20] = -1
    check(np.zeros(10**6, np.float32), idx, "indices[20] = -1 is not in [0, 1000000)")


def test_gather_skips_the_index_check_when_nothing_is_copied():
    # TF checks indices only while copying slices: an empty slice or outer size copies nothing.
    assert tf.gather(tf.zeros([2, 0]), [5]).shape == (1, 0)
    assert tf.gather(tf.zeros([0, 3]), [7], axis=1).shape == (0, 1)


ARG_SHAPES = [((1,), 0), ((7,), 0), ((63,), 0), ((64,), 0), ((65,), 0), ((129,), 0), ((257,), 0), ((1000, 1000), 1),
              ((1000, 1000), 0), ((3, 4099), 1), ((3, 4099), -1), ((5, 300, 7), 1), ((2, 3, 70), 2)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8, np.float16, np.int16])
@pytest.mark.parametrize("shape,axis", ARG_SHAPES)
def test_argmax_argmin_match_numpy(shape, axis, dtype, threads):
    x = sample(shape, dtype, 3)
    if np.issubdtype(dtype, np.integer):
        x = (x % 7).astype(dtype)  # many ties: the first index must win
    for tf_fn, np_fn in ((tf.argmax, np.argmax), (tf.argmin, np.argmin)):
        for out in (tf.int64, tf.int32):
            got = tf_fn(x, axis, output_type=out)
            assert got.dtype == out
            np.testing.assert_array_equal(got.numpy(), np_fn(x, axis))


@pytest.mark.parametrize("n", [64, 100, 1000, 4099])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_argmax_ties_nan_and_infinities(n, dtype):
    for pos in (0, 1, n // 2, n - 1):
        x = np.zeros(n, dtype)
        x[pos] = 5
        x[-1 if pos != n - 1 else 0] = 5  # a tie later (or earlier) in the row
        assert int(tf.argmax(x, 0)) == min(pos, n - 1 if pos != n - 1 else 0)
        x = np.full(n, np.nan, dtype)
        x[pos] = -1
        assert int(tf.argmax(x, 0)) == pos and int(tf.argmin(x, 0)) == pos  # NaN never wins
    assert int(tf.argmax(np.full(n, -np.inf, dtype), 0)) == 0
    assert int(tf.argmin(np.full(n, np.inf, dtype), 0)) == 0
    assert int(tf.argmax(np.full(n, np.nan, dtype), 0)) == 0


REDUCE_CASES = [  # (shape, axis): long rows and tall columns are cut into blocks of a fixed size
    ((10_000_000,), None),
    ((300_001,), 0),
    ((131_072,), None),
    ((131_071,), 0),
    ((3, 200_003), 1),
    ((200_003, 3), 0),
    ((70_000, 5), 0),
    ((90_000, 300), 0),
    ((2, 50_000, 3), 1),
    ((1000, 1000), 1),
    ((1000, 1000), 0),
    ((0,), None),
    ((1,), None),
]


@pytest.mark.parametrize("shape,axis", REDUCE_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_long_reductions_match_numpy_and_ignore_thread_count(shape, axis, dtype):
    x = sample(shape, dtype, 4)
    if np.issubdtype(dtype, np.integer):
        x = x - 50
    for tf_fn, np_fn in ((tf.reduce_sum, np.sum), (tf.reduce_max, np.max), (tf.reduce_min, np.min),
                         (tf.reduce_mean, np.mean)):
        if x.size == 0 and np_fn in (np.max, np.min, np.mean):
            continue
        one, two = run_threads(lambda: tf_fn(x, axis))
        np.testing.assert_array_equal(one, two)  # bit for bit
        want = np_fn(x.astype(np.float64) if x.dtype.kind == "f" else x, axis)
        if np_fn is np.mean and x.dtype.kind != "f":
            want = np.trunc(np.sum(x, axis, dtype=np.int64) / (x.size // max(np.size(want), 1))).astype(x.dtype)
        tol = 1e-4 if dtype == np.float32 else 1e-10
        np.testing.assert_allclose(one, want, rtol=tol, atol=tol * np.sqrt(x.size))


def test_large_elementwise_ops_ignore_thread_count():
    a, b = sample((3_000_001,), np.float32, 5), sample((3_000_001,), np.float32, 6)
    for fn in (lambda: tf.add(a, b), lambda: tf.exp(a) * b, lambda: tf.concat([a, b], 0),
               lambda: tf.gather(a, np.arange(0, 3_000_001, 7))):
        one, two = run_threads(fn)
        np.testing.assert_array_equal(one, two)
    np.testing.assert_array_equal(run_threads(lambda: tf.add(a, b))[1], a + b)


def test_thread_setting_reaches_the_pool():
    tf.config.threading.set_intra_op_parallelism_threads(1)
    try:
        assert _core.num_threads() == 1
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)


def _strings_or_sample(n, dtype):
    """n elements of dtype, or n distinct strings for `object`."""
    return np.array([str(v) for v in range(n)], dtype=object) if dtype is object else sample((n,), dtype)


def _same_bytes(got, want, dtype):
    got = got.numpy()
    if dtype is object:
        assert [v.decode() for v in got.ravel()] == list(want.ravel())
    else:
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


@pytest.mark.parametrize("dtype", DTYPES + [object])
def test_reversals_strides_and_broadcasts_match_numpy(threads, dtype):
    # The strided copies' fixed-stride loops: a reversal (-1), every other element (2), a broadcast
    # element (0), over rows long enough to split across threads and short tails.
    x = _strings_or_sample(70_001, dtype)
    t = tf.constant(x)
    same = functools.partial(_same_bytes, dtype=dtype)
    same(tf.reverse(t, [0]), x[::-1])
    same(t[::2], x[::2])
    same(t[::-2], x[::-2])
    same(t[5:17:2], x[5:17:2])
    m = x[:70_000].reshape(350, 200)
    tm = tf.constant(m)
    same(tf.reverse(tm, [1]), m[:, ::-1])
    same(tf.reverse(tm, [0, 1]), m[::-1, ::-1])
    same(tm[:, 1::2], m[:, 1::2])
    same(tf.broadcast_to(tm[:, :1], [350, 200]), np.broadcast_to(m[:, :1], (350, 200)))
    same(tf.tile(tm[:3, :1], [2, 7]), np.tile(m[:3, :1], (2, 7)))


@pytest.mark.parametrize("dtype", DTYPES + [object])
def test_short_rows_match_numpy(threads, dtype):
    # Rows of 2..8 elements into packed rows (unrolled per width): a column broadcast or tiled across
    # a few columns, tf.repeat, every other column of a narrow matrix; 9 and 1 take the general loops.
    x = _strings_or_sample(200_000, dtype)
    t = tf.constant(x)
    same = functools.partial(_same_bytes, dtype=dtype)
    col = x[:40_000].reshape(-1, 1)
    tcol = tf.constant(col)
    for k in range(1, 10):
        same(tf.broadcast_to(tcol, [40_000, k]), np.broadcast_to(col, (40_000, k)))
        same(tf.tile(tcol, [1, k]), np.tile(col, (1, k)))
        same(tf.repeat(t[:30_001], k), np.repeat(x[:30_001], k))
        wide = x[:200_000 // (2 * k) * (2 * k)].reshape(-1, 2 * k)
        same(tf.constant(wide)[:, ::2], wide[:, ::2])
        same(tf.constant(wide)[:, :k], wide[:, :k])
        same(tf.constant(wide)[1::3, 1:k + 1], wide[1::3, 1:k + 1])
