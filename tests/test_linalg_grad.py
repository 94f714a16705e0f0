"""Numerical checks of the matrix-product gradients (MatMul, BatchMatMulV2: registered by
math_grad.py, as in TF) and of linalg_grad.py's registrations."""
import importlib

import numpy as np
import pytest

from gradient_checker import check_gradients, check_graph

_rng = np.random.default_rng(3)


def f(*shape):
    return _rng.standard_normal(shape)


CASES = [
    ("MatMul", [f(2, 3), f(3, 4)], None),
    ("MatMul", [f(3, 2), f(3, 4)], {"transpose_a": True}),
    ("MatMul", [f(2, 3), f(4, 3)], {"transpose_b": True}),
    ("MatMul", [f(3, 2), f(4, 3)], {"transpose_a": True, "transpose_b": True}),
    ("MatMul", [f(0, 3), f(3, 2)], None),
    ("BatchMatMulV2", [f(2, 2, 3), f(2, 3, 2)], None),
    ("BatchMatMulV2", [f(2, 1, 2, 3), f(3, 3, 2)], None),  # broadcast batch dims
    ("BatchMatMulV2", [f(2, 3, 2), f(2, 4, 3)], {"adj_x": True, "adj_y": True}),
    ("BatchMatMulV2", [f(2, 3), f(2, 3, 2)], None),
]


def test_linalg_grad_module_imports_standalone():
    importlib.import_module("eagerflow.ops.linalg_grad")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0] if isinstance(c, str) else None)
def test_numerical_gradient(case):
    op, inputs, attrs = case
    check_gradients(op, inputs, attrs)
    check_graph(op, inputs, attrs)
