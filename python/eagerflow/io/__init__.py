"""tf.io namespace: file-system helpers (matching_files; gfile.glob)."""
from eagerflow.ops.io_ops import matching_files
from eagerflow.io import gfile

__all__ = ["gfile", "matching_files"]
