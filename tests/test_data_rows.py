"""Pipelines over from_tensor_slices pass row numbers between shuffle, take, skip, repeat and batch
instead of row tensors: checked against the same pipelines behind an identity map (which hides
the rows, so they run element by element) and against NumPy's gathering of the same rows."""
import numpy as np
import pytest

import eagerflow as tf

N = 37
X = np.arange(N * 6, dtype=np.float32).reshape(N, 2, 3)
Y = np.arange(N, dtype=np.int64)


def batches(ds):
    return [tf.nest.map_structure(lambda t: t.numpy(), b) for b in ds]


def assert_same(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        tf.nest.assert_same_structure(x, y)
        for u, v in zip(tf.nest.flatten(x), tf.nest.flatten(y)):
            assert u.dtype == v.dtype and u.shape == v.shape
            np.testing.assert_array_equal(u, v)


PIPELINES = {
    "shuffle_batch": lambda d: d.shuffle(10, seed=3).batch(4),
    "shuffle_all_batch_drop": lambda d: d.shuffle(N, seed=1).batch(5, drop_remainder=True),
    "batch": lambda d: d.batch(8),
    "batch_larger_than_data": lambda d: d.batch(100),
    "shuffle": lambda d: d.shuffle(7, seed=2),
    "repeat_shuffle_batch": lambda d: d.repeat(3).shuffle(50, seed=4).batch(16),
    "shuffle_repeat_batch": lambda d: d.shuffle(20, seed=5).repeat(2).batch(9),
    "skip_take_batch": lambda d: d.skip(3).take(20).shuffle(6, seed=6).batch(7),
    "take_nothing": lambda d: d.take(0).batch(2),
    "repeat_none": lambda d: d.repeat(0).shuffle(3, seed=1).batch(2),
    "skip_all": lambda d: d.skip(-1).batch(2),
    "unknown_buffer": lambda d: d.shuffle(tf.data.UNKNOWN_CARDINALITY, seed=8).batch(10),
    "prefetch": lambda d: d.shuffle(9, seed=9).batch(4).prefetch(2),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
@pytest.mark.parametrize("structure", ["tuple", "dict", "single"])
def test_rows_give_what_elements_give(name, structure):
    if structure == "tuple":
        rows, hidden = tf.data.Dataset.from_tensor_slices((X, Y)), lambda d: d.map(lambda x, y: (x, y))
    elif structure == "dict":
        rows, hidden = tf.data.Dataset.from_tensor_slices({"x": X, "y": Y}), lambda d: d.map(lambda e: e)
    else:
        rows, hidden = tf.data.Dataset.from_tensor_slices(X), lambda d: d.map(lambda x: x)
    make = PIPELINES[name]
    fast, slow = make(rows), make(hidden(rows))
    assert fast.element_spec == slow.element_spec
    assert fast.cardinality().numpy() == slow.cardinality().numpy()
    assert_same(batches(fast), batches(slow))
    assert_same(batches(fast), batches(slow))  # the second epoch reshuffles alike


def test_shuffled_batches_are_numpy_gathers_of_one_permutation():
    x = np.random.default_rng(0).standard_normal((1000, 5)).astype(np.float32)
    ds = tf.data.Dataset.from_tensor_slices({"x": x, "i": np.arange(1000)}).shuffle(300, seed=11).batch(64)
    for _ in range(2):
        got = batches(ds)
        assert [len(b["i"]) for b in got] == [64] * 15 + [40]  # the ragged last batch is kept
        order = np.concatenate([b["i"] for b in got])
        assert sorted(order.tolist()) == list(range(1000))  # every row once per epoch
        np.testing.assert_array_equal(np.concatenate([b["x"] for b in got]), x[order])


def test_order_is_repeatable_with_a_seed_and_reshuffled_each_epoch():
    make = lambda: tf.data.Dataset.from_tensor_slices(Y).shuffle(N, seed=42).batch(N)
    ds = make()
    first, second = batches(ds)[0], batches(ds)[0]
    assert not np.array_equal(first, second) and sorted(second.tolist()) == Y.tolist()
    np.testing.assert_array_equal(batches(make())[0], first)
    fixed = tf.data.Dataset.from_tensor_slices(Y).shuffle(N, seed=42, reshuffle_each_iteration=False).batch(N)
    np.testing.assert_array_equal(batches(fixed)[0], batches(fixed)[0])


@pytest.mark.parametrize("value", [
    np.array([b"a", b"bc", b"", b"def", b"g"]),
    np.array([[True, False], [False, False], [True, True], [False, True], [True, False]]),
    np.arange(5, dtype=np.int8),
    np.arange(10, dtype=np.float64).reshape(5, 2),
    np.zeros((5, 0), np.float32),
    np.arange(5 * 40, dtype=np.int32).reshape(5, 40),  # rows above the inline size
], ids=["string", "bool", "int8", "float64", "empty_rows", "wide_rows"])
def test_every_dtype_and_row_shape_batches_like_numpy(value):
    ds = tf.data.Dataset.from_tensor_slices((value, np.arange(5))).shuffle(5, seed=2).batch(2)
    got = batches(ds)
    assert [b[0].shape[0] for b in got] == [2, 2, 1]
    order = np.concatenate([b[1] for b in got])
    want = value[order]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in got]), want)
    assert got[0][0].dtype == (object if value.dtype.kind == "S" else value.dtype)  # TF's numpy() too


def test_rows_in_a_function_match_eager_iteration():
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(N, seed=7, reshuffle_each_iteration=False).batch(6)

    @tf.function
    def total(ds):
        s = tf.constant(0.0)
        n = tf.constant(0, tf.int64)
        for x, y in ds:
            s += tf.reduce_sum(x[:, 0, 0] * tf.cast(y, tf.float32))
            n += tf.shape(y, out_type=tf.int64)[0]
        return s, n

    s, n = total(ds)
    want = sum(float(np.sum(x[:, 0, 0] * y)) for x, y in batches(ds))
    assert n.numpy() == N and s.numpy() == pytest.approx(want)


def test_batches_outlive_the_dataset_and_its_source():
    x = np.arange(8 * 50, dtype=np.float32).reshape(8, 50)
    it = iter(tf.data.Dataset.from_tensor_slices(x).shuffle(8, seed=1).batch(3))
    first = next(it)
    rest = list(it)
    del it
    got = np.concatenate([first.numpy()] + [b.numpy() for b in rest])
    assert sorted(got[:, 0].tolist()) == x[:, 0].tolist()
    np.testing.assert_array_equal(got, x[(got[:, 0] // 50).astype(int)])


def test_unshuffled_batches_share_the_source_safely():
    # Consecutive rows are batched as a view of the source: ops that may reuse their input's
    # buffer must leave the source (and the next epoch) unchanged.
    x = np.arange(6 * 40, dtype=np.float32).reshape(6, 40)
    ds = tf.data.Dataset.from_tensor_slices(x).batch(4)
    out = [tf.nn.relu(tf.negative(b) * 2.0) + 1.0 for b in ds]
    np.testing.assert_array_equal(np.concatenate([o.numpy() for o in out]), np.maximum(-x * 2, 0) + 1)
    np.testing.assert_array_equal(np.concatenate(batches(ds)), x)
    it = iter(ds)
    first = next(it)
    del ds, it
    np.testing.assert_array_equal(first.numpy(), x[:4])
