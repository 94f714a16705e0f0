"""tf.linalg namespace."""
from eagerflow.ops.linalg_ops import matmul

__all__ = ["matmul"]
