"""The gradient registry: one gradient function per op type (tf.RegisterGradient, tf.no_gradient).

A gradient function takes `(op, *output_grads)` and returns one gradient (or None) per input of
`op`. `op` is an Operation-like view with `type`, `name`, `inputs`, `outputs` and
`get_attr(name)`. Gradient functions use only the public op API, so the same function builds
eager gradients and graph gradients (a tape inside tf.function).

The common ops also have a C++ gradient (cpp/autodiff/gradients/), which the eager tape's walk
runs for float and double tensors. It mirrors the Python function first registered for its op
type and is on only while that function is the registered one: replacing or removing the entry
(as tests do) sends the op type back to the Python function.
"""
from eagerflow import _core


class _Registry(dict):
    """op type -> gradient function, telling C++ which op types keep their C++ gradient."""

    def __init__(self):
        super().__init__()
        self._native = frozenset(_core.native_gradient_types())
        self._mirrored = {}  # op type -> the Python function its C++ gradient mirrors

    def _sync(self, op_type):
        if op_type not in self._native:
            return
        f = dict.get(self, op_type)
        if f is not None:
            self._mirrored.setdefault(op_type, f)
        _core.set_native_gradient_enabled(op_type, f is not None and f is self._mirrored.get(op_type))

    def __setitem__(self, op_type, f):
        dict.__setitem__(self, op_type, f)
        self._sync(op_type)

    def __delitem__(self, op_type):
        dict.__delitem__(self, op_type)
        self._sync(op_type)

    def pop(self, op_type, *default):
        f = dict.pop(self, op_type, *default)
        self._sync(op_type)
        return f

    def popitem(self):
        op_type, f = dict.popitem(self)
        self._sync(op_type)
        return op_type, f

    def setdefault(self, op_type, f=None):
        if op_type not in self:
            self[op_type] = f
        return self[op_type]

    def update(self, *args, **kwargs):
        for op_type, f in dict(*args, **kwargs).items():
            self[op_type] = f

    def clear(self):
        for op_type in list(self):
            del self[op_type]


_GRADIENTS = _Registry()
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
