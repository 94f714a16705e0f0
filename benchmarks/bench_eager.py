"""Eager op benchmarks: small-op latency, matmul GFLOP/s, elementwise bandwidth.

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


@pytest.mark.parametrize("path", ["public", "undecorated"])
def test_tf_add_function_dispatch_cost(benchmark, path):
    """`tf.add(a, b)` through the public function (TF's dispatch wrapper) and the function it wraps."""
    a, b = tf.constant(SMALL["vec4"]), tf.constant(SMALL["vec4"])
    fn = tf.add if path == "public" else tf.add.__wrapped__
    benchmark(lambda: fn(a, b))


def test_tf_add_function_tensorflow(benchmark, tf_or_skip):
    a, b = tf_or_skip.constant(SMALL["vec4"]), tf_or_skip.constant(SMALL["vec4"])
    benchmark(lambda: tf_or_skip.add(a, b))


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


@pytest.mark.parametrize("framework", ["eagerflow", "numpy"])
def test_add_1e7_faults_and_cpu_time(benchmark, framework):
    """A fresh 40 MB output per call: minor page faults and CPU time (all threads) per call go to
    extra_info and are printed; both are steadier than wall time on a busy machine."""
    import resource
    import time
    mod = tf if framework == "eagerflow" else np
    a = mod.ones([10_000_000], mod.float32)
    b = mod.ones([10_000_000], mod.float32)
    a + b
    n = 20
    r0, c0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.process_time()
    for _ in range(n):
        a + b
    r1, c1 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.process_time()
    benchmark.extra_info["minor_faults_per_call"] = (r1 - r0) / n
    benchmark.extra_info["cpu_ms_per_call"] = (c1 - c0) / n * 1e3
    print("%s add 1e7: %.1f minor faults, %.2f ms CPU per call" % (framework, (r1 - r0) / n, (c1 - c0) / n * 1e3))
    benchmark(lambda: a + b)


def test_matmul_1000_tensorflow(benchmark, tf_or_skip):
    x = tf_or_skip.constant(np.random.default_rng(0).standard_normal((1000, 1000), dtype=np.float32))
    benchmark(lambda: tf_or_skip.matmul(x, x))


def test_add_1e7_tensorflow(benchmark, tf_or_skip):
    a = tf_or_skip.ones([10_000_000])
    b = tf_or_skip.ones([10_000_000])
    benchmark(lambda: a + b)


def test_rss_over_1e6_eager_ops(benchmark):
    """Records RSS growth (MiB) over 1e6 small eager ops in extra_info (flat = ~0)."""
    import os

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20

    a, b = tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([1.0, 1.0, 1.0, 1.0])

    def run():
        for _ in range(1_000_000):
            a + b

    before = rss()
    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["rss_growth_mib"] = rss() - before
    print("RSS growth over 1e6 ops: %.2f MiB" % (rss() - before))


# Fills and small-integer arithmetic: 1-byte elements must stream as fast as 4-byte ones (same bytes).
FILL_BYTES = 1 << 26


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
def test_fill_64MiB_eagerflow(benchmark, dtype):
    n = FILL_BYTES // np.dtype(dtype).itemsize
    benchmark.extra_info["bytes"] = FILL_BYTES
    benchmark(lambda: tf.ones([n], getattr(tf, dtype)))


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32"])
def test_fill_64MiB_numpy(benchmark, dtype):
    n = FILL_BYTES // np.dtype(dtype).itemsize
    benchmark.extra_info["bytes"] = FILL_BYTES
    benchmark(lambda: np.ones([n], dtype))


def test_add_int8_4M_eagerflow(benchmark):
    a = tf.ones([1 << 22], tf.int8)
    benchmark(lambda: a + a)


def test_add_int8_4M_numpy(benchmark):
    a = np.ones([1 << 22], np.int8)
    benchmark(lambda: a + a)
