"""tf.TensorArray benchmarks: writes in a graph While loop must cost O(1) each (the
list is updated in place), eager writes too (copy-on-write chunks); compare n = 1k vs 10k rows.

Run: pytest benchmarks/bench_tensor_array.py --benchmark-only
"""
import pytest

import eagerflow as tf

SIZES = [1000, 10000]


@tf.function
def _loop_fill(n):
    ta = tf.TensorArray(tf.float32, size=n)
    _, ta, _ = tf.while_loop(lambda i, ta, n: i < n,
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


@tf.function
def _autograph_fill(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, tf.cast(i, tf.float32))
    return ta.stack()


@pytest.mark.parametrize("n", SIZES)
def test_autograph_for_writes_eagerflow(benchmark, n):
    nt = tf.constant(n)
    _autograph_fill(nt)
    benchmark(_autograph_fill, nt)


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
