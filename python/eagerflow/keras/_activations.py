"""tf.keras.activations: functions by name for layers' `activation` argument."""
from eagerflow.ops import math_ops, nn_activation_ops, nn_ops


def linear(x):
    return x


def relu(x):
    return nn_activation_ops.relu(x)


def sigmoid(x):
    return math_ops.sigmoid(x)


def tanh(x):
    return math_ops.tanh(x)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return nn_ops.log_softmax(x, axis=axis)


def elu(x, alpha=1.0):
    return nn_activation_ops.elu(x) if alpha == 1.0 else math_ops.maximum(x, 0) + alpha * math_ops.minimum(
        math_ops.exp(x) - 1, 0)


def selu(x):
    return nn_activation_ops.selu(x)


def softplus(x):
    return nn_activation_ops.softplus(x)


def relu6(x):
    return nn_activation_ops.relu6(x)


def exponential(x):
    return math_ops.exp(x)


_ALL = {f.__name__: f for f in (linear, relu, sigmoid, tanh, softmax, log_softmax, elu, selu, softplus, relu6,
                                 exponential)}


def get(identifier):
    """The activation for a name or callable; None means linear (Keras's rule)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str) and identifier in _ALL:
        return _ALL[identifier]
    if callable(identifier) and not isinstance(identifier, str):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation):
    return getattr(activation, "__name__", str(activation))
