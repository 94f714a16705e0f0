"""tf.nn namespace."""
# --- softmax (ops/nn_ops.py) ---
from eagerflow.ops.nn_ops import log_softmax, softmax
# --- activations and softmax (ops/nn_ops.py) ---
