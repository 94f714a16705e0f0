"""tf.linalg namespace."""
# --- (ops/linalg_ops.py) ---
