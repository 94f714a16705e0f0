"""Gradients of the activation and softmax ops (importing this module registers them).

Written with differentiable ops (SelectV2, Mul, Sum, ...) instead of TF's fused *Grad kernels, so
second derivatives come for free. Sigmoid and Tanh are math ops: their gradients live in math_grad."""
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute1

# SELU's constants (Klambauer et al.), as in TF's kernel.
_SELU_SCALE = 1.0507009873554804934193349852946
_SELU_ALPHA = 1.6732632423543772848170429916717


def _where(cond, a, b):
    return execute1("SelectV2", [cond, a, b])


@RegisterGradient("Relu")
def _relu_grad(op, grad):
    # TF's ReluGrad: the gradient passes where the output is > 0 (so 0 at x == 0).
    y = op.outputs[0]
    return [_where(execute1("Greater", [y, u.scalar_like(0, y)]), grad, u.zeros_like(grad))]


@RegisterGradient("Relu6")
def _relu6_grad(op, grad):
    y = op.outputs[0]
    inside = execute1("LogicalAnd", [execute1("Greater", [y, u.scalar_like(0, y)]),
                                     execute1("Less", [y, u.scalar_like(6, y)])])
    return [_where(inside, grad, u.zeros_like(grad))]


@RegisterGradient("Elu")
def _elu_grad(op, grad):
    # d/dx = 1 for x > 0, exp(x) = y + 1 otherwise (TF's EluGrad uses the output).
    y = op.outputs[0]
    neg = execute1("Less", [y, u.scalar_like(0, y)])
    return [_where(neg, execute1("Mul", [grad, execute1("AddV2", [y, u.scalar_like(1, y)])]), grad)]


@RegisterGradient("Selu")
def _selu_grad(op, grad):
    y = op.outputs[0]
    neg = execute1("Less", [y, u.scalar_like(0, y)])
    return [_where(neg, execute1("Mul", [grad, execute1("AddV2", [y, u.scalar_like(_SELU_SCALE * _SELU_ALPHA, y)])]),
                   execute1("Mul", [grad, u.scalar_like(_SELU_SCALE, y)]))]


@RegisterGradient("Softplus")
def _softplus_grad(op, grad):
    return [execute1("Mul", [grad, execute1("Sigmoid", [op.inputs[0]])])]


@RegisterGradient("Softmax")
def _softmax_grad(op, grad):
    # (g - sum(g * y, -1)) * y over the last axis (the op's only axis).
    y = op.outputs[0]
    dot = execute1("Sum", [execute1("Mul", [grad, y]), u.const(-1)], {"keep_dims": True})
    return [execute1("Mul", [execute1("Sub", [grad, dot]), y])]


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    # g - sum(g, -1) * softmax, with softmax = exp(log_softmax).
    y = op.outputs[0]
    total = execute1("Sum", [grad, u.const(-1)], {"keep_dims": True})
    return [execute1("Sub", [grad, execute1("Mul", [total, execute1("Exp", [y])])])]
