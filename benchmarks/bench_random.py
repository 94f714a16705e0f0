"""Counter-based random numbers: tf.random.stateless_uniform / stateless_normal of 1e6 float32 and
tf.random.Generator.normal, side by side with TF (same values) and NumPy's Philox.

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_random.py --benchmark-only
"""
import numpy as np
import pytest

import eagerflow as tf

N = 1_000_000
OPS = ["stateless_uniform", "stateless_normal", "stateless_truncated_normal", "generator_normal"]


def _run(lib, op):
    if op == "generator_normal":
        g = lib.random.Generator.from_seed(1)
        return lambda: g.normal([N])
    fn = getattr(lib.random, op)
    seed = lib.constant([1, 2])
    return lambda: fn([N], seed)


@pytest.mark.parametrize("op", OPS)
def test_random_1e6_eagerflow(benchmark, op):
    benchmark(_run(tf, op))


@pytest.mark.parametrize("op", OPS)
def test_random_1e6_tensorflow(benchmark, op, tf_or_skip):
    benchmark(_run(tf_or_skip, op))


@pytest.mark.parametrize("op", ["uniform", "normal"])
def test_random_1e6_numpy_philox(benchmark, op):
    g = np.random.Generator(np.random.Philox(1))
    fn = g.random if op == "uniform" else g.standard_normal
    benchmark(lambda: fn(N, dtype=np.float32))
