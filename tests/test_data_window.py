"""Dataset.window (a dataset of datasets; the flat_map(lambda w: w.batch(n)) idiom) and interleave
with num_parallel_calls (worker threads, interleave's order). Expected values from TF 2.21."""
import threading

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


def windows(ds):
    return [[int(v) for v in w] for w in ds]


def test_window_elements_are_datasets():
    ds = tf.data.Dataset.range(7).window(3)
    assert repr(ds) == ("<_WindowDataset element_spec=DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                        "TensorShape([]))>")
    assert int(ds.cardinality()) == 3
    ws = list(ds)
    assert repr(ws[0]) == "<_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert [values(w) for w in ws] == [[0, 1, 2], [3, 4, 5], [6]]


@pytest.mark.parametrize("n,size,shift,stride,drop", [
    (7, 3, None, 1, False), (7, 3, 2, 2, False), (7, 3, None, 1, True), (7, 3, 2, 1, False), (7, 3, 2, 1, True),
    (7, 3, 1, 1, True), (10, 2, 5, 3, False), (3, 5, 1, 1, True), (3, 5, 1, 1, False), (0, 2, 1, 1, False),
    (9, 4, 3, 2, True), (9, 1, 1, 1, False)])
def test_window_matches_numpy_slicing(n, size, shift, stride, drop):
    ds = tf.data.Dataset.range(n).window(size, shift=shift, stride=stride, drop_remainder=drop)
    shift = size if shift is None else shift
    expected = [list(range(n))[s:s + (size - 1) * stride + 1:stride] for s in range(0, n, shift)]
    if drop:
        expected = [w for w in expected if len(w) == size]
    assert windows(ds) == expected
    assert int(ds.cardinality()) == len(expected)


def test_window_flat_map_batch_idiom():
    ds = tf.data.Dataset.range(7).window(3, shift=1, drop_remainder=True).flat_map(lambda w: w.batch(3))
    assert [v.tolist() for v in values(ds)] == [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]]
    x = np.arange(20, dtype=np.float32).reshape(10, 2)
    seq = tf.data.Dataset.from_tensor_slices(x).window(4, shift=2, drop_remainder=True).flat_map(
        lambda w: w.batch(4, drop_remainder=True))
    assert seq.element_spec.shape.as_list() == [4, 2]
    got = values(seq)
    np.testing.assert_array_equal(np.stack(got), np.stack([x[s:s + 4] for s in range(0, 7, 2)]))


