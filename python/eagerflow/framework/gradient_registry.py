"""The gradient registry: one gradient function per op type (tf.RegisterGradient, tf.no_gradient).

A gradient function takes `(op, *output_grads)` and returns one gradient (or None) per input of
`op`. `op` is an Operation-like view with `type`, `name`, `inputs`, `outputs` and
`get_attr(name)`. Gradient functions use only the public op API, so the same function builds
eager gradients and graph gradients (a tape inside tf.function).
"""

_GRADIENTS = {}
_NOT_DIFFERENTIABLE = object()


class RegisterGradient:
    """Decorator registering the gradient function of an op type (tf.RegisterGradient)."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        if self._op_type in _GRADIENTS:
            raise KeyError("Registering two gradient with name '%s'! (Previous registration was in %s)"
                           % (self._op_type, getattr(_GRADIENTS[self._op_type], "__module__", "?")))
        _GRADIENTS[self._op_type] = f
        return f


def no_gradient(op_type):
    """Declares an op type non-differentiable: its inputs get None gradients (tf.no_gradient)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _GRADIENTS[op_type] = _NOT_DIFFERENTIABLE


NotDifferentiable = no_gradient


def get_gradient_function(op_type):
    """The gradient function of `op_type`; None when it is non-differentiable.

    Raises LookupError (TF's message) when nothing is registered for it."""
    f = _GRADIENTS.get(op_type)
    if f is None:
        raise LookupError("gradient registry has no entry for: %s" % op_type)
    return None if f is _NOT_DIFFERENTIABLE else f


def registered_op_types():
    """Op types with a gradient entry (differentiable or not), for tests."""
    return sorted(_GRADIENTS)
