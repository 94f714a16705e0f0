"""Eager op benchmarks (issue 2): small-op latency, matmul GFLOP/s, elementwise bandwidth.

Run: pytest benchmarks/bench_eager.py --benchmark-only   (ratios: compare rows of one run)
"""
import numpy as np
import pytest

import eagerflow as tf

SMALL = {"scalar": [1.5], "vec4": [1.0, 2.0, 3.0, 4.0]}


@pytest.mark.parametrize("size", list(SMALL))
def test_add_small_eagerflow(benchmark, size):
    a = tf.constant(SMALL[size] if size != "scalar" else 1.5)
    b = tf.constant(SMALL[size] if size != "scalar" else 2.5)
    benchmark(lambda: a + b)


@pytest.mark.parametrize("size", list(SMALL))
def test_add_small_numpy(benchmark, size):
    a = np.array(SMALL[size] if size != "scalar" else 1.5, np.float32)
    b = np.array(SMALL[size] if size != "scalar" else 2.5, np.float32)
    benchmark(lambda: a + b)


def test_add_scalar_numpy_scalar(benchmark):
    a, b = np.float32(1.5), np.float32(2.5)
    benchmark(lambda: a + b)


@pytest.mark.parametrize("size", list(SMALL))
def test_add_small_tensorflow(benchmark, size, tf_or_skip):
    a = tf_or_skip.constant(SMALL[size] if size != "scalar" else 1.5)
    b = tf_or_skip.constant(SMALL[size] if size != "scalar" else 2.5)
    benchmark(lambda: a + b)


def test_matmul_1000_eagerflow(benchmark):
    x = tf.constant(np.random.default_rng(0).standard_normal((1000, 1000), dtype=np.float32))
    benchmark.extra_info["gflop"] = 2.0
    benchmark(lambda: tf.matmul(x, x))


def test_matmul_1000_numpy(benchmark):
    x = np.random.default_rng(0).standard_normal((1000, 1000), dtype=np.float32)
    benchmark.extra_info["gflop"] = 2.0
    benchmark(lambda: x @ x)


def test_add_1e7_eagerflow(benchmark):
    a = tf.ones([10_000_000])
    b = tf.ones([10_000_000])
    benchmark.extra_info["bytes"] = 3 * 4e7
    benchmark(lambda: a + b)


def test_add_1e7_numpy(benchmark):
    a = np.ones([10_000_000], np.float32)
    b = np.ones([10_000_000], np.float32)
    benchmark.extra_info["bytes"] = 3 * 4e7
    benchmark(lambda: a + b)