def test_window_of_structures():
    ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3]}, [4.0, 5.0, 6.0])).window(2)
    assert repr(ds.element_spec) == ("({'a': DatasetSpec(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "TensorShape([]))}, DatasetSpec(TensorSpec(shape=(), dtype=tf.float32, "
                                     "name=None), TensorShape([])))")
    zipped = ds.flat_map(lambda a, b: tf.data.Dataset.zip((a["a"].batch(2), b.batch(2))))
    got = values(zipped)
    assert [g[0].tolist() for g in got] == [[1, 2], [3]]
    assert [g[1].tolist() for g in got] == [[4.0, 5.0], [6.0]]


def test_window_in_a_function():
    @tf.function
    def sums(ds):
        out = tf.TensorArray(tf.int64, size=0, dynamic_size=True)
        i = 0
        for w in ds:
            out = out.write(i, w.reduce(tf.constant(0, tf.int64), lambda s, x: s + x))
            i += 1
        return out.stack()
    assert sums(tf.data.Dataset.range(7).window(3)).numpy().tolist() == [3, 12, 6]


@pytest.mark.parametrize("kw,msg", [(dict(size=0), "Window size must be greater than zero."),
                                    (dict(size=2, shift=0), "Window shift must be greater than zero."),
                                    (dict(size=2, stride=0), "Window stride must be greater than zero."),
                                    (dict(size=-1), "Window size must be greater than zero.")])
def test_window_bad_arguments(kw, msg):
    with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
        tf.data.Dataset.range(3).window(**kw)


def test_transformations_of_window_datasets():
    w = tf.data.Dataset.range(5).window(2)
    for ds in (w.shuffle(3, seed=1), w.filter(lambda d: True), w.cache(), w.prefetch(1), w.take(5)):
        assert sorted(windows(ds)) == [[0, 1], [2, 3], [4]]
    assert windows(w.concatenate(w)) == [[0, 1], [2, 3], [4]] * 2
    with pytest.raises(TypeError, match="^`batch` is not supported for datasets of datasets$"):
        w.batch(2)  # TF batches them into a _NestedVariant, which eagerflow has not
    with pytest.raises(TypeError, match="^`padded_batch` is not supported for datasets of datasets$"):
        w.padded_batch(2)
    with pytest.raises(ValueError, match="^Slicing dataset elements is not supported for rank 0.$"):
        w.unbatch()


def test_window_on_infinite_input():
    ds = tf.data.Dataset.range(5).repeat().window(2)
    assert int(ds.cardinality()) == tf.data.INFINITE_CARDINALITY
    assert windows(ds.take(4)) == [[0, 1], [2, 3], [4, 0], [1, 2]]


# ---- interleave(num_parallel_calls=...) ----

@pytest.mark.parametrize("cycle,block,calls", [(2, 1, 2), (3, 2, 1), (4, 3, tf.data.AUTOTUNE), (1, 1, 1), (5, 1, 5)])
def test_parallel_interleave_keeps_interleave_order(cycle, block, calls):
    def make(x):
        return tf.data.Dataset.range(x * 10, x * 10 + x + 1)
    src = tf.data.Dataset.range(1, 9)
    expected = values(src.interleave(make, cycle_length=cycle, block_length=block))
    ds = src.interleave(make, cycle_length=cycle, block_length=block, num_parallel_calls=calls)
    assert repr(ds).startswith("<_ParallelInterleaveDataset element_spec=")
    assert values(ds) == expected
    assert values(ds) == expected


def test_parallel_interleave_reads_on_worker_threads():
    seen = set()
    lock = threading.Lock()

    def record(x):
        with lock:
            seen.add(threading.get_ident())
        return x
    ds = tf.data.Dataset.range(4).interleave(
        lambda x: tf.data.Dataset.range(20).map(lambda y: tf.py_function(record, [y], tf.int64)),
        cycle_length=4, num_parallel_calls=4)
    assert sorted(values(ds)) == sorted(list(range(20)) * 4)
    assert threading.get_ident() not in seen
    assert len(seen) >= 2


def test_parallel_interleave_errors_in_order_and_early_drop():
    def make(x):
        return tf.data.Dataset.from_tensor_slices([x, x]).map(lambda v: tf.reshape(tf.fill([v], v), [2]))
    ds = tf.data.Dataset.from_tensor_slices([2, 2, 3]).interleave(make, cycle_length=3, num_parallel_calls=3)
    it = iter(ds)
    assert next(it).numpy().tolist() == [2, 2]
    assert next(it).numpy().tolist() == [2, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 3 values"):
        next(it)
    for _ in range(20):  # iterators dropped while workers run
        it = iter(tf.data.Dataset.range(4).interleave(lambda x: tf.data.Dataset.range(1000), cycle_length=4,
                                                      num_parallel_calls=4))
        next(it)
        del it


def test_parallel_interleave_bad_arguments():
    src = tf.data.Dataset.range(3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_parallel_calls must be greater than zero."):
        src.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2, num_parallel_calls=0)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="`num_parallel_calls` is 3 and `cycle_length` is 2"):
        src.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2, num_parallel_calls=3)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="`cycle_length` must be `tf.data.AUTOTUNE` or greater than 0 but is 0"):
        src.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=0, num_parallel_calls=1)


def test_map_may_return_datasets():
    # TF 2.21: the element spec holds a DatasetSpec leaf and iteration yields datasets.
    m = tf.data.Dataset.range(6).window(2).map(lambda w: w.batch(2))
    assert repr(m.element_spec) == ("DatasetSpec(TensorSpec(shape=(None,), dtype=tf.int64, name=None), "
                                    "TensorShape([]))")
    assert [[b.tolist() for b in d.as_numpy_iterator()] for d in m] == [[[0, 1]], [[2, 3]], [[4, 5]]]
    m2 = tf.data.Dataset.range(4).map(lambda x: (x, tf.data.Dataset.range(x)))
    assert repr(m2.element_spec) == (
        "(TensorSpec(shape=(), dtype=tf.int64, name=None), "
        "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([])))")
    assert [(int(a), list(d.as_numpy_iterator())) for a, d in m2] == [(0, []), (1, [0]), (2, [0, 1]), (3, [0, 1, 2])]
    flat = m.flat_map(lambda d: d)
    assert [b.tolist() for b in flat.as_numpy_iterator()] == [[0, 1], [2, 3], [4, 5]]
