"""Dense linear algebra: tf.linalg.solve, inv, cholesky on 500×500 float32, side by side with NumPy and TF.

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_linalg.py --benchmark-only
"""
import numpy as np
import pytest

import eagerflow as tf

N = 500


def _inputs():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((N, N)) + N ** 0.5 * np.eye(N)).astype(np.float32)
    return a, rng.standard_normal((N, 1)).astype(np.float32), (a @ a.T).astype(np.float32)


A, B, SPD = _inputs()
OPS = ["solve", "inv", "cholesky"]


def _run(lib, op):
    if op == "solve":
        a, b = lib.constant(A), lib.constant(B)
        return lambda: lib.linalg.solve(a, b)
    x = lib.constant(SPD if op == "cholesky" else A)
    fn = getattr(lib.linalg, op)
    return lambda: fn(x)


@pytest.mark.parametrize("op", OPS)
def test_linalg_500_eagerflow(benchmark, op):
    benchmark(_run(tf, op))


@pytest.mark.parametrize("op", OPS)
def test_linalg_500_tensorflow(benchmark, op, tf_or_skip):
    benchmark(_run(tf_or_skip, op))


@pytest.mark.parametrize("op", OPS)
def test_linalg_500_numpy(benchmark, op):
    fns = {"solve": lambda: np.linalg.solve(A, B), "inv": lambda: np.linalg.inv(A),
           "cholesky": lambda: np.linalg.cholesky(SPD)}
    benchmark(fns[op])
