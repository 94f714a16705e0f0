"""tf.strings namespace."""
# --- (ops/string_ops.py) ---
