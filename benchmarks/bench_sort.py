"""tf.sort, tf.argsort and tf.math.top_k on 1e6 float32 values, side by side with NumPy and (when
installed) TensorFlow. Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_sort.py
--benchmark-only"""
import numpy as np
import pytest

import eagerflow as tf

N = 1_000_000
K = 100


@pytest.fixture(scope="module")
def values():
    return np.random.default_rng(0).standard_normal(N).astype(np.float32)


def test_sort_1e6_eagerflow(benchmark, values):
    x = tf.constant(values)
    benchmark(lambda: tf.sort(x))


def test_sort_1e6_numpy(benchmark, values):
    benchmark(lambda: np.sort(values))


def test_sort_1e6_tensorflow(benchmark, values, tf_or_skip):
    x = tf_or_skip.constant(values)
    benchmark(lambda: tf_or_skip.sort(x))


def test_argsort_1e6_eagerflow(benchmark, values):
    x = tf.constant(values)
    benchmark(lambda: tf.argsort(x))


def test_argsort_1e6_numpy(benchmark, values):
    benchmark(lambda: np.argsort(values, kind="stable"))


def test_argsort_1e6_tensorflow(benchmark, values, tf_or_skip):
    x = tf_or_skip.constant(values)
    benchmark(lambda: tf_or_skip.argsort(x))


def test_top_k_1e6_eagerflow(benchmark, values):
    x = tf.constant(values)
    benchmark(lambda: tf.math.top_k(x, K))


def test_top_k_1e6_numpy(benchmark, values):
    # the k largest, sorted: argpartition then sort the k
    def top_k():
        idx = np.argpartition(values, N - K)[N - K:]
        return idx[np.argsort(-values[idx], kind="stable")]
    benchmark(top_k)


def test_top_k_1e6_tensorflow(benchmark, values, tf_or_skip):
    x = tf_or_skip.constant(values)
    benchmark(lambda: tf_or_skip.math.top_k(x, K))


def test_sort_rows_1000x1000_eagerflow(benchmark):
    x = tf.constant(np.random.default_rng(1).standard_normal((1000, 1000)).astype(np.float32))
    benchmark(lambda: tf.sort(x))


def test_sort_rows_1000x1000_numpy(benchmark):
    x = np.random.default_rng(1).standard_normal((1000, 1000)).astype(np.float32)
    benchmark(lambda: np.sort(x))


def test_sort_rows_1000x1000_tensorflow(benchmark, tf_or_skip):
    x = tf_or_skip.constant(np.random.default_rng(1).standard_normal((1000, 1000)).astype(np.float32))
    benchmark(lambda: tf_or_skip.sort(x))
