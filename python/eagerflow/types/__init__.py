"""tf.types: the public type protocols (tf.types.experimental.TraceType)."""
from eagerflow.types import experimental

__all__ = ["experimental"]
