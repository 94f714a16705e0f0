"""tf.math namespace."""
# --- elementwise (ops/math_ops.py) ---
# --- reductions and linalg (ops/reduction_ops.py, ops/linalg_ops.py) ---
