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
