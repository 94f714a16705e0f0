"""tf.sparse namespace."""
from eagerflow.framework.sparse_tensor import SparseTensor
from eagerflow.ops.sparse_extras import (concat, expand_dims, map_values, reduce_max, reshape, retain, slice,
                                         transpose)
from eagerflow.ops.sparse_ops import (add, from_dense, reduce_sum, reorder, sparse_dense_matmul, to_dense)

__all__ = ["SparseTensor", "add", "concat", "expand_dims", "from_dense", "map_values", "reduce_max", "reduce_sum",
           "reorder", "reshape", "retain", "slice", "sparse_dense_matmul", "to_dense", "transpose"]
