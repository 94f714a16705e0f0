"""eagerflow: TensorFlow 2's eager execution and tf.function, with a small C++ core.

Use it as `import eagerflow as tf`.
"""
from eagerflow._version import __version__
from eagerflow import _core
from eagerflow.framework import dtypes as dtypes
from eagerflow.framework import errors as errors
from eagerflow.framework.dtypes import (DType, as_dtype, bool, complex64, double, float16, float32, float64, half,
                                        int8, int16, int32, int64, string, uint8)
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.convert import constant, convert_to_tensor

from eagerflow import math, nn, linalg, random, strings, config

newaxis = None


from eagerflow.framework.ops import Graph, Operation, executing_eagerly, get_default_graph, init_scope
from eagerflow.function import TensorSpec

# --- elementwise: top-level names (add, multiply, cast, ...) from ops/math_ops.py ---
# --- reductions, matmul, softmax: top-level names from ops/reduction_ops.py, ops/linalg_ops.py ---
# --- array/shape/creation ops: top-level names from ops/array_ops.py ---
from eagerflow.ops.array_ops import (boolean_mask, broadcast_to, concat, expand_dims, gather, gather_nd, identity,
                                     pad, rank, reshape, reverse, shape, size, split, squeeze, stack, tile,
                                     transpose, unstack, where)
from eagerflow.ops.slice_ops import slice, strided_slice
from eagerflow.ops.creation_ops import eye, fill, linspace, one_hot, ones, ones_like, range, zeros, zeros_like
# --- random, strings, Variable, device, function: top-level names ---
from eagerflow.function import function
from eagerflow.ops.variables import Variable, VariableAggregation, VariableSynchronization
from eagerflow.framework.device import device
