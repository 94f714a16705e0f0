"""tf.TensorArray benchmarks (issue 5): writes in a graph While loop must cost O(1) each (the
list is updated in place), eager writes too (copy-on-write chunks); compare n = 1k vs 10k rows.

Run: pytest benchmarks/bench_tensor_array.py --benchmark-only
"""
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute, execute1

SIZES = [1000, 10000]


def _while_loop(cond, body, loop_vars):
    """tf.while_loop when it exists; else a minimal graph While over composite loop vars."""
    if hasattr(tf, "while_loop"):
        return tf.while_loop(cond, body, loop_vars)
    from eagerflow.function.func_graph import FuncGraph

    def flatten(vs):
        flat, metas = [], []
        for v in vs:
            if hasattr(v, "__tf_flatten__"):
                m, comps = v.__tf_flatten__()
                metas.append((type(v), m, len(comps)))
                flat.extend(comps)
            else:
                metas.append((None, None, 1))
                flat.append(tf.convert_to_tensor(v))
        return flat, metas

    def pack(metas, flat):
        out, k = [], 0
        for cls, m, n in metas:
            out.append(flat[k] if cls is None else cls.__tf_unflatten__(m, tuple(flat[k:k + n])))
            k += n
        return out

    flat, metas = flatten(loop_vars)

    def trace(fn, name):
        g = FuncGraph(name)
        g._graph.captures_eager_tensors = False
        with g.as_default():
            phs = [g._graph.add_placeholder(t.dtype._type_enum, t.shape.as_list(), "v") for t in flat]
            res = fn(*pack(metas, phs))
            outs = [execute1("Identity", [t], None, "Identity")
                    for t in flatten(res if isinstance(res, (list, tuple)) else [res])[0]]
        return _core.GraphFunction(g._graph, phs, outs, name)

    out = execute("While", flat, {"T": [t.dtype for t in flat], "cond": trace(cond, "cond"),
                                  "body": trace(body, "body"), "output_shapes": [t.shape.as_list() for t in flat],
                                  "parallel_iterations": 10})
    return pack(metas, out)


@tf.function
def _loop_fill(n):
    ta = tf.TensorArray(tf.float32, size=n)
    _, ta, _ = _while_loop(lambda i, ta, n: i < n,
                           lambda i, ta, n: (i + 1, ta.write(i, tf.cast(i, tf.float32)), n),
                           [tf.constant(0), ta, n])
    return ta.stack()


@pytest.mark.parametrize("n", SIZES)
def test_while_loop_writes_eagerflow(benchmark, n):
    """Per-write cost must not grow with n (in-place TensorListSetItem)."""
    nt = tf.constant(n)
    _loop_fill(nt)
    benchmark(_loop_fill, nt)


@pytest.mark.parametrize("n", SIZES)
def test_while_loop_writes_tensorflow(benchmark, n, tf_or_skip):
    tf_ = tf_or_skip

    @tf_.function
    def fill(n):
        ta = tf_.TensorArray(tf_.float32, size=n)
        _, ta = tf_.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, tf_.cast(i, tf_.float32))),
                               [0, ta])
        return ta.stack()

    nt = tf_.constant(n)
    fill(nt)
    benchmark(fill, nt)


def _eager_fill(tf_, n):
    ta = tf_.TensorArray(tf_.float32, size=0, dynamic_size=True)
    for i in range(n):
        ta = ta.write(i, 1.0)
    return ta.stack()


@pytest.mark.parametrize("n", SIZES)
def test_eager_writes_eagerflow(benchmark, n):
    benchmark.pedantic(_eager_fill, args=(tf, n), rounds=3, iterations=1)


@pytest.mark.parametrize("n", SIZES)
def test_eager_writes_tensorflow(benchmark, n, tf_or_skip):
    benchmark.pedantic(_eager_fill, args=(tf_or_skip, n), rounds=3, iterations=1)


def test_unrolled_function_writes_eagerflow(benchmark):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=64)
        for i in range(64):
            ta = ta.write(i, x)
        return ta.stack()

    x = tf.constant([1.0, 2.0])
    f(x)
    benchmark(f, x)
