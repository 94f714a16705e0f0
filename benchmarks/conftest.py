"""Benchmark fixtures: TensorFlow is compared side by side when it is installed (extra 'tf').

BENCH_THREADS=n sets eagerflow's intra-op threads (with OPENBLAS_NUM_THREADS=n for NumPy and
TF_NUM_INTRAOP_THREADS=n for TensorFlow: per-core comparisons, e.g. with
--benchmark-timer=time.process_time on a busy machine)."""
import os

import pytest

import eagerflow

if os.environ.get("BENCH_THREADS"):
    eagerflow.config.threading.set_intra_op_parallelism_threads(int(os.environ["BENCH_THREADS"]))

try:  # pragma: no cover - optional
    import tensorflow as real_tf  # noqa: F401
except Exception:  # ImportError, or a broken install
    real_tf = None


@pytest.fixture
def tf_or_skip():
    if real_tf is None:
        pytest.skip("TensorFlow is not installed (pip install '.[tf]' to compare)")
    return real_tf
