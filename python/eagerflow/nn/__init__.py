"""tf.nn namespace."""
# --- activations and softmax (ops/nn_ops.py) ---
# --- softmax (ops/nn_ops.py) ---
from eagerflow.ops.nn_ops import log_softmax, softmax
