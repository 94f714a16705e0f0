"""AutoGraph benchmarks: trace time of the converted fizzbuzz (target <= 20 ms), the
one-time conversion cost, and a 100,000-step scalar while loop in tf.function vs eagerly (target:
the function >= 20x faster).

Run: PYTHONPATH=python pytest benchmarks/bench_autograph.py --benchmark-only --benchmark-group-by=group
"""
import os

import pytest

import eagerflow as tf
from eagerflow.autograph._impl import conversion

LOOP_STEPS = int(os.environ.get("BENCH_LOOP_STEPS", "100000"))


def fizzbuzz(n):
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            tf.print('fizzbuzz')
        elif i % 3 == 0:
            tf.print('fizz')
        elif i % 5 == 0:
            tf.print('buzz')
        else:
            tf.print(i)


@pytest.fixture(params=["eagerflow", "tensorflow"])
def lib(request):
    if request.param == "tensorflow":
        return request.getfixturevalue("tf_or_skip")
    return tf


@pytest.mark.benchmark(group="fizzbuzz_trace")
def test_fizzbuzz_trace(benchmark, lib):
    """A new Function each round: one trace (conversion is cached per Python function)."""
    if lib is not tf:
        pytest.skip("fizzbuzz is written against eagerflow's module (TF's trace is measured in bench_tracing)")
    n = lib.constant(5)

    def trace():
        return lib.function(fizzbuzz).get_concrete_function(n)
    trace()
    benchmark(trace)


@pytest.mark.benchmark(group="fizzbuzz_convert")
def test_fizzbuzz_conversion(benchmark):
    """Parse, convert and compile fizzbuzz (first use only; later uses hit the cache)."""
    def convert():
        conversion._code_cache.pop(fizzbuzz.__code__, None)
        conversion._fn_cache.pop(fizzbuzz, None)
        return conversion.convert(fizzbuzz)
    benchmark(convert)


def count_loop(n):
    i = tf.constant(0)
    s = tf.constant(0.0)
    while i < n:
        s = s + 0.5
        i = i + 1
    return s


@pytest.mark.benchmark(group="scalar_while_100k")
@pytest.mark.parametrize("mode", ["function", "eager"])
def test_scalar_while(benchmark, mode):
    n = tf.constant(LOOP_STEPS)
    fn = tf.function(count_loop) if mode == "function" else count_loop
    fn(n)
    benchmark.pedantic(fn, args=(n,), rounds=3, iterations=1)
