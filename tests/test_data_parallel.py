"""map(num_parallel_calls=...): worker threads, results in input order, errors, early ends and
iterators dropped while the workers run."""
import gc
import threading

import numpy as np
import pytest

import eagerflow as tf


def values(ds):
    return list(ds.as_numpy_iterator())


@pytest.mark.parametrize("calls", [1, 2, 3, 8, tf.data.AUTOTUNE])
def test_parallel_map_keeps_input_order(calls):
    ds = tf.data.Dataset.range(500).map(lambda x: x * x + 1, num_parallel_calls=calls)
    assert values(ds) == [i * i + 1 for i in range(500)]
    assert int(ds.cardinality()) == 500


def test_parallel_map_runs_on_several_threads():
    seen = set()
    lock = threading.Lock()

    def record(x):
        with lock:
            seen.add(threading.get_ident())
        return x
    ds = tf.data.Dataset.range(200).map(lambda x: tf.py_function(record, [x], tf.int64), num_parallel_calls=4)
    assert values(ds) == list(range(200))
    assert threading.get_ident() not in seen  # workers, not the consumer


def test_parallel_map_nested_elements_and_batches():
    x = np.arange(40, dtype=np.float32).reshape(20, 2)
    ds = tf.data.Dataset.from_tensor_slices((x, np.arange(20))).map(
        lambda a, b: {"s": tf.reduce_sum(a), "b": b}, num_parallel_calls=3).batch(6)
    got = values(ds)
    np.testing.assert_array_equal(np.concatenate([g["s"] for g in got]), x.sum(1))
    np.testing.assert_array_equal(np.concatenate([g["b"] for g in got]), np.arange(20))


def test_parallel_map_errors_reach_the_consumer_in_order():
    ds = tf.data.Dataset.from_tensor_slices([2, 2, 3, 2, 2]).map(lambda x: tf.reshape(tf.fill([x], x), [2]),
                                                                 num_parallel_calls=4)
    it = iter(ds)
    assert next(it).numpy().tolist() == [2, 2]
    assert next(it).numpy().tolist() == [2, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 3 values"):
        next(it)


def test_parallel_map_generator_end_stops():
    ds = tf.data.Dataset.from_generator(lambda: iter(range(7)), tf.int64).map(lambda x: x + 1, num_parallel_calls=3)
    assert values(ds) == list(range(1, 8))


def test_dropping_parallel_iterators_mid_run():
    for _ in range(20):
        ds = tf.data.Dataset.range(10 ** 9).map(lambda x: x * 2, num_parallel_calls=4).prefetch(2)
        it = iter(ds)
        assert int(next(it)) == 0
        del it, ds
    gc.collect()
    for _ in range(5):  # never started
        iter(tf.data.Dataset.range(5).map(lambda x: x, num_parallel_calls=2))


@pytest.mark.parametrize("calls", [1, 2, tf.data.AUTOTUNE])
def test_parallel_map_results_in_order_whatever_the_chunking(calls):
    # Cheap functions get large chunks whose results are stacked per component; strings and
    # elements of varying shapes are handed over as they are.
    n = 20_000
    ds = tf.data.Dataset.range(n).map(
        lambda x: {"a": x * 2 + 1, "v": tf.fill([3], tf.cast(x, tf.float32)), "s": tf.strings.as_string(x)},
        num_parallel_calls=calls)
    got = list(ds.as_numpy_iterator())
    assert [e["a"] for e in got] == list(range(1, 2 * n, 2))
    np.testing.assert_array_equal(np.stack([e["v"] for e in got]), np.repeat(np.arange(n, dtype=np.float32), 3).reshape(n, 3))
    assert [e["s"] for e in got[:3]] == [b"0", b"1", b"2"]
    ragged = tf.data.Dataset.range(1000).map(lambda x: tf.range(x % 5), num_parallel_calls=calls)
    assert [len(e) for e in ragged.as_numpy_iterator()] == [i % 5 for i in range(1000)]
    batched = tf.data.Dataset.range(n).map(lambda x: (x, -x), num_parallel_calls=calls).batch(1024)
    flat = np.concatenate([b[0] for b in batched.as_numpy_iterator()])
    np.testing.assert_array_equal(flat, np.arange(n))


@pytest.mark.parametrize("calls", [1, 2, tf.data.AUTOTUNE])
def test_batch_takes_a_parallel_maps_stacked_chunks(calls):
    n = 10_007
    ds = tf.data.Dataset.range(n).map(lambda x: (x, tf.fill([2], x)), num_parallel_calls=calls)
    batches = list(ds.batch(1000).as_numpy_iterator())
    assert [len(b[0]) for b in batches] == [1000] * 10 + [7]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in batches]), np.arange(n))
    np.testing.assert_array_equal(np.concatenate([b[1] for b in batches]), np.repeat(np.arange(n), 2).reshape(n, 2))
    assert len(list(ds.batch(1000, drop_remainder=True))) == 10
    bad = tf.data.Dataset.range(3000).map(lambda x: tf.fill([tf.cast(x // 2000 + 1, tf.int32)], x),
                                          num_parallel_calls=calls).batch(3000)
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF's fused map-and-batch words it differently
        list(bad)
