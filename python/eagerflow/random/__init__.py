"""tf.random namespace."""
# --- (ops/random_ops.py) ---
from eagerflow.ops.random_ops import normal, set_seed, shuffle, truncated_normal, uniform
