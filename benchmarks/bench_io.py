"""Checkpoint and summary I/O: write and restore of a ~100 MB model of mixed shapes (MB/s; targets:
>= TF's, and >= 50% of a plain sequential file write of the same bytes measured in the same run), and
tf.summary.scalar per call, eagerly and inside a tf.function (target: <= TF's / 10).

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_io.py --benchmark-only \
        --benchmark-group-by=group --benchmark-columns=min,median
(TF's summary rows need TensorBoard importable, as TF's tf.summary.scalar does.)
"""
import os

import numpy as np
import pytest

import eagerflow as tf

# 5 x 2048^2 + 1000 x 4096 float32 = 100.3 MB
_SHAPES = [(2048, 2048)] * 5 + [(64, 64)] * 1000
MEGABYTES = sum(int(np.prod(s)) for s in _SHAPES) * 4 / 1e6


@pytest.fixture(params=["eagerflow", "tensorflow"])
def lib(request):
    if request.param == "tensorflow":
        return request.getfixturevalue("tf_or_skip")
    return tf


def _checkpoint(lib):
    rng = np.random.default_rng(0)
    variables = [lib.Variable(rng.standard_normal(s, dtype=np.float32)) for s in _SHAPES]
    return lib.train.Checkpoint(v=variables), variables


def _mb_per_s(benchmark):
    benchmark.extra_info["MB"] = round(MEGABYTES, 1)
    benchmark.extra_info["MB/s (median)"] = round(MEGABYTES / benchmark.stats.stats.median, 1)


@pytest.mark.benchmark(group="checkpoint_write_100MB")
def test_plain_file_write(benchmark, tmp_path):
    """The disk's sequential write speed for the same bytes (write + close, no fsync, like a checkpoint)."""
    data = np.random.default_rng(0).standard_normal(int(MEGABYTES * 1e6 / 4), dtype=np.float32).tobytes()

    def write():
        with open(tmp_path / "plain.bin", "wb") as f:
            f.write(data)
    benchmark.pedantic(write, rounds=5, warmup_rounds=1)
    _mb_per_s(benchmark)


@pytest.mark.benchmark(group="checkpoint_write_100MB")
def test_checkpoint_write(benchmark, lib, tmp_path):
    ckpt, _ = _checkpoint(lib)
    prefix = str(tmp_path / "ckpt")
    benchmark.pedantic(lambda: ckpt.write(prefix), rounds=5, warmup_rounds=1)
    _mb_per_s(benchmark)


@pytest.mark.benchmark(group="checkpoint_restore_100MB")
def test_checkpoint_restore(benchmark, lib, tmp_path):
    ckpt, variables = _checkpoint(lib)
    prefix = ckpt.write(str(tmp_path / "ckpt"))
    benchmark.pedantic(lambda: ckpt.restore(prefix), rounds=5, warmup_rounds=1)
    _mb_per_s(benchmark)


def _writer(lib, tmp_path):
    if lib is not tf:
        pytest.importorskip("tensorboard")
    return lib.summary.create_file_writer(str(tmp_path / "tb"))


@pytest.mark.benchmark(group="summary_scalar_eager")
def test_summary_scalar_eager(benchmark, lib, tmp_path):
    writer = _writer(lib, tmp_path)
    value = lib.constant(0.5)
    with writer.as_default():
        benchmark(lambda: lib.summary.scalar("loss", value, step=1))
    writer.close()


@pytest.mark.benchmark(group="summary_scalar_function")
def test_summary_scalar_in_function(benchmark, lib, tmp_path):
    writer = _writer(lib, tmp_path)

    @lib.function
    def log(x, step):
        lib.summary.scalar("loss", x, step=step)
        return x

    x, step = lib.constant(0.5), lib.constant(1, lib.int64)
    with writer.as_default():
        log(x, step)
        benchmark(lambda: log(x, step))
    writer.close()
    assert os.listdir(tmp_path / "tb")
