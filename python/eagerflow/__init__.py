"""eagerflow: TensorFlow 2's eager execution and tf.function, with a small C++ core.

Use it as `import eagerflow as tf`.
"""
from eagerflow._version import __version__
from eagerflow import _core

# --- tf.Tensor, dtypes, shapes, conversion (framework/) ---
from eagerflow.framework.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16,
                                        float32, float64, half, int8, int16, int32, int64, resource, string, uint8,
                                        uint16, uint32, uint64, variant)
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.convert import constant, convert_to_tensor_v2 as convert_to_tensor
from eagerflow.framework.device import device
from eagerflow.framework.tf_logging import get_logger

newaxis = None

# --- graphs and scopes (framework/ops.py) ---
from eagerflow.framework.ops import (Graph, Operation, control_dependencies, executing_eagerly, get_default_graph,
                                     get_current_name_scope, init_scope, inside_function, is_symbolic_tensor,
                                     name_scope)

# --- elementwise math (ops/math_ops.py) ---
from eagerflow.ops.math_ops import (acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh, truncatediv, truncatemod)
from eagerflow.ops.math_ops import (abs, add, add_n, cast, clip_by_value, cos, divide, equal, exp, floor, greater,
                                    greater_equal, less, less_equal, logical_and, logical_not, logical_or, maximum,
                                    minimum, multiply, negative, not_equal, pow, round, scalar_mul, sigmoid, sign,
                                    sin, sqrt, square, subtract, tan, tanh, truediv)

# --- reductions, matmul, norms (ops/reduction_ops.py, ops/linalg_ops.py, ops/nn_ops.py) ---
from eagerflow.ops.reduction_ops import (argmax, argmin, cumsum, reduce_all, reduce_any, reduce_logsumexp,
                                         reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum)
from eagerflow.ops.linalg_ops import matmul
from eagerflow.ops.einsum_ops import einsum, tensordot
from eagerflow.ops.norm_ops import norm
from eagerflow.ops.nn_ops import clip_by_global_norm, clip_by_norm
from eagerflow.ops.array_extras import broadcast_dynamic_shape, broadcast_static_shape, is_tensor, meshgrid, repeat

# --- arrays, slicing, creation (ops/array_ops.py, ops/slice_ops.py, ops/creation_ops.py) ---
from eagerflow.ops.array_ops import (boolean_mask, broadcast_to, concat, expand_dims, gather, gather_nd, identity,
                                     pad, rank, reshape, reverse, shape, size, split, squeeze, stack, tile,
                                     transpose, unstack, where)
from eagerflow.ops.slice_ops import slice, strided_slice
from eagerflow.ops.creation_ops import eye, fill, linspace, one_hot, ones, ones_like, range, zeros, zeros_like
from eagerflow.ops.grad_support_ops import scatter_nd

# --- sorting, searching and scatters (ops/sort_ops.py, ops/unique_ops.py, ops/scatter_ops.py) ---
from eagerflow.ops.sort_ops import argsort, searchsorted, sort
from eagerflow.ops.unique_ops import unique, unique_with_counts
from eagerflow.ops.scatter_ops import (tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,
                                       tensor_scatter_nd_sub, tensor_scatter_nd_update)

# --- variables, printing, Python functions, asserts, control flow (ops/) ---
from eagerflow.ops.variables import Variable, VariableAggregation, VariableSynchronization
from eagerflow.ops.logging_ops import print_v2 as print
from eagerflow.ops.no_op import no_op, timestamp
from eagerflow.ops.script_ops import numpy_function, py_function
from eagerflow.ops.check_ops import Assert, assert_equal, assert_greater, assert_less, assert_rank
from eagerflow.ops.composite_math import sequence_mask
from eagerflow.ops.control_flow_ops import case, cond, switch_case, while_loop
from eagerflow.ops.manip_ops import roll, shape_n
from eagerflow.ops.map_fn import map_fn
from eagerflow.ops.functional_ops import foldl, foldr, scan
from eagerflow.ops.group_ops import group, tuple
from eagerflow.ops.static_value import get_static_value
from eagerflow.ops.check_ops import ensure_shape
from eagerflow.ops.init_ops import (constant_initializer, ones_initializer, random_normal_initializer,
                                    random_uniform_initializer, zeros_initializer)
from eagerflow.ops.tensor_array_ops import TensorArray

# --- composite tensors (framework/, ops/ragged/) ---
from eagerflow.framework.indexed_slices import IndexedSlices, IndexedSlicesSpec
from eagerflow.framework.sparse_tensor import SparseTensor, SparseTensorSpec
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from eagerflow.ops import ragged as _ragged_ops  # registers the ragged dispatch  # noqa: F401
from eagerflow.ops import sparse_ops as _sparse_ops  # noqa: F401

