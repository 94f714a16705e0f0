"""Control-flow benchmarks: a 100,000-step scalar tf.while_loop in tf.function vs the
same loop eagerly (target: the function >= 20x faster), the same loop with the scalar loop
interpreter off (plans run per iteration), a loop over small vectors (per-iteration overhead of the
general path, target <= 1 us), and a tf.cond call. TensorFlow side by side when installed.

Run: PYTHONPATH=python pytest benchmarks/bench_control_flow.py --benchmark-only --benchmark-group-by=group
"""
import os

import pytest

import eagerflow as tf
from eagerflow.config import optimizer

STEPS = int(os.environ.get("BENCH_LOOP_STEPS", "100000"))


@pytest.fixture(params=["eagerflow", "tensorflow"])
def lib(request):
    if request.param == "tensorflow":
        return request.getfixturevalue("tf_or_skip")
    return tf


def _scalar_loop(t):
    def loop(n):
        return t.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.99 + 1.0),
                            (t.constant(0), t.constant(0.0)))[1]
    return loop


@pytest.mark.benchmark(group="while_loop_scalar_100k")
@pytest.mark.parametrize("mode", ["function", "function_no_loop_opt", "eager"])
def test_while_loop_scalar(benchmark, lib, mode):
    if mode == "function_no_loop_opt" and lib is not tf:
        pytest.skip("eagerflow's switch")
    optimizer.set_experimental_options({"loop_optimization": mode != "function_no_loop_opt"})
    try:
        fn = _scalar_loop(lib)
        if mode != "eager":
            fn = lib.function(fn)
        n = lib.constant(STEPS)
        fn(n)
        benchmark.pedantic(fn, args=(n,), rounds=3, iterations=1)
    finally:
        optimizer.set_experimental_options({"loop_optimization": None})


@pytest.mark.benchmark(group="while_loop_vector_100k")
def test_while_loop_vector(benchmark, lib):
    """General path: [4] float32 loop variable (not a scalar), one fused update per iteration."""
    @lib.function
    def loop(n, x):
        return lib.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.99 + 1.0), (lib.constant(0), x))[1]
    n, x = lib.constant(STEPS), lib.constant([0.0, 1.0, 2.0, 3.0])
    loop(n, x)
    benchmark.pedantic(loop, args=(n, x), rounds=3, iterations=1)


@pytest.mark.benchmark(group="cond_call")
def test_cond_call(benchmark, lib):
    @lib.function
    def f(x):
        return lib.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
    x = lib.constant(1.5)
    f(x)
    benchmark(f, x)
