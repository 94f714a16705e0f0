"""eagerflow: TensorFlow 2's eager execution and tf.function, with a small C++ core.

Use it as `import eagerflow as tf`.
"""
from eagerflow._version import __version__
from eagerflow import _core
from eagerflow.framework import dtypes as dtypes
from eagerflow.framework import errors as errors
from eagerflow.framework.dtypes import (DType, as_dtype, bool, complex64, double, float16, float32, float64, half, resource, variant,
                                        int8, int16, int32, int64, string, uint8)
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.convert import constant, convert_to_tensor

from eagerflow import math, nn, linalg, random, strings, config

newaxis = None


from eagerflow.framework.ops import Graph, Operation, executing_eagerly, get_default_graph, init_scope
from eagerflow.function import TensorSpec

# --- elementwise: top-level names (add, multiply, cast, ...) from ops/math_ops.py ---
from eagerflow import bitwise
from eagerflow.ops.math_ops import (abs, add, add_n, cast, clip_by_value, cos, divide, equal, exp, floor, greater,
                                    greater_equal, less, less_equal, logical_and, logical_not, logical_or, maximum,
                                    minimum, multiply, negative, not_equal, pow, round, scalar_mul, sigmoid, sign,
                                    sin, sqrt, square, subtract, tan, tanh, truediv)
from eagerflow.ops import math_ops as _math_ops
dtypes.cast = _math_ops.cast  # tf.dtypes.cast / tf.dtypes.saturate_cast live in the dtypes module
dtypes.saturate_cast = _math_ops.saturate_cast
# --- reductions, matmul, softmax: top-level names from ops/reduction_ops.py, ops/linalg_ops.py ---
from eagerflow.ops.reduction_ops import (argmax, argmin, cumsum, reduce_all, reduce_any, reduce_logsumexp,
                                         reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum)
from eagerflow.ops.linalg_ops import matmul
from eagerflow.ops.nn_ops import clip_by_norm
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
# --- tf.print (ops/logging_ops.py) ---
from eagerflow.ops.logging_ops import print_v2 as print
# --- TF1 compatibility (tf.compat.v1), tf.name_scope, tf.no_op ---
from eagerflow import compat
from eagerflow.framework.ops import name_scope
from eagerflow.ops.no_op import no_op
# --- function semantics (issue 4): tf.Module, tf.py_function, tf.debugging, tf.Assert ---
from eagerflow import debugging
from eagerflow.module import Module
from eagerflow.ops.script_ops import numpy_function, py_function
from eagerflow.ops.check_ops import (Assert, assert_equal, assert_greater, assert_less, assert_rank)
# --- tf.function TraceType and the retracing warning's logger (issue 4: tracing) ---
from eagerflow import types
from eagerflow.framework.tf_logging import get_logger
# --- autodiff (issue 6: tape): tf.GradientTape, gradient registry, custom_gradient, stop_gradient ---
from eagerflow.eager.backprop import GradientTape, UnconnectedGradients
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops.custom_gradient import custom_gradient, stop_gradient
from eagerflow.ops import gradients_impl_all as _gradients_impl_all  # registers the ops' gradient functions
from eagerflow.eager import control_flow_grad as _control_flow_grad  # and those of If, While and calls
# --- gradient support ops (issue 6, grads helper): tf.scatter_nd ---
from eagerflow.ops.grad_support_ops import scatter_nd
# --- tf.keras (issue 6: minimal Model/layers/optimizers/losses) ---
from eagerflow import keras

# --- control flow (issue 5): tf.cond, tf.while_loop, tf.case, tf.switch_case; tf.nest ---
from eagerflow.ops.control_flow_ops import case, cond, switch_case, while_loop
from eagerflow.util import nest
# --- AutoGraph (issue 5): tf.autograph ---
from eagerflow import autograph
# --- tf.TensorArray (issue 5: TensorList-backed, ops/tensor_array_ops.py) ---
from eagerflow.ops.tensor_array_ops import TensorArray
