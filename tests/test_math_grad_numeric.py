"""Numerical checks of the math-op gradients (registered by math_grad.py on the tape branch): one
table of cases so that every differentiable op of the registry has a float64 finite-difference
check. Cases whose gradient is not registered yet are skipped."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow.framework import gradient_registry
from eagerflow import _core
from gradient_checker import call_gradient, check_gradients, check_graph

_rng = np.random.default_rng(11)


def f(*shape):
    return _rng.standard_normal(shape)


def pos(*shape):
    return _rng.uniform(0.5, 2.0, shape)


def away0(*shape):
    x = f(*shape)
    return np.where(np.abs(x) < 0.2, x + np.sign(x + 1e-9) * 0.3, x)


def i32(v):
    return np.array(v, np.int32)


def f64(v):
    return np.array(v, np.float64)


def distinct(*shape):
    """Values at least 0.05 apart (no ties for Max/Min/Maximum)."""
    n = int(np.prod(shape))
    return _rng.permutation(np.arange(n) * 0.1 - n * 0.05).reshape(shape)


CASES = [
    ("Abs", [away0(3, 2)], None),
    ("Neg", [f(4)], None),
    ("Identity", [f(2, 3)], None),
    ("Cast", [f(2, 3)], {"DstT": tf.float64}),
    ("Square", [f(3)], None),
    ("Sqrt", [pos(3, 2)], None),
    ("Rsqrt", [pos(3, 2)], None),
    ("Reciprocal", [away0(5)], None),
    ("Exp", [f(2, 2)], None),
    ("Expm1", [f(2, 2)], None),
    ("Log", [pos(4)], None),
    ("Log1p", [pos(4) - 0.4], None),
    ("Sin", [f(4)], None),
    ("Cos", [f(4)], None),
    ("Tan", [f(4) * 0.3], None),
    ("Sigmoid", [f(3, 2)], None),
    ("Tanh", [f(3, 2)], None),
    ("AddV2", [f(2, 3), f(3)], None),
    ("AddV2", [f(2, 1), f(1, 3)], None),
    ("Sub", [f(2, 3), f(2, 1)], None),
    ("Mul", [f(2, 3), f()], None),
    ("RealDiv", [f(2, 3), away0(3)], None),
    ("Maximum", [distinct(2, 3), distinct(3) + 0.025], None),
    ("Minimum", [distinct(2, 3), distinct(2, 1) + 0.025], None),
    ("Pow", [pos(2, 3), f(3)], None),
    ("SquaredDifference", [f(2, 3), f(3)], None),
    ("FloorMod", [f64([0.3, 1.7, -2.2]), f64([1.0, 0.7, 0.9])], None),
    ("AddN", [f(2, 3), f(2, 3), f(2, 3)], None),
    ("ClipByValue", [f64([-2.0, -0.2, 0.3, 1.5]), f64(-1.0), f64(1.0)], None),
    ("Sum", [f(2, 3, 2), i32([1])], {"keep_dims": False}),
    ("Sum", [f(2, 3), i32([-1, 0])], {"keep_dims": True}),
    ("Sum", [f(0, 3), i32([0])], None),
    ("Mean", [f(2, 3), i32([0])], None),
    ("Mean", [f(2, 3, 2), i32([-1])], {"keep_dims": True}),
    ("Prod", [away0(2, 3), i32([1])], None),
    ("Max", [distinct(2, 3), i32([1])], None),
    ("Min", [distinct(2, 3), i32([0])], {"keep_dims": True}),
    ("Cumprod", [away0(2, 3), i32(1)], None),
    ("Cumprod", [away0(4), i32(0)], {"exclusive": True, "reverse": True}),
]

# Piecewise-constant ops: TF's gradient is None (Floor, Ceil, Round, FloorDiv) or zeros (Sign).
ZERO_GRADIENT = {"Floor": [f(3)], "Ceil": [f(3)], "Round": [f(3)], "Sign": [f(3)], "FloorDiv": [f(3), away0(3)]}

# Differentiable ops without a real-valued finite-difference case, with the reason.
NO_NUMERIC_CASE = {
    "ComplexAbs": "complex input: the checker perturbs real inputs only",
    "EagerPyFunc": "gradient comes from the tape running the Python function's recorded ops",
    "ReadVariableOp": "resource input: checked by the tape's variable tests",
}
NO_NUMERIC_CASE.update({op.name: "variant (TensorList) inputs: exact checks in test_tensor_array.py"
                        for op in _core.list_ops() if "TensorList" in op.name})


def _registered(op):
    try:
        return gradient_registry.get_gradient_function(op) is not None
    except LookupError:
        return False


def _ids():
    return ["%s-%d" % (c[0], i) for i, c in enumerate(CASES)]


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_numerical_gradient(case):
    op, inputs, attrs = case
    if not _registered(op):
        pytest.skip("%s's gradient comes from math_grad.py (tape branch)" % op)
    check_gradients(op, inputs, attrs, atol=1e-5, rtol=1e-5)
    check_graph(op, inputs, attrs)


@pytest.mark.parametrize("op", sorted(ZERO_GRADIENT))
def test_piecewise_constant_ops_have_zero_gradients(op):
    try:
        fn = gradient_registry.get_gradient_function(op)
    except LookupError:
        pytest.skip("%s's gradient comes from math_grad.py (tape branch)" % op)
    if fn is None:
        return
    inputs = ZERO_GRADIENT[op]
    grads = call_gradient(op, inputs, None, [np.ones(np.broadcast_shapes(*[np.shape(x) for x in inputs]))])
    for g in grads:
        assert g is None or not np.any(g.numpy()), op
