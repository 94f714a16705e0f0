"""tf.nn activations (relu, relu6, elu, selu, softplus, sigmoid, tanh) over the C++ ops."""
from eagerflow import _core
from eagerflow.framework import dispatch as _dispatch
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.math_ops import sigmoid, softplus, tanh  # noqa: F401 - re-exported as tf.nn.*


def _features(x):
    return x if isinstance(x, _core.Tensor) else convert_to_tensor(x)


def relu(features, name=None):
    """max(features, 0) elementwise (NaN stays NaN)."""
    return execute1("Relu", [_features(features)])


def relu6(features, name=None):
    """min(max(features, 0), 6) elementwise."""
    return execute1("Relu6", [_features(features)])


def elu(features, name=None):
    """features if > 0, else exp(features) - 1."""
    return execute1("Elu", [_features(features)])


def selu(features, name=None):
    """scale * elu with alpha = 1.6732632423543772, scale = 1.0507009873554805."""
    return execute1("Selu", [_features(features)])


# Ragged tensors reach these through framework/dispatch.py, as the other unary elementwise ops.
relu, relu6, elu, selu = (_dispatch.add_dispatch_support(f, "unary") for f in (relu, relu6, elu, selu))
