"""tf.sparse namespace."""
from eagerflow.framework.sparse_tensor import SparseTensor
from eagerflow.ops.sparse_ops import (add, from_dense, reduce_sum, reorder, sparse_dense_matmul, to_dense)

__all__ = ["SparseTensor", "add", "from_dense", "reduce_sum", "reorder", "sparse_dense_matmul", "to_dense"]
