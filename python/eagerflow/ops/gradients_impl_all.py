"""Imports every gradient module so that the registry is complete (tf.GradientTape imports this)."""
import importlib.util

from eagerflow.ops import array_grad, linalg_grad, list_grad, nn_grad  # noqa: F401  (registration side effects)
from eagerflow.ops import control_flow_grad, function_grad  # noqa: F401  (calls, If, While)

if importlib.util.find_spec("eagerflow.ops.math_grad") is not None:
    from eagerflow.ops import math_grad  # noqa: F401
