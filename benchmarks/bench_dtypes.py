"""Elementwise add, reduce_sum and matmul on the rarely used dtypes (bfloat16, uint32, complex128),
side by side with (when installed) TensorFlow. Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest
benchmarks/bench_dtypes.py --benchmark-only"""
import numpy as np
import pytest

import eagerflow as tf

N = 1_000_000
DTYPES = ["bfloat16", "uint32", "complex128"]


def _values(lib, name, shape):
    rng = np.random.default_rng(0)
    v = rng.standard_normal(shape) * 100
    if name == "complex128":
        v = v + 1j * rng.standard_normal(shape)
    elif name == "uint32":
        v = np.abs(v)
    return lib.cast(lib.constant(v), getattr(lib, name))


@pytest.mark.parametrize("name", DTYPES)
def test_add_1e6_eagerflow(benchmark, name):
    x = _values(tf, name, (N,))
    benchmark(lambda: x + x)


@pytest.mark.parametrize("name", DTYPES)
def test_add_1e6_tensorflow(benchmark, name, tf_or_skip):
    x = _values(tf_or_skip, name, (N,))
    benchmark(lambda: x + x)


@pytest.mark.parametrize("name", DTYPES)
def test_reduce_sum_1e6_eagerflow(benchmark, name):
    x = _values(tf, name, (N,))
    benchmark(lambda: tf.reduce_sum(x))


@pytest.mark.parametrize("name", DTYPES)
def test_reduce_sum_1e6_tensorflow(benchmark, name, tf_or_skip):
    x = _values(tf_or_skip, name, (N,))
    benchmark(lambda: tf_or_skip.reduce_sum(x))


@pytest.mark.parametrize("name", ["bfloat16", "complex128"])
def test_matmul_256_eagerflow(benchmark, name):
    x = _values(tf, name, (256, 256))
    benchmark(lambda: tf.matmul(x, x))


@pytest.mark.parametrize("name", ["bfloat16", "complex128"])
def test_matmul_256_tensorflow(benchmark, name, tf_or_skip):
    x = _values(tf_or_skip, name, (256, 256))
    benchmark(lambda: tf_or_skip.matmul(x, x))
