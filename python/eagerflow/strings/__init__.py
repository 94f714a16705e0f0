"""tf.strings namespace."""
# --- (ops/string_ops.py) ---
from eagerflow.ops.string_ops import join, length
# --- tf.strings.format (ops/logging_ops.py) ---
from eagerflow.ops.logging_ops import string_format as format
