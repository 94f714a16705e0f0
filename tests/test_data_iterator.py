"""tf.data iteration: iterators are resources (AnonymousIteratorV3 / MakeIterator / IteratorGetNext);
the end of a dataset, iterators dropped mid-pipeline, prefetch threads and concurrent consumers."""
import gc
import threading

import numpy as np
import pytest

import eagerflow as tf


def test_iteration_protocol():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
    it = iter(ds)
    assert isinstance(it, tf.data.Iterator)
    assert it.element_spec == ds.element_spec
    assert int(next(it)) == 1 and int(it.get_next()) == 2 and int(next(it)) == 3
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError) as info:
        it.get_next()
    assert str(info.value) == ("{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/"
                               "replica:0/task:0/device:CPU:0}} End of sequence [Op:IteratorGetNext]")
    with pytest.raises(StopIteration):  # and stays at the end
        next(it)
    assert [int(x) for x in ds] == [1, 2, 3]  # each for loop is a fresh iterator
    assert [int(x) for x in ds] == [1, 2, 3]


def test_nested_elements_come_back_structured():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2], "b": (["x", "y"], [[1.0], [2.0]])})
    first = next(iter(ds))
    assert set(first) == {"a", "b"} and isinstance(first["b"], tuple)
    assert first["b"][0].numpy() == b"x" and first["b"][1].shape == (1,)


def test_iterating_in_a_graph_is_refused():
    ds = tf.data.Dataset.range(3)
    with tf.Graph().as_default():
        with pytest.raises(RuntimeError, match="only supports Python-style iteration in eager mode"):
            iter(ds)


def test_element_checks_at_get_next():
    ds = tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.fill([x + 1], x), [-1]))
    bad = tf.data.Dataset.range(3).batch(2).map(lambda x: tf.reshape(x, [2]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Input to reshape is a tensor with 1 values, but the requested shape has 2"):
        list(bad)
    assert [x.shape.as_list() for x in ds] == [[1], [2], [3]]


def test_raw_iterator_ops():
    from eagerflow.ops._execute import execute
    attrs = {"output_types": [tf.int64], "output_shapes": [[]]}
    handle = execute("AnonymousIteratorV3", [], attrs)[0]
    assert handle.dtype == tf.resource
    with pytest.raises(tf.errors.FailedPreconditionError, match="iterator has not been initialized"):
        execute("IteratorGetNext", [handle], attrs)
    execute("MakeIterator", [tf.data.Dataset.range(2)._variant_tensor, handle])
    assert int(execute("IteratorGetNext", [handle], attrs)[0]) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Data type mismatch at component 0: expected int32"):
        execute("IteratorGetNext", [handle], {"output_types": [tf.int32], "output_shapes": [[]]})
    # A handle of another kind is refused, never misread.
    v = tf.Variable(1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expects an iterator resource handle"):
        execute("IteratorGetNext", [v.handle], attrs)
    with pytest.raises(tf.errors.InvalidArgumentError):
        execute("ReadVariableOp", [handle], {"dtype": tf.float32})
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a variant tensor"):
        execute("DatasetCardinality", [tf.constant(1)])
    lst = execute("EmptyTensorList", [tf.constant([], tf.int32), tf.constant(-1)],
                  {"element_dtype": tf.float32, "shape_type": tf.int32})[0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="holding a dataset"):
        execute("DatasetCardinality", [lst])
    with pytest.raises(tf.errors.InvalidArgumentError, match="not a list"):
        execute("TensorListLength", [tf.data.Dataset.range(2)._variant_tensor])


def test_dropping_prefetching_iterators_mid_run():
    """Iterators (and their datasets) deleted while prefetch threads run: no crash, no hang."""
    for _ in range(30):
        ds = tf.data.Dataset.range(10 ** 9).map(lambda x: x + 1).prefetch(8).map(lambda x: x * 2).prefetch(2)
        it = iter(ds)
        assert int(next(it)) == 2
        del it, ds
    gc.collect()
    for _ in range(10):  # never started: no thread at all
        iter(tf.data.Dataset.range(5).prefetch(1))


def test_prefetch_passes_errors_through():
    ds = tf.data.Dataset.from_tensor_slices([1, 2, 3]).map(lambda x: tf.fill([x], x)).batch(2).prefetch(2)
    it = iter(ds)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot batch tensors with different shapes"):
        next(it)


def test_threads_share_one_iterator():
    ds = tf.data.Dataset.range(2000).map(lambda x: x * 3).prefetch(16)
    it = iter(ds)
    seen, lock = [], threading.Lock()

    def consume():
        while True:
            try:
                x = int(next(it))
            except StopIteration:
                return
            with lock:
                seen.append(x)
    threads = [threading.Thread(target=consume) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    assert sorted(seen) == [3 * i for i in range(2000)]


def test_threads_iterate_one_dataset():
    ds = tf.data.Dataset.range(300).shuffle(50, seed=2).batch(7).prefetch(2)
    results = [None] * 4

    def run(k):
        results[k] = np.concatenate([b.numpy() for b in ds])
    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for r in results:
        assert sorted(r.tolist()) == list(range(300))


def test_many_epochs_release_their_iterators():
    ds = tf.data.Dataset.range(20).batch(4).prefetch(2)
    for _ in range(200):
        assert sum(len(b) for b in ds) == 20


def test_iterators_in_functions():
    it = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))

    @tf.function
    def take(iterator):
        return next(iterator) * 10
    assert [int(take(it)) for _ in range(3)] == [10, 20, 30]

    @tf.function
    def rest(iterator):
        s = tf.constant(0, tf.int64)
        for x in iterator:  # the remaining elements, in one While loop
            s += x
        return s
    it2 = iter(tf.data.Dataset.range(5))
    next(it2)
    assert int(rest(it2)) == 10

    @tf.function
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)
    assert int(total(tf.data.Dataset.range(4))) == 6


def test_reinitializing_an_iterator_while_another_thread_waits():
    from eagerflow.ops._execute import execute
    slow = tf.data.Dataset.range(10 ** 6).map(lambda x: tf.py_function(lambda y: y, [x], tf.int64)).prefetch(4)
    it = iter(slow)
    errors = []

    def consume():
        try:
            for _ in range(200):
                it.get_next()
        except tf.errors.OutOfRangeError:
            pass
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
    t = threading.Thread(target=consume)
    t.start()
    for _ in range(20):
        execute("MakeIterator", [tf.data.Dataset.range(5).map(lambda x: tf.py_function(lambda y: y, [x], tf.int64))
                                 .prefetch(2)._variant_tensor, it._handle])
    t.join(60)
    assert not t.is_alive() and not errors


_EXIT_SCRIPT = """
import eagerflow as tf
ds = tf.data.Dataset.range(10 ** 9).map(lambda x: tf.py_function(lambda y: y * 2, [x], tf.int64)).prefetch(8)
it = iter(ds)
print(int(next(it)))
g = iter(tf.data.Dataset.from_generator(lambda: iter(range(10 ** 9)), tf.int64)
         .map(lambda x: x + 1, num_parallel_calls=3).prefetch(4))
print(int(next(g)))
"""


def test_exiting_with_running_pipelines():
    """Pipeline threads that call Python stop before the interpreter finalizes (no abort at exit)."""
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(tf.__file__))), os.environ.get("PYTHONPATH", "")]))
    for _ in range(4):
        p = subprocess.run([sys.executable, "-c", _EXIT_SCRIPT], capture_output=True, text=True, timeout=120, env=env)
        assert p.returncode == 0 and p.stdout.split() == ["0", "1"], p.stderr[-2000:]
