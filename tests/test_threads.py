"""Many Python threads using one function, one variable, one optimizer: exact results, no lost updates.

Graph plans run without the GIL, so these exercise the C++ locks (variable updates, plan caches) as
well as the Python layer's (trace cache, tape stack, building graph). Each test starts its threads
together (a barrier) to make the races likely.
"""
import threading

import numpy as np
import pytest

import eagerflow as tf

THREADS = 8


def run_threads(target, n=THREADS):
    """Runs target(i) on n threads started together; re-raises the first failure."""
    barrier = threading.Barrier(n)
    errors = []

    def body(i):
        try:
            barrier.wait()
            target(i)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    if errors:
        raise errors[0]


def test_one_function_many_threads_each_gets_its_own_result():
    @tf.function
    def f(x, k):
        y = tf.matmul(x, x) * k
        for _ in tf.range(3):
            y = y + 1.0
        return tf.reduce_sum(y, axis=1)

    def target(i):
        x = tf.constant(np.full((4, 4), float(i), np.float32))
        for _ in range(200):
            got = f(x, tf.constant(2.0)).numpy()
            np.testing.assert_array_equal(got, np.full(4, 4 * (8.0 * i * i + 3.0), np.float32))

    run_threads(target)


def test_first_calls_race_traces_once_and_every_thread_gets_the_answer():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return x * 2 + 1

    results = [None] * THREADS
    run_threads(lambda i: results.__setitem__(i, f(tf.constant(float(i))).numpy()))
    assert results == [2.0 * i + 1 for i in range(THREADS)]
    assert len(traces) == 1


def test_new_signatures_from_many_threads_trace_each_once():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.shape.rank)
        return tf.reduce_sum(x)

    def target(i):
        x = tf.ones([2] * (i % 4 + 1))
        for _ in range(20):
            assert f(x).numpy() == 2 ** (i % 4 + 1)

    run_threads(target)
    assert sorted(traces) == [1, 2, 3, 4]


@pytest.mark.parametrize("dtype,shape", [(tf.int32, [64]), (tf.int32, [1]), (tf.float32, [2]), (tf.int64, [3, 3])])
def test_assign_add_in_a_function_loses_no_update(dtype, shape):
    v = tf.Variable(tf.zeros(shape, dtype))
    inc = tf.function(lambda: v.assign_add(tf.ones(shape, dtype)))
    run_threads(lambda i: [inc() for _ in range(500)])
    np.testing.assert_array_equal(v.numpy(), np.full(shape, THREADS * 500))


def test_several_updates_in_one_function_lose_none():
    v = tf.Variable(0)
    w = tf.Variable(0.0)

    @tf.function
    def step():
        v.assign_add(1)
        v.assign_add(2)
        v.assign_sub(1)
        w.assign_add(0.5)

    run_threads(lambda i: [step() for _ in range(400)])
    assert v.numpy() == THREADS * 400 * 2
    assert w.numpy() == THREADS * 400 * 0.5


def test_eager_updates_lose_none():
    v = tf.Variable(tf.zeros([5], tf.int64))

    def target(i):
        for _ in range(300):
            v.assign_add(tf.ones([5], tf.int64), read_value=False)
            v.assign_sub([0, 0, 0, 0, 1], read_value=False)

    run_threads(target)
    np.testing.assert_array_equal(v.numpy(), [THREADS * 300] * 4 + [0])


def test_assign_from_threads_leaves_one_whole_value():
    v = tf.Variable(tf.zeros([1000]))
    put = tf.function(lambda x: v.assign(x))
    seen = []

    def target(i):
        x = tf.fill([1000], float(i))
        for k in range(200):
            (put(x) if k % 2 else v.assign(x))
            seen.append(np.unique(v.numpy()).size)

    run_threads(target)
    assert set(seen) == {1}  # every read is one thread's whole value, never a mix
    assert np.unique(v.numpy()).size == 1


def test_reads_during_updates_are_whole_values():
    v = tf.Variable(tf.zeros([256]))
    inc = tf.function(lambda: v.assign_add(tf.ones([256])))
    read = tf.function(lambda: v.read_value() * 1.0)

    def target(i):
        for _ in range(300):
            if i % 2:
                inc()
            else:
                assert np.unique(read().numpy()).size == 1

    run_threads(target)
    np.testing.assert_array_equal(v.numpy(), np.full(256, THREADS // 2 * 300))


def test_optimizer_updates_from_threads_are_exact():
    v = tf.Variable(tf.zeros([8]))
    opt = tf.keras.optimizers.SGD(learning_rate=1.0)
    grad = tf.fill([8], -1.0)
    step = tf.function(lambda: opt.apply_gradients([(grad, v)]))

    def target(i):
        for k in range(200):
            (step() if i % 2 else opt.apply_gradients([(grad, v)]))

    run_threads(target)
    np.testing.assert_array_equal(v.numpy(), np.full(8, THREADS * 200.0))
    assert int(opt.iterations.numpy()) == THREADS * 200


def test_gradient_tapes_in_parallel_threads():
    @tf.function
    def f(x):
        return tf.reduce_sum(tf.sin(x) * x)

    def target(i):
        x = tf.Variable(tf.fill([16], 0.1 * i))
        for _ in range(100):
            with tf.GradientTape() as tape:
                y = f(x) + tf.reduce_sum(x * x)
            g = tape.gradient(y, x).numpy()
            xv = x.numpy()
            np.testing.assert_allclose(g, np.sin(xv) + xv * np.cos(xv) + 2 * xv, rtol=1e-5, atol=1e-6)

    run_threads(target)


def test_tapes_watch_only_their_own_thread():
    a = tf.Variable(1.0)
    started, stop = threading.Barrier(2), threading.Event()

    def other(i):
        started.wait()
        while not stop.is_set():
            a.assign_add(0.0)
            _ = a * 3.0

    t = threading.Thread(target=other, args=(0,))
    t.start()
    try:
        started.wait()
        x = tf.constant(2.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        assert tape.gradient(y, x).numpy() == 4.0
        assert tape.watched_variables() == ()
    finally:
        stop.set()
        t.join()
