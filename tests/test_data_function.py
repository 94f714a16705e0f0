"""tf.data inside tf.function: `for x in dataset` is one While loop (the graph's size does not
depend on the data), datasets passed as arguments are traced by their element_spec, and break,
return, accumulators and tf.print work as in TF."""
import numpy as np
import pytest

import eagerflow as tf


def _nodes(f, *args):
    return len(f.get_concrete_function(*args).graph.as_graph_def().node)


def test_loop_over_dataset_argument_and_trace_sharing():
    traces = []

    @tf.function
    def total(ds):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s

    assert int(total(tf.data.Dataset.range(5))) == 10
    assert int(total(tf.data.Dataset.range(100))) == 4950  # same element_spec: same trace
    assert len(traces) == 1
    assert int(total(tf.data.Dataset.range(3).map(lambda x: x * 2))) == 6
    assert len(traces) == 1
    total(tf.data.Dataset.range(3).batch(2))  # another element_spec: another trace
    assert len(traces) == 2


def test_graph_size_does_not_depend_on_the_data():
    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    small = tf.data.Dataset.from_generator(lambda: [(1, 2)] * 3, (tf.int32, tf.int32))
    big = tf.data.Dataset.from_generator(lambda: [(1, 2)] * 30, (tf.int32, tf.int32))
    assert _nodes(train, small) == _nodes(train, big) < 15
    assert int(train(big)) == 30


def test_dataset_created_inside_the_function_with_break_and_structures():
    @tf.function
    def f(limit):
        ds = tf.data.Dataset.from_tensor_slices({"a": tf.range(10), "b": tf.range(10) * 10})
        acc = tf.constant(0)
        count = 0
        for el in ds:
            if el["a"] >= limit:
                break
            acc += el["b"]
            count += 1
        return acc, count

    acc, count = f(tf.constant(4))
    assert int(acc) == 60 and int(count) == 4


def test_return_inside_the_loop_is_tfs_error():
    @tf.function
    def first_over(ds, t):
        for x in ds:
            if x > t:
                return x
        return tf.constant(-1, tf.int64)

    ds = tf.data.Dataset.from_tensor_slices(np.array([1, 5, 2, 9], np.int64))
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside this TensorFlow loop"):
        first_over(ds, tf.constant(4, tf.int64))


def test_tf_print_runs_for_every_element(capfd):
    @tf.function
    def show(ds):
        for x in ds:
            tf.print("Value:", x)

    show(tf.data.Dataset.range(3))
    assert capfd.readouterr().err.splitlines() == ["Value: 0", "Value: 1", "Value: 2"]


def test_iterator_argument_next_advances():
    it = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))

    @tf.function
    def nxt(iterator):
        return next(iterator)

    assert [int(nxt(it)) for _ in range(3)] == [1, 2, 3]
    with pytest.raises(tf.errors.OutOfRangeError):
        nxt(it)


def test_training_loop_over_batches_in_a_function():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 3)).astype(np.float32)
    y = (x @ np.array([1.0, -2.0, 0.5], np.float32)).astype(np.float32)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    w = tf.Variable(tf.zeros([3]))

    @tf.function
    def epoch(ds):
        total = tf.constant(0.0)
        for xb, yb in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((tf.reduce_sum(xb * w, axis=1) - yb) ** 2)
            w.assign_sub(0.1 * tape.gradient(loss, w))
            total += loss
        return total

    losses = [float(epoch(ds)) for _ in range(20)]
    assert losses[-1] < 0.01 * losses[0]


def test_reduce_in_a_function():
    @tf.function
    def total(ds):
        return ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x)

    assert int(total(tf.data.Dataset.range(5))) == 10
    assert int(total(tf.data.Dataset.range(100))) == 4950

    @tf.function
    def grow():  # the state's shape changes: a relaxed loop
        return tf.data.Dataset.range(3).reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))

    assert grow().numpy().tolist() == [0, 1, 2]

    @tf.function
    def pairs():
        ds = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [10.0, 20.0, 30.0]))
        return ds.reduce((0, 0.0), lambda s, e: (s[0] + e[0], s[1] + e[1]))

    a, b = pairs()
    assert int(a) == 6 and float(b) == 60.0
