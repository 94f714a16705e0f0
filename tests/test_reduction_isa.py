"""The float/double reduction leaves compiled per ISA (kernels/cpu/reduction_isa.h): in every variant
this CPU and build have, Sum, Prod and Mean follow the pairwise tree of reduction_leaves.h bit for bit
(a NumPy model of it below, one rounding per operation, in the input's dtype), rows and columns, and
Max/Min/ArgMax/ArgMin equal NumPy's."""
import numpy as np
import pytest

import eagerflow as tf

from _isa_variants import VARIANTS, isa, variant  # noqa: F401 (a fixture)

ROW_BLOCK = 1 << 16  # reduction_impl.h: kRowBlock
COL_TILE, FEW_UNITS = 256, 16  # kColTile, kFewUnits


def _tree(x, op):
    """The pairwise tree over the last axis of x: 8 accumulators up to 128 elements (their 8-element
    steps, combined as ((r0 r1)(r2 r3))((r4 r5)(r6 r7)), then the tail in order), halves cut at a
    multiple of 8 above, a loop below 8."""
    n = x.shape[-1]
    if n < 8:
        a = x[..., 0]
        for i in range(1, n):
            a = op(a, x[..., i])
        return a
    if n <= 128:
        steps = (n - 8) // 8
        r = x[..., :8]
        for k in range(1, steps + 1):
            r = op(r, x[..., 8 * k:8 * k + 8])
        c = [r[..., j] for j in range(8)]
        a = op(op(op(c[0], c[1]), op(c[2], c[3])), op(op(c[4], c[5]), op(c[6], c[7])))
        for i in range(8 + 8 * steps, n):
            a = op(a, x[..., i])
        return a
    h = n // 2
    h -= h % 8
    return op(_tree(x[..., :h], op), _tree(x[..., h:], op))


def _rows(x, op):
    """reduce over the last axis: rows of 2^17 elements or more are cut into 2^16-element blocks whose
    results are combined by the tree."""
    n = x.shape[-1]
    if n < 2 * ROW_BLOCK:
        return _tree(x, op)
    parts = [_tree(x[..., b:b + ROW_BLOCK], op) for b in range(0, n, ROW_BLOCK)]
    return _tree(np.stack(parts, -1), op)


def _col_tree(x, op):
    """Over axis 0, every column on its own: up to 128 rows in order, halves (R // 2) above."""
    R = x.shape[0]
    if R <= 128:
        a = x[0]
        for r in range(1, R):
            a = op(a, x[r])
        return a
    h = R // 2
    return op(_col_tree(x[:h], op), _col_tree(x[h:], op))


