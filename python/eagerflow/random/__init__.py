"""tf.random namespace."""
# --- (ops/random_ops.py) ---
