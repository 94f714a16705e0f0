"""tf.strings namespace."""
# --- (ops/string_ops.py) ---
from eagerflow.ops.string_ops import join, length