def _cols(x, op):
    """reduce over axis 0 of a [R, K2] array: few column tiles over many rows are cut into bands of
    rows whose results are combined by the tree."""
    R, K2 = x.shape
    band = max(128, ROW_BLOCK // min(K2, COL_TILE))
    if -(-K2 // COL_TILE) >= FEW_UNITS or R < 2 * band:
        return _col_tree(x, op)
    parts = [_col_tree(x[b:b + band], op) for b in range(0, R, band)]
    return _tree(np.stack(parts, -1), op)


# Odd lengths, the leaf and node edges, and a row long enough to be cut into blocks.
LENGTHS = (1, 3, 7, 8, 9, 15, 31, 65, 127, 128, 129, 255, 257, 520, 777, 1000, 1023, 1024, 1025, 2047, 2048,
           4139, 9001, 2 * ROW_BLOCK + 9)
DTYPES = (np.float32, np.float64)


def _sample(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_prod_mean_rows_follow_the_tree(variant, dtype):
    for n in LENGTHS:
        x = _sample(n, dtype, n)
        p = (1 + x / 256).astype(dtype)
        np.testing.assert_array_equal(tf.reduce_sum(x).numpy(), _rows(x, np.add), err_msg=f"sum {n}")
        np.testing.assert_array_equal(tf.reduce_prod(p).numpy(), _rows(p, np.multiply), err_msg=f"prod {n}")
        np.testing.assert_array_equal(tf.reduce_mean(x).numpy(), _rows(x, np.add) / dtype(n), err_msg=f"mean {n}")
        np.testing.assert_allclose(tf.reduce_sum(x).numpy(), np.sum(x), rtol=1e-5 if dtype == np.float32 else 1e-12,
                                   atol=1e-4 if dtype == np.float32 else 1e-10)
    for shape in ((37, 1000), (3, 1031), (1000, 129), (5, 7, 301)):
        x = _sample(shape, dtype, shape[-1])
        np.testing.assert_array_equal(tf.reduce_sum(x, axis=-1).numpy(), _rows(x, np.add))
        np.testing.assert_array_equal(tf.reduce_mean(x, axis=-1).numpy(), _rows(x, np.add) / dtype(shape[-1]))


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_prod_mean_columns_follow_the_tree(variant, dtype):
    # Tiles of 256 columns with tails of 1..L-1 lanes; tall columns cut into bands (50000 x 3).
    for shape in ((1000, 37), (129, 300), (257, 517), (2, 1000), (4000, 9), (50000, 3)):
        x = _sample(shape, dtype, shape[0])
        p = (1 + x / 256).astype(dtype)
        np.testing.assert_array_equal(tf.reduce_sum(x, axis=0).numpy(), _cols(x, np.add), err_msg=str(shape))
        np.testing.assert_array_equal(tf.reduce_prod(p, axis=0).numpy(), _cols(p, np.multiply), err_msg=str(shape))
        np.testing.assert_array_equal(tf.reduce_mean(x, axis=0).numpy(), _cols(x, np.add) / dtype(shape[0]))
    # [K1, R, K2]: the middle axis reduced as columns of each of K1 blocks.
    x = _sample((3, 300, 70), dtype, 1)
    want = np.stack([_cols(x[k], np.add) for k in range(3)])
    np.testing.assert_array_equal(tf.reduce_sum(x, axis=1).numpy(), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_min_match_numpy(variant, dtype):
    for n in LENGTHS:
        x = _sample(n, dtype, n)
        np.testing.assert_array_equal(tf.reduce_max(x).numpy(), np.max(x))
        np.testing.assert_array_equal(tf.reduce_min(x).numpy(), np.min(x))
        if n > 1:
            y = x.copy()
            y[n // 3] = np.nan
            assert np.isnan(tf.reduce_max(y).numpy()) and np.isnan(tf.reduce_min(y).numpy())
    for shape in ((37, 1000), (1000, 37), (129, 300), (50000, 3)):
        x = _sample(shape, dtype, shape[1])
        x[1, 2] = np.nan
        for axis in (0, 1):
            np.testing.assert_array_equal(tf.reduce_max(x, axis=axis).numpy(), np.max(x, axis=axis))
            np.testing.assert_array_equal(tf.reduce_min(x, axis=axis).numpy(), np.min(x, axis=axis))
    # Columns run one maxps/minps a vector and again with NaN-propagating ops where a NaN or an
    # infinity is in the leaf: NaN in the first, a middle and the last row of a leaf, infinities
    # alone, in every lane of a chunk; zeros of both signs (a tie takes the later row's).
    for r, c, v in ((0, 5, np.nan), (64, 130, np.nan), (127, 255, np.nan), (200, 7, np.inf), (3, 17, -np.inf)):
        x = _sample((300, 520), dtype, r)
        x[r, c] = v
        np.testing.assert_array_equal(tf.reduce_max(x, axis=0).numpy(), np.max(x, axis=0))
        np.testing.assert_array_equal(tf.reduce_min(x, axis=0).numpy(), np.min(x, axis=0))
    z = np.zeros((2, 512), dtype)
    z[0] = -0.0
    for got in (tf.reduce_max(z, axis=0), tf.reduce_min(z, axis=0)):
        assert not np.signbit(got.numpy()).any()
    for got in (tf.reduce_max(z[::-1], axis=0), tf.reduce_min(z[::-1], axis=0)):
        assert np.signbit(got.numpy()).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_argmax_argmin_match_numpy(variant, dtype):
    rng = np.random.default_rng(3)
    for n in (64, 65, 100, 127, 1000, 4099):
        x = rng.integers(-20, 20, size=(9, n)).astype(dtype)  # ties: the first index wins
        x[0] = 5
        x[1, -1] = 99
        np.testing.assert_array_equal(tf.argmax(x, 1).numpy(), np.argmax(x, 1))
        np.testing.assert_array_equal(tf.argmin(x, 1).numpy(), np.argmin(x, 1))
        # NaN never wins (TF's scan); NumPy's nanargmax skips it the same way.
        x[2, 3] = x[3, -1] = np.nan
        np.testing.assert_array_equal(tf.argmax(x, 1).numpy(), np.nanargmax(x, 1))
        np.testing.assert_array_equal(tf.argmin(x, 1).numpy(), np.nanargmin(x, 1))
    assert tf.argmax(np.full([2, 100], np.nan, dtype), 1).numpy().tolist() == [0, 0]
    assert tf.argmax(np.full([100], -np.inf, dtype), 0).numpy() == 0


def test_variants_agree_bitwise():
    x = _sample(300_017, np.float32, 9)
    m = _sample((700, 300), np.float64, 10)
    want = None
    for name in VARIANTS:
        with isa(name):
            got = [tf.reduce_sum(x).numpy(), tf.reduce_prod(1 + x / 1e4).numpy(), tf.reduce_mean(m, 0).numpy(),
                   tf.reduce_sum(m, 1).numpy(), tf.argmax(m, 1).numpy(), tf.reduce_max(x).numpy()]
        if want is None:
            want = got
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w, err_msg=name)
