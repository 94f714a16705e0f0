"""tf.nn namespace."""
# --- softmax (ops/nn_ops.py) ---
from eagerflow.ops.nn_ops import log_softmax, softmax
# --- activations and softmax (ops/nn_ops.py) ---
# activations (elementwise helper): ops/nn_activation_ops.py
from eagerflow.ops.nn_activation_ops import elu, relu, relu6, selu, sigmoid, softplus, tanh
from eagerflow.ops.math_ops import softsign
# end activations (elementwise helper)
