"""tf.function benchmarks: call overhead, the wiki's dense network, elementwise chains,
per-node executor overhead and tracing cost, eager vs function side by side (TF when installed).

Run: PYTHONPATH=python pytest benchmarks/bench_function.py --benchmark-only --benchmark-group-by=group
BENCH_DENSE_ROWS sets the dense network's batch (default 6000; the wiki's real size is 60000).
"""
import os

import numpy as np
import pytest

import eagerflow as tf

DENSE_ROWS = int(os.environ.get("BENCH_DENSE_ROWS", "6000"))


def _libs(request):
    """(module, name) for eagerflow and, when installed, TensorFlow."""
    if request.param == "tensorflow":
        return request.getfixturevalue("tf_or_skip")
    return tf


@pytest.fixture(params=["eagerflow", "tensorflow"])
def lib(request):
    return _libs(request)


# --- (a) the lesson's add_then_relu on small tensors: µs per call ---------------------------------

def _add_then_relu(t):
    def add_then_relu(a, b):
        return t.nn.relu(a + b)
    return add_then_relu


@pytest.mark.benchmark(group="add_then_relu")
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_add_then_relu(benchmark, lib, mode):
    f = _add_then_relu(lib)
    if mode == "function":
        f = lib.function(f)
    a = lib.constant([1.0, -2.0, 3.0])
    b = lib.constant([0.5, 0.5, -4.0])
    np.testing.assert_array_equal(f(a, b).numpy(), [1.5, 0.0, 0.0])
    benchmark(f, a, b)


# --- (a2) calls whose arguments are structures: the cache key covers nested leaves --------------

class _Nested:
    """An object tf.nest flattens through __tf_flatten__ (TF's CustomNestProtocol)."""

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __tf_flatten__(self):
        return (), (self.first, self.second)

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        return cls(*components)


def _structure(t, kind):
    c = [t.constant([float(i)]) for i in range(10)]
    if kind == "dict4":
        return {"x": {"a": c[0], "b": c[1]}, "y": [c[2], c[3]]}
    if kind == "variables10":
        return [t.Variable(x) for x in c]
    if kind == "custom_nest":
        return _Nested(c[0], {"k": c[1]})
    Pair = _PAIR
    return {"a": (c[0], c[1]), "b": [c[2], {"c": c[3], "d": c[4]}], "e": Pair(c[5], c[6]),
            "f": (c[7], [c[8], c[9]]), "lr": 0.5}


import collections  # noqa: E402
_PAIR = collections.namedtuple("Pair", "first second")


@pytest.mark.benchmark(group="structured arguments")
@pytest.mark.parametrize("kind", ["dict4", "mixed10", "variables10", "custom_nest"])
def test_structured_call(benchmark, lib, kind):
    f = lib.function(lambda s: lib.identity(lib.nest.flatten(s)[0]))
    s = _structure(lib, kind)
    f(s)
    benchmark(f, s)


# --- (b) the wiki's 4-layer dense network (784-128-128-128-10) --------------------------------------

def _dense4(t, rows):
    rng = np.random.default_rng(0)
    xs = rng.integers(0, 256, size=(rows, 784)).astype(np.float32)
    ws = [t.Variable(rng.standard_normal((i, o), dtype=np.float32)) for i, o in
          [(784, 128), (128, 128), (128, 128), (128, 10)]]
    bs = [t.Variable(np.zeros(o, np.float32)) for o in (128, 128, 128, 10)]

    def forward(layer):
        z1 = t.matmul(layer, ws[0]) + bs[0]
        a1 = t.nn.relu(z1)
        z2 = t.matmul(a1, ws[1]) + bs[1]
        a2 = t.nn.relu(z2)
        z3 = t.matmul(a2, ws[2]) + bs[2]
        a3 = t.nn.relu(z3)
        return t.matmul(a3, ws[3]) + bs[3]

    def no_return(layer):
        forward(layer)

    return xs, forward, no_return


@pytest.mark.benchmark(group="dense4")
@pytest.mark.parametrize("mode", ["eager", "function_logits", "function_no_return"])
def test_dense4(benchmark, lib, mode):
    xs, forward, no_return = _dense4(lib, DENSE_ROWS)
    benchmark.extra_info["rows"] = DENSE_ROWS
    if mode == "eager":
        f = forward
    elif mode == "function_logits":
        f = lib.function(forward)
    else:
        f = lib.function(no_return)
    x = lib.constant(xs)
    f(x)  # trace
    benchmark(f, x)


# --- (c) a chain of 100 elementwise ops on a [1000] tensor ------------------------------------------

def _chain(t, n=100):
    def chain(x, a, b):
        for i in range(n // 2):
            x = x * a
            x = x + b
        return x
    return chain


@pytest.mark.benchmark(group="chain100")
@pytest.mark.parametrize("mode", ["eager", "function"])
def test_chain100(benchmark, lib, mode):
    f = _chain(lib)
    if mode == "function":
        f = lib.function(f)
    x = lib.constant(np.linspace(-1, 1, 1000, dtype=np.float32))
    a = lib.constant(np.full(1000, 0.999, np.float32))
    b = lib.constant(np.full(1000, 0.001, np.float32))
    f(x, a, b)
    benchmark(f, x, a, b)


# --- per-node overhead: 1,000 small ops in one function (divide the time by 1,000) ------------------

@pytest.mark.benchmark(group="per_node")
@pytest.mark.parametrize("nodes", [1, 1000])
def test_per_node(benchmark, lib, nodes):
    def chain(x, y):
        for i in range(nodes):
            x = lib.maximum(x, y) if i % 2 else lib.minimum(x, y)  # not fusable arithmetic
        return x
    f = lib.function(chain)
    x, y = lib.constant([1.0, 2.0]), lib.constant([1.5, 0.5])
    f(x, y)
    benchmark.extra_info["nodes"] = nodes
    benchmark(f, x, y)


# --- (d) tracing and optimizing a 1,000-op function -------------------------------------------------

@pytest.mark.benchmark(group="trace1000")
def test_trace_1000_ops(benchmark, lib):
    def body(x):
        for i in range(500):
            x = x * 1.0001
            x = x + 0.5
        return x

    x = lib.constant(np.ones(16, np.float32))

    def trace_once():  # trace, optimize (TF: on the first call) and run once
        f = lib.function(body)
        f(x)
        return f

    cf = trace_once().get_concrete_function(x)
    benchmark.extra_info["ops"] = len(cf.graph.get_operations())
    benchmark(trace_once)
