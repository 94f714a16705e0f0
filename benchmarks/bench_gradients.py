"""Gradient benchmarks: tape recording overhead per eager op, and an MLP's gradient step.

Run: pytest benchmarks/bench_gradients.py --benchmark-only --benchmark-columns=min,median -s
Recording overhead per op = (recorded - no tape) / N from the `ops_*` rows (N ops per call).
Recording cost of one tf.function call = (recorded - plain) / N from the `call_*` rows (one tape
entry per call, C++ call cache path); `call_*[gradient]` adds one gradient of the call (the cached
backward function). `mlp_step_*[fn_forward]`: the loss computed by a tf.function, tape eager.
"""
import numpy as np
import pytest

import eagerflow as tf

N = 1000  # ops per benchmarked call


def _ops_loop(tf_mod, mode):
    a = tf_mod.constant([1.0, 2.0, 3.0, 4.0])
    b = tf_mod.constant([0.5, 0.5, 0.5, 0.5])

    def plain():
        for _ in range(N):
            a + b

    def tape_unwatched():  # a tape is active but none of the inputs is watched: nothing recorded
        with tf_mod.GradientTape():
            for _ in range(N):
                a + b

    def tape_recorded():
        with tf_mod.GradientTape() as t:
            t.watch(a)
            for _ in range(N):
                a + b
    return {"plain": plain, "unwatched": tape_unwatched, "recorded": tape_recorded}[mode]


@pytest.mark.parametrize("mode", ["plain", "unwatched", "recorded"])
def test_ops_eagerflow(benchmark, mode):
    benchmark.extra_info["ops"] = N
    benchmark(_ops_loop(tf, mode))


@pytest.mark.parametrize("mode", ["plain", "unwatched", "recorded"])
def test_ops_tensorflow(benchmark, mode, tf_or_skip):
    benchmark.extra_info["ops"] = N
    benchmark(_ops_loop(tf_or_skip, mode))


def _call_loop(tf_mod, mode):
    x = tf_mod.constant([1.0, 2.0, 3.0, 4.0])
    y = tf_mod.constant([0.5, 0.5, 0.5, 0.5])
    f = tf_mod.function(lambda a, b: a * b + a)
    f(x, y)

    def plain():
        for _ in range(N):
            f(x, y)

    def tape_unwatched():
        with tf_mod.GradientTape():
            for _ in range(N):
                f(x, y)

    def tape_recorded():
        with tf_mod.GradientTape() as t:
            t.watch(x)
            for _ in range(N):
                f(x, y)

    def gradient():  # N times: record one call and take its gradient
        for _ in range(N):
            with tf_mod.GradientTape() as t:
                t.watch(x)
                out = f(x, y)
            t.gradient(out, x)
    return {"plain": plain, "unwatched": tape_unwatched, "recorded": tape_recorded, "gradient": gradient}[mode]


@pytest.mark.parametrize("mode", ["plain", "unwatched", "recorded", "gradient"])
def test_call_eagerflow(benchmark, mode):
    benchmark.extra_info["calls"] = N
    benchmark(_call_loop(tf, mode))


@pytest.mark.parametrize("mode", ["plain", "unwatched", "recorded", "gradient"])
def test_call_tensorflow(benchmark, mode, tf_or_skip):
    benchmark.extra_info["calls"] = N
    benchmark(_call_loop(tf_or_skip, mode))


def _mlp(tf_mod, compiled):
    rng = np.random.default_rng(0)
    x = tf_mod.constant(rng.standard_normal((32, 784), dtype=np.float32))
    y = tf_mod.constant(rng.standard_normal((32, 10), dtype=np.float32))
    w1 = tf_mod.Variable(rng.standard_normal((784, 128), dtype=np.float32) * 0.05)
    b1 = tf_mod.Variable(np.zeros(128, np.float32))
    w2 = tf_mod.Variable(rng.standard_normal((128, 10), dtype=np.float32) * 0.05)
    b2 = tf_mod.Variable(np.zeros(10, np.float32))
    params = [w1, b1, w2, b2]

    def forward():
        h = tf_mod.tanh(tf_mod.matmul(x, w1) + b1)
        return tf_mod.reduce_mean(tf_mod.square(tf_mod.matmul(h, w2) + b2 - y))
    loss_fn = tf_mod.function(forward) if compiled == "fn_forward" else forward

    def step():
        with tf_mod.GradientTape() as t:
            loss = loss_fn()
        grads = t.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(0.01 * g)
        return loss
    return tf_mod.function(step) if compiled is True else step


@pytest.mark.parametrize("compiled", [False, True, "fn_forward"], ids=["eager", "function", "fn_forward"])
def test_mlp_step_eagerflow(benchmark, compiled):
    step = _mlp(tf, compiled)
    step()
    benchmark(step)


@pytest.mark.parametrize("compiled", [False, True, "fn_forward"], ids=["eager", "function", "fn_forward"])
def test_mlp_step_tensorflow(benchmark, compiled, tf_or_skip):
    step = _mlp(tf_or_skip, compiled)
    step()
    benchmark(step)
