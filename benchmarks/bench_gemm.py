"""GEMM benchmarks: tf.matmul on the BLAS (OpenBLAS) and on Eigen's GEMM, NumPy and TensorFlow side by side.

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_gemm.py --benchmark-only \
         --benchmark-columns=min,median --benchmark-sort=name -s
GFLOP/s = extra_info["gflop"] / the min time (extra_info["gflops_per_s"]). Cases: square float32
products 256², 1000², 2000², and a batch of 32 products of 128×128 (BatchMatMulV2).
Per-core figures, which a busy machine disturbs less: one thread each, CPU time (conftest.py),
    BENCH_THREADS=1 OPENBLAS_NUM_THREADS=1 TF_NUM_INTRAOP_THREADS=1 ... --benchmark-timer=time.process_time
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

CASES = {"256": (1, 256), "1000": (1, 1000), "2000": (1, 2000), "32x128": (32, 128)}


def _operands(case):
    batch, n = CASES[case]
    shape = (batch, n, n) if batch > 1 else (n, n)
    rng = np.random.default_rng(0)
    return rng.standard_normal(shape, dtype=np.float32), rng.standard_normal(shape, dtype=np.float32), 2 * batch * n**3 / 1e9


def _bench(benchmark, run, gflop):
    run()
    rounds = max(5, min(200, int(2 / gflop)))
    benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=2)
    benchmark.extra_info["gflop"] = round(gflop, 4)
    benchmark.extra_info["gflops_per_s"] = round(gflop / benchmark.stats.stats.min, 1)


@pytest.fixture(params=["blas", "eigen"])
def gemm_backend(request):
    if request.param == "blas" and not _core.blas_available():
        pytest.skip("built without a BLAS")
    was = _core.blas_enabled()
    _core.set_blas_enabled(request.param == "blas")
    yield
    _core.set_blas_enabled(was)


@pytest.mark.parametrize("case", list(CASES))
def test_matmul_eagerflow(benchmark, case, gemm_backend):
    a, b, gflop = _operands(case)
    a, b = tf.constant(a), tf.constant(b)
    _bench(benchmark, lambda: tf.matmul(a, b), gflop)


@pytest.mark.parametrize("case", list(CASES))
def test_matmul_numpy(benchmark, case):
    a, b, gflop = _operands(case)
    _bench(benchmark, lambda: a @ b, gflop)


@pytest.mark.parametrize("case", list(CASES))
def test_matmul_tensorflow(benchmark, case, tf_or_skip):
    a, b, gflop = _operands(case)
    a, b = tf_or_skip.constant(a), tf_or_skip.constant(b)
    _bench(benchmark, lambda: tf_or_skip.matmul(a, b), gflop)
