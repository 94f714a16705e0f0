"""tf.io.gfile namespace: glob."""
from eagerflow.ops.io_ops import glob

__all__ = ["glob"]
