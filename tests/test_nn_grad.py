"""Numerical checks of the activation and softmax gradients, values at the kinks (TF's), graphs."""
import numpy as np
import pytest

import eagerflow as tf
from gradient_checker import call_gradient, check_gradients, check_graph

_rng = np.random.default_rng(7)

# Inputs kept away from the kinks (central differences across a kink are meaningless).
def away(*shape, kinks=(0.0,)):
    x = _rng.standard_normal(shape) * 3
    for k in kinks:
        x = np.where(np.abs(x - k) < 1e-2, x + 0.1, x)
    return x


OPS = ["Relu", "Relu6", "Elu", "Selu", "Softplus", "Softmax", "LogSoftmax"]
SHAPES = [(5,), (3, 4), (2, 3, 2), (1, 1)]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_numerical_gradient(op, shape):
    check_gradients(op, [away(*shape, kinks=(0.0, 6.0))], atol=1e-6)


@pytest.mark.parametrize("op", OPS)
def test_graph_gradient_matches_eager(op):
    check_graph(op, [away(3, 4, kinks=(0.0, 6.0))])


@pytest.mark.parametrize("op", OPS)
def test_zero_size(op):
    g = call_gradient(op, [np.zeros((0, 3))], None, [np.zeros((0, 3))])[0]
    assert tuple(g.shape) == (0, 3)


# Gradients at -1, 0, 3, 6, 7 from TF 2.21's GradientTape (float32).
AT_KINKS = {
    "Relu": [0, 0, 1, 1, 1],
    "Relu6": [0, 0, 1, 0, 0],
    "Elu": [0.36787945, 1, 1, 1, 1],
    "Selu": [0.64676857, 1.050701, 1.050701, 1.050701, 1.050701],
    "Softplus": [0.26894143, 0.5, 0.95257413, 0.99752736, 0.99908894],
}


@pytest.mark.parametrize("op", sorted(AT_KINKS))
def test_values_at_kinks_match_tf(op):
    x = np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32)
    g = call_gradient(op, [x], None, [np.ones(5, np.float32)])[0]
    assert g.dtype == tf.float32
    np.testing.assert_allclose(g.numpy(), AT_KINKS[op], rtol=1e-6)


def test_softmax_gradient_of_sum_is_zero():
    # sum(softmax) == 1, so a uniform upstream gradient gives zero.
    g = call_gradient("Softmax", [away(2, 5)], None, [np.ones((2, 5))])[0]
    np.testing.assert_allclose(g.numpy(), 0, atol=1e-12)


def test_log_softmax_gradient_with_extreme_logits_is_finite():
    g = call_gradient("LogSoftmax", [np.array([[1000.0, 0.0, -1000.0]])], None, [np.array([[1.0, 0.0, 0.0]])])[0]
    np.testing.assert_allclose(g.numpy(), [[0, 0, 0]], atol=1e-12)
