"""Composite tensors, side by side with TF: sparse_dense_matmul (10,000 nonzeros of a 1000×1000
float32 matrix times 1000×64), to_dense of the same, and ragged row sums / to_tensor / a ragged
elementwise op over 1000 rows of 0..99 values; plus tf.add on two scalars (the dispatch wrapper's
cost on a dense call).

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_composite.py --benchmark-only
"""
import numpy as np
import pytest

import eagerflow as tf

_rng = np.random.default_rng(0)
_FLAT = np.sort(_rng.choice(1000 * 1000, 10000, replace=False))
INDICES = np.stack(np.unravel_index(_FLAT, (1000, 1000)), axis=1).astype(np.int64)
VALUES = _rng.standard_normal(10000).astype(np.float32)
DENSE = _rng.standard_normal((1000, 64)).astype(np.float32)
LENGTHS = _rng.integers(0, 100, 1000)
RAGGED_VALUES = _rng.standard_normal(int(LENGTHS.sum())).astype(np.float32)

CASES = ["sparse_dense_matmul", "sparse_to_dense", "ragged_row_sum", "ragged_to_tensor", "ragged_exp_add",
         "add_scalars"]


def _run(lib, case):
    if case.startswith("sparse"):
        st = lib.sparse.SparseTensor(INDICES, VALUES, [1000, 1000])
        b = lib.constant(DENSE)
        if case == "sparse_dense_matmul":
            return lambda: lib.sparse.sparse_dense_matmul(st, b)
        return lambda: lib.sparse.to_dense(st)
    if case == "add_scalars":
        x, y = lib.constant(1.0), lib.constant(2.0)
        return lambda: lib.add(x, y)
    rt = lib.RaggedTensor.from_row_lengths(lib.constant(RAGGED_VALUES), lib.constant(LENGTHS, lib.int64))
    if case == "ragged_row_sum":
        return lambda: lib.reduce_sum(rt, axis=1)
    if case == "ragged_to_tensor":
        return lambda: rt.to_tensor()
    return lambda: lib.math.exp(rt) + 1.0


@pytest.mark.parametrize("case", CASES)
def test_composite_eagerflow(benchmark, case):
    benchmark(_run(tf, case))


@pytest.mark.parametrize("case", CASES)
def test_composite_tensorflow(benchmark, case, tf_or_skip):
    benchmark(_run(tf_or_skip, case))
