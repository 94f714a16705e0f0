"""tf.nn namespace."""
# --- activations (ops/nn_activation_ops.py, ops/math_ops.py) ---
from eagerflow.ops.nn_activation_ops import elu, relu, relu6, selu, sigmoid, softplus, tanh
from eagerflow.ops.math_ops import softsign
# --- softmax (ops/nn_ops.py) ---
from eagerflow.ops.nn_ops import log_softmax, softmax

__all__ = ["elu", "log_softmax", "relu", "relu6", "selu", "sigmoid", "softmax", "softplus", "softsign", "tanh"]
