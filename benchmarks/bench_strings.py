"""tf.strings.split on 1e5 strings (whitespace and an explicit separator), eagerly and inside a
tf.function, side by side with (when installed) TensorFlow; Python's str.split for reference. Run:
PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_strings.py --benchmark-only"""
import numpy as np
import pytest

import eagerflow as tf

N = 100_000


@pytest.fixture(scope="module")
def lines():
    rng = np.random.default_rng(0)
    words = np.array([b"alpha", b"be", b"gamma", b"delta", b"epsilon", b"z", b"\xc3\xa9t\xc3\xa9"], dtype=object)
    return np.array([b" ".join(rng.choice(words, rng.integers(1, 12))) for _ in range(N)], dtype=object)



@pytest.mark.parametrize("sep", [None, " "])
def test_split_1e5_eagerflow(benchmark, lines, sep):
    x = tf.constant(lines)
    benchmark(lambda: tf.strings.split(x, sep=sep))


@pytest.mark.parametrize("sep", [None, " "])
def test_split_1e5_tensorflow(benchmark, lines, sep, tf_or_skip):
    x = tf_or_skip.constant(lines)
    benchmark(lambda: tf_or_skip.strings.split(x, sep=sep))


@pytest.mark.parametrize("sep", [None, " "])
def test_split_1e5_function_eagerflow(benchmark, lines, sep):
    f = tf.function(lambda x: tf.strings.split(x, sep=sep))
    x = tf.constant(lines)
    f(x)
    benchmark(lambda: f(x))


@pytest.mark.parametrize("sep", [None, " "])
def test_split_1e5_function_tensorflow(benchmark, lines, sep, tf_or_skip):
    f = tf_or_skip.function(lambda x: tf_or_skip.strings.split(x, sep=sep))
    x = tf_or_skip.constant(lines)
    f(x)
    benchmark(lambda: f(x))


def test_split_1e5_python(benchmark, lines):
    benchmark(lambda: [s.split() for s in lines])
