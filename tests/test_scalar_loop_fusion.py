"""The scalar loop interpreter's superinstructions (a whole loop of 2 or 3 instructions run natively,
pairs of consecutive instructions sharing a step) give the same bits as the interpreter without
them and as the general path (the plans), for every fusable op, predicate and dtype."""
import itertools

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.config import optimizer

DTYPES = [tf.float32, tf.float64, tf.int32, tf.int64]
VALUES = {"AddV2": tf.add, "Sub": tf.subtract, "Mul": tf.multiply}
# A counter update and a predicate that ends the loop after a few iterations: (update, step,
# start, predicate, bound). Every value op and every predicate appears.
COUNTERS = [
    ("AddV2", 1, 0, tf.less, 5), ("AddV2", 2, 0, tf.less_equal, 7), ("AddV2", 1, 0, tf.not_equal, 4),
    ("AddV2", 1, 0, tf.equal, 0), ("Sub", 1, 6, tf.greater, 0), ("Sub", 2, 9, tf.greater_equal, 1),
    ("Mul", 2, 1, tf.less, 40), ("Mul", 3, 1, tf.not_equal, 81),
]


def _three_ways(fn, *args):
    """fn by the plans, by the interpreter without superinstructions, and with them."""
    out = []
    try:
        optimizer.set_experimental_options({"loop_optimization": False})
        out.append(tf.function(fn)(*args))
        optimizer.set_experimental_options({"loop_optimization": None})
        for fused in (False, True):
            _core.set_scalar_loop_fusion(fused)
            f = tf.function(fn)
            out.append(f(*args))
            g = f.get_concrete_function(*args).graph
            attrs = [op for op in g.get_operations() if op.type.endswith("While")][0]._node.attrs()
            assert _core.scalar_loop_supported(attrs["cond"], attrs["body"])
    finally:
        optimizer.set_experimental_options({"loop_optimization": None})
        _core.set_scalar_loop_fusion(True)
    return out


def _assert_all_same(results):
    first = tf.nest.flatten(results[0])
    for r in results[1:]:
        for a, b in zip(first, tf.nest.flatten(r)):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("counter", COUNTERS, ids=lambda c: "%s-%s" % (c[0], c[3].__name__))
@pytest.mark.parametrize("acc", sorted(VALUES))
def test_whole_loop_of_three(dtype, counter, acc):
    """[acc = acc F i, i = i G step, P(i, bound)]: one native loop."""
    update, step, start, pred, bound = counter
    c = tf.constant(step, dtype)

    def loop(n):
        return tf.while_loop(lambda i, s: pred(i, n), lambda i, s: (VALUES[update](i, c), VALUES[acc](s, i)),
                             (tf.constant(start, dtype), tf.constant(3, dtype)))
    _assert_all_same(_three_ways(loop, tf.constant(bound, dtype)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("counter", COUNTERS, ids=lambda c: "%s-%s" % (c[0], c[3].__name__))
def test_whole_loop_of_two(dtype, counter):
    update, step, start, pred, bound = counter
    c = tf.constant(step, dtype)

    def loop(n):
        return tf.while_loop(lambda i: pred(i, n), lambda i: VALUES[update](i, c), (tf.constant(start, dtype),))
    _assert_all_same(_three_ways(loop, tf.constant(bound, dtype)))


@pytest.mark.parametrize("n", [0, 1, 2, 7, 1000])
def test_pairs_across_dtypes(n):
    """x = x * 0.99 + 1 (float32), y (float64) and k (int64) beside an int32 counter: pairs of mixed
    dtypes, then a value fused with the branch."""
    def loop(n):
        return tf.while_loop(
            lambda i, x, y, k: i < n,
            lambda i, x, y, k: (i + 1, x * 0.99 + 1.0, y * 0.5 - 1e-3, k * 3 - 1),
            (0, tf.constant(0.5), tf.constant(2.0, tf.float64), tf.constant(1, tf.int64)))
    _assert_all_same(_three_ways(loop, tf.constant(n)))


@pytest.mark.parametrize("a,b", list(itertools.product(sorted(VALUES), repeat=2)))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_every_value_pair(a, b, dtype):
    """Four value steps (two pairs) and the branch, for every pair of value ops."""
    c, d = tf.constant(3, dtype), tf.constant(2, dtype)

    def loop(n):
        return tf.while_loop(lambda i, x, y: i < n,
                             lambda i, x, y: (i + 1, VALUES[b](VALUES[a](x, c), d), VALUES[a](y, x)),
                             (0, tf.constant(1, dtype), tf.constant(5, dtype)))
    _assert_all_same(_three_ways(loop, tf.constant(6)))


def test_int32_wraps_in_a_native_loop():
    def loop(n):
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))
    res = _three_ways(loop, tf.constant(100_000))
    _assert_all_same(res)
    assert res[2][1].numpy() == np.int32(np.int64(100_000 * 99_999 // 2).astype(np.uint32).astype(np.int32))


def test_float_overflow_ends_a_native_loop():
    def loop(n):  # x overflows to inf, and inf < inf is false
        return tf.while_loop(lambda x: x < n, lambda x: x * 1e30, (tf.constant(1.0),))
    _assert_all_same(_three_ways(loop, tf.constant(float("inf"))))


def _wirings():
    """Counter-and-accumulator loops in the operand orders and conditions the fuser canonicalizes
    (commuted AddV2/Mul operands, mirrored predicates, the condition on the accumulator), and
    shapes it leaves to pairs (c - i, i < s, s + s)."""
    c = 1
    return {
        "s+i, i+1, i<n": lambda i, s, n: (i < n, (i + c, s + i)),
        "i+s, 1+i, n>i": lambda i, s, n: (n > i, (c + i, i + s)),
        "s*2, i+1, n>=i": lambda i, s, n: (n >= i, (i + c, s * 2)),
        "s-i, i+1, s>-n": lambda i, s, n: (s > -n, (i + c, s - i)),
        "2-s (not fused), i+1, i<n": lambda i, s, n: (i < n, (i + c, 2 - s)),
        "s+s, i+1, i<n": lambda i, s, n: (i < n, (i + c, s + s)),
        "s+i, i+1, i<s": lambda i, s, n: (i < s, (i + c, s + i)),
        "s+i, i+1, i!=n": lambda i, s, n: (tf.not_equal(i, n), (i + c, s + i)),
    }


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
@pytest.mark.parametrize("name", sorted(_wirings()))
@pytest.mark.parametrize("n", [0, 1, 9])
def test_counter_and_accumulator_wirings(dtype, name, n):
    fn = _wirings()[name]

    def loop(n):
        return tf.while_loop(lambda i, s: fn(i, s, n)[0], lambda i, s: fn(i, s, n)[1],
                             (tf.constant(0, dtype), tf.constant(1, dtype)))
    _assert_all_same(_three_ways(loop, tf.constant(n, dtype)))
