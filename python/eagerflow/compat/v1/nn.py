"""tf.compat.v1.nn: the TF1-only names (fused_batch_norm); the rest of tf.nn is not mirrored here yet."""
from eagerflow.ops.nn_impl import fused_batch_norm

__all__ = ["fused_batch_norm"]
