"""The tour printed by `python -m eagerflow`: a few eager results and the eager timing table."""
import timeit

import numpy as np


def _best_us(fn, number):
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def timing_table():
    """Rows of (what, eagerflow, numpy, unit) measured now on this machine."""
    import eagerflow as tf

    rows = []
    a, b = tf.constant([1.0, 2.0, 3.0, 4.0]), tf.constant([5.0, 6.0, 7.0, 8.0])
    na, nb = a.numpy(), b.numpy()
    rows.append(("a + b, 4 x float32", _best_us(lambda: a + b, 20000), _best_us(lambda: na + nb, 20000), "us/op"))
    s, t = tf.constant(1.5), tf.constant(2.5)
    ns, nt = np.array(1.5, np.float32), np.array(2.5, np.float32)  # 0-d arrays: NumPy's array path, as tensors
    rows.append(("a + b, float32 scalars, 0-d", _best_us(lambda: s + t, 20000), _best_us(lambda: ns + nt, 20000), "us/op"))
    rng = np.random.default_rng(0)
    m = rng.standard_normal((1000, 1000), dtype=np.float32)
    tm = tf.constant(m)
    gf = lambda us: 2e9 / (us * 1e-6) / 1e9  # noqa: E731
    rows.append(("matmul 1000x1000 float32", gf(_best_us(lambda: tf.matmul(tm, tm), 3)), gf(_best_us(lambda: m @ m, 3)),
                 "GFLOP/s"))
    big_a, big_b = np.ones(10_000_000, np.float32), np.ones(10_000_000, np.float32)
    ta, tb = tf.constant(big_a), tf.constant(big_b)
    gbs = lambda us: 1.2e8 / (us * 1e-6) / 1e9  # noqa: E731
    rows.append(("add 1e7 float32", gbs(_best_us(lambda: ta + tb, 5)), gbs(_best_us(lambda: big_a + big_b, 5)), "GB/s"))
    return rows


def main():
    import eagerflow as tf

    print(f"eagerflow {tf.__version__} -- eager execution is on: {tf.executing_eagerly()}\n")
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    print(">>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])")
    print(">>> x + 1\n" + str(x + 1))
    print(">>> tf.matmul(x, x)\n" + repr(tf.matmul(x, x)))
    print(">>> tf.reduce_sum(x).numpy()\n" + repr(tf.reduce_sum(x).numpy()))
    print(">>> np.mean(x)\n" + str(np.mean(x)))
    print("\nEager timings (best of 5; higher GFLOP/s and GB/s are better):")
    print(f"{'what':<28}{'eagerflow':>12}{'NumPy':>12}{'ratio':>8}  unit")
    for what, ef, npv, unit in timing_table():
        ratio = ef / npv if unit != "us/op" else npv / ef
        print(f"{what:<28}{ef:>12.3f}{npv:>12.3f}{ratio:>8.2f}  {unit}")
    print("(ratio: eagerflow speed relative to NumPy; 1.0 = as fast. Timings are noisy on a shared or busy "
          "machine: run again to compare.)")
    print("\nNext: the notebooks in notebooks/ (eager execution; tf.function, AutoGraph and gradients; Keras "
          "models and fit) and the docs in docs/ (api.md, architecture.md, performance.md).")
