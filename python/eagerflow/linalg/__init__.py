"""tf.linalg namespace."""
from eagerflow.ops.einsum_ops import einsum, tensordot
from eagerflow.ops.linalg_ops import matmul
from eagerflow.ops.nn_ops import global_norm
from eagerflow.ops.norm_ops import matvec, norm, trace

__all__ = ["einsum", "global_norm", "matmul", "matvec", "norm", "tensordot", "trace"]
