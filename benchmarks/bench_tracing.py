"""tf.function trace cache benchmarks: cache-hit overhead beyond running the graph, O(1)
exact hits with 1,000 traced signatures, RSS over 100,000 calls with fresh Python objects.

Run: PYTHONPATH=python pytest benchmarks/bench_tracing.py --benchmark-only --benchmark-group-by=group
(the RSS check is a plain test: PYTHONPATH=python pytest benchmarks/bench_tracing.py -k rss -s).
BENCH_FRESH_CALLS sets the number of fresh-object calls (default 100000).
"""
import itertools
import os

import pytest

import eagerflow as tf

FRESH_CALLS = int(os.environ.get("BENCH_FRESH_CALLS", "100000"))


@pytest.fixture(params=["eagerflow", "tensorflow"])
def lib(request):
    if request.param == "tensorflow":
        return request.getfixturevalue("tf_or_skip")
    return tf


# --- cache hit: two small tensors, the call vs running the same plan directly -----------------------

@pytest.mark.benchmark(group="cache_hit")
@pytest.mark.parametrize("mode", ["function_call", "plan_run"])
def test_cache_hit(benchmark, mode):
    @tf.function
    def add(a, b):
        return a + b
    a, b = tf.constant([1.0, 2.0, 3.0]), tf.constant([4.0, 5.0, 6.0])
    add(a, b)
    if mode == "function_call":
        benchmark(add, a, b)
    else:  # the graph alone: the difference to function_call is the tracing machinery's cost
        run = add.get_concrete_function(a, b)._plan.run
        benchmark(run, [a, b])


@pytest.mark.benchmark(group="cache_hit")
def test_cache_hit_tensorflow(benchmark, tf_or_skip):
    t = tf_or_skip

    @t.function
    def add(a, b):
        return a + b
    a, b = t.constant([1.0, 2.0, 3.0]), t.constant([4.0, 5.0, 6.0])
    add(a, b)
    benchmark(add, a, b)


# --- 1,000 traced signatures: exact hits stay O(1) ----------------------------------------------------

def _many(t, n):
    @t.function
    def f(x, k):
        return x + k
    x = t.constant(1)
    for k in range(n):
        f(x, k)
    return f, x


@pytest.mark.benchmark(group="signatures")
@pytest.mark.parametrize("signatures", [1, 1000])
@pytest.mark.parametrize("which", ["first", "last", "cycling"])
def test_exact_hit_with_many_signatures(benchmark, signatures, which):
    f, x = _many(tf, signatures)
    assert f.experimental_get_tracing_count() == signatures
    if which == "first":
        benchmark(f, x, 0)
    elif which == "last":
        benchmark(f, x, signatures - 1)
    else:
        ks = itertools.cycle(range(signatures))
        benchmark(lambda: f(x, next(ks)))
    assert f.experimental_get_tracing_count() == signatures


# --- memory: fresh Python objects (each traces; dead objects' traces are dropped) -------------------

def _rss_mib():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def test_rss_flat_with_fresh_objects():
    class Config:
        scale = 2.0

    @tf.function
    def f(cfg, x):
        return x * cfg.scale

    x = tf.constant([1.0, 2.0])
    for _ in range(FRESH_CALLS // 10):  # warm-up: allocator pools, plan caches
        f(Config(), x)
    before = _rss_mib()
    for _ in range(FRESH_CALLS):
        f(Config(), x)
    after = _rss_mib()
    print("\nRSS over %d fresh-object calls: %.1f MiB -> %.1f MiB; traces kept: %d of %d" % (
        FRESH_CALLS, before, after, len(f._cache), f.experimental_get_tracing_count()))
    assert len(f._cache) <= 1
    assert after - before < 8.0
