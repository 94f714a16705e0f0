"""tf.nn namespace."""
# --- activations and softmax (ops/nn_ops.py) ---
