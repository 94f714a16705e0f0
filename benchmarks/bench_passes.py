"""Graph optimizer benchmarks: a chain of 100 elementwise ops on a [1000] float32
tensor, eager vs tf.function with elementwise fusion vs tf.function without it (and TF).

Run: pytest benchmarks/bench_passes.py --benchmark-only   (ratios: compare rows of one run)
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.config import _optimizer_options as _optimizer


def chain(lib, x):
    for i in range(100):
        k = i % 4
        if k == 0:
            x = x * 0.99
        elif k == 1:
            x = x + 0.01
        elif k == 2:
            x = lib.tanh(x)
        else:
            x = lib.maximum(x, -0.5)
    return x


X = np.random.RandomState(0).uniform(-2, 2, 1000).astype(np.float32)


def test_chain100_eager(benchmark):
    x = tf.constant(X)
    benchmark(lambda: chain(tf, x))


@pytest.mark.parametrize("fusion", [True, False], ids=["fused", "unfused"])
def test_chain100_function(benchmark, fusion):
    x = tf.constant(X)
    tf.config.optimizer.set_experimental_options({"remapping": fusion})
    try:
        f = tf.function(lambda x: chain(tf, x))
        f(x)  # trace (the plan is built under the options)
    finally:
        _optimizer._options.pop("remapping", None)
        _optimizer._apply()
    benchmark(lambda: f(x))


def test_chain100_function_tensorflow(benchmark, tf_or_skip):
    x = tf_or_skip.constant(X)
    f = tf_or_skip.function(lambda x: chain(tf_or_skip, x))
    f(x)
    benchmark(lambda: f(x))
