"""tf.strings namespace."""
from eagerflow.ops.string_ops import join, length
from eagerflow.ops.logging_ops import string_format as format

__all__ = ["format", "join", "length"]
