"""tf.einsum of a matmul-shaped equation against tf.matmul on the same operands, eagerly and in a
tf.function, side by side with TF and NumPy (np.einsum with optimize=True, and the @ operator).

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_einsum.py --benchmark-only
"""
import numpy as np
import pytest

import eagerflow as tf

# (name, equation, operand shapes, the matmul that computes the same product)
CASES = [
    ("matmul 512²", "ij,jk->ik", [(512, 512), (512, 512)], dict()),
    ("batched 32×128×128", "bij,bjk->bik", [(32, 128, 128), (32, 128, 128)], dict()),
    ("transposed 512²", "ji,jk->ik", [(512, 512), (512, 512)], dict(transpose_a=True)),
]
IDS = [c[0] for c in CASES]


def _operands(shapes):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s, dtype=np.float32) for s in shapes]


def _fns(lib, case, compiled):
    _, eq, shapes, mm = case
    a, b = (lib.constant(x) for x in _operands(shapes))
    fns = {"einsum": lambda: lib.einsum(eq, a, b), "matmul": lambda: lib.matmul(a, b, **mm)}
    if compiled:
        fns = {k: lib.function(f) for k, f in fns.items()}
    for f in fns.values():
        f()
    return fns


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("op", ["einsum", "matmul"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_einsum_eagerflow(benchmark, case, op, compiled):
    benchmark.group = f"{case[0]} {'function' if compiled else 'eager'}"
    benchmark(_fns(tf, case, compiled)[op])


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("op", ["einsum", "matmul"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_einsum_tensorflow(benchmark, case, op, compiled, tf_or_skip):
    benchmark.group = f"{case[0]} {'function' if compiled else 'eager'}"
    benchmark(_fns(tf_or_skip, case, compiled)[op])


@pytest.mark.parametrize("op", ["einsum", "matmul"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_einsum_numpy(benchmark, case, op):
    _, eq, shapes, mm = case
    a, b = _operands(shapes)
    if mm.get("transpose_a"):
        a_mm = a.T
    else:
        a_mm = a
    benchmark.group = f"{case[0]} eager"
    benchmark(lambda: np.einsum(eq, a, b, optimize=True) if op == "einsum" else a_mm @ b)