# --- autodiff: tf.GradientTape, the gradient registry, custom_gradient (eager/, ops/) ---
from eagerflow.eager.backprop import GradientTape, UnconnectedGradients
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops.custom_gradient import custom_gradient, stop_gradient
from eagerflow.ops import gradients_impl_all as _gradients_impl_all  # registers the ops' gradient functions
from eagerflow.eager import control_flow_grad as _control_flow_grad  # and those of If, While and calls
from eagerflow.eager.gradients_impl import gradients, hessians

# --- tf.function, tf.Module (function/, module/) ---
from eagerflow.function import TensorSpec, function
from eagerflow.module import Module

# --- namespaces: tf.math, tf.nn, ..., tf.keras ---
from eagerflow import (autograph, bitwise, compat, config, data, debugging, dtypes, errors, experimental, image, io,
                       linalg, math, nn, random, ragged, sparse, strings, summary, train, types, version)
from eagerflow.util import nest
from eagerflow import raw_ops



def __getattr__(name):
    # tf.keras is imported on first use, as TF loads it lazily: it is a quarter of the import time
    # (and its dataset helpers pull in urllib and certifi), and most programs never touch it.
    if name == "keras":
        import importlib
        return importlib.import_module("eagerflow.keras")
    raise AttributeError("module 'eagerflow' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | {"keras"})


# The implementation packages are no namespaces of TF's (importing them set these attributes).
del eager, framework, module, ops, util  # noqa: F821

# TF's dispatch on the public functions (Keras turns their calls on KerasTensors into layers).
import sys as _sys  # noqa: E402
from eagerflow.framework import dispatch as _dispatch  # noqa: E402
_dispatch.install(_sys.modules[__name__])

__all__ = ["Assert", "DType", "GradientTape", "Graph", "IndexedSlices", "IndexedSlicesSpec", "Module", "Operation",
           "RaggedTensor", "RaggedTensorSpec", "RegisterGradient", "SparseTensor", "SparseTensorSpec", "Tensor",
           "TensorArray", "TensorShape", "TensorSpec", "UnconnectedGradients", "Variable", "VariableAggregation",
           "VariableSynchronization", "abs", "acos", "acosh", "add", "add_n", "argmax", "argmin", "as_dtype", "asin",
           "asinh", "assert_equal", "assert_greater", "assert_less", "assert_rank", "atan", "atan2", "atanh",
           "autograph", "bfloat16", "bitwise", "bool", "boolean_mask", "broadcast_static_shape", "broadcast_to",
           "case", "cast", "clip_by_global_norm", "clip_by_norm", "clip_by_value", "compat", "complex128",
           "complex64", "concat", "cond", "config", "constant", "control_dependencies", "convert_to_tensor", "cos",
           "cosh", "cumsum", "custom_gradient", "data", "debugging", "device", "divide", "double", "dtypes",
           "einsum", "equal", "errors", "executing_eagerly", "exp", "expand_dims", "experimental", "eye", "fill",
           "float16", "float32", "float64", "floor", "function", "gather", "gather_nd", "get_logger", "greater",
           "greater_equal", "half", "identity", "image", "init_scope", "int16", "int32", "int64", "int8", "io",
           "is_tensor", "keras", "less", "less_equal", "linalg", "linspace", "logical_and", "logical_not",
           "logical_or", "math", "matmul", "maximum", "meshgrid", "minimum", "multiply", "name_scope", "negative",
           "nest", "newaxis", "nn", "no_gradient", "no_op", "norm", "not_equal", "numpy_function", "one_hot", "ones",
           "ones_like", "pad", "pow", "print", "py_function", "ragged", "random", "range", "rank", "raw_ops",
           "reduce_all", "reduce_any", "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod",
           "reduce_sum", "repeat", "reshape", "resource", "reverse", "round", "scalar_mul", "scatter_nd", "shape",
           "sigmoid", "sign", "sin", "sinh", "size", "slice", "sparse", "split", "sqrt", "square", "squeeze",
           "stack", "stop_gradient", "strided_slice", "string", "strings", "subtract", "summary", "switch_case",
           "tan", "tanh", "tensordot", "tile", "train", "transpose", "truediv", "truncatediv", "truncatemod",
           "types", "uint16", "uint32", "uint64", "uint8", "unstack", "variant", "where", "while_loop", "zeros",
           "zeros_like"]
__all__ += ["broadcast_dynamic_shape", "map_fn", "roll", "shape_n"]
__all__ += ["ensure_shape", "foldl", "foldr", "get_static_value", "group", "scan", "tuple", "version"]
__all__ += ["get_current_name_scope", "inside_function", "is_symbolic_tensor", "timestamp"]
__all__ += ["constant_initializer", "ones_initializer", "random_normal_initializer", "random_uniform_initializer",
            "zeros_initializer"]
__all__ += ["gradients", "hessians"]
__all__ += ["sequence_mask"]
__all__ += ["argsort", "searchsorted", "sort", "tensor_scatter_nd_add", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
            "tensor_scatter_nd_sub", "tensor_scatter_nd_update", "unique", "unique_with_counts"]
