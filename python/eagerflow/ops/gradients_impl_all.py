"""Imports every op gradient module of ops/ so that the registry is complete (the gradients of
function calls, If and While are the tape's: eager/backprop.py imports them)."""
import importlib.util

from eagerflow.ops import array_grad, linalg_grad, list_grad, nn_grad  # noqa: F401  (registration side effects)

if importlib.util.find_spec("eagerflow.ops.math_grad") is not None:
    from eagerflow.ops import math_grad  # noqa: F401
