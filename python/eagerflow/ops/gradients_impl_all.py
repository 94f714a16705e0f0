"""Imports every op gradient module of ops/ so that the registry is complete (the gradients of
function calls, If and While are the tape's: eager/backprop.py imports them)."""
from eagerflow.ops import array_grad, image_grad, linalg_grad, list_grad, math_grad, nn_grad, segment_grad  # noqa: F401 (they register)
