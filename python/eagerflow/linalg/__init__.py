"""tf.linalg namespace."""
# --- (ops/linalg_ops.py) ---
from eagerflow.ops.linalg_ops import matmul
