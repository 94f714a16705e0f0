"""Keras 2's error messages for failing layer calls: the innermost layer whose `call` raised adds its name
and the arguments it received ("Exception encountered when calling layer 'dense' (type Dense)."),
keeping the exception's class and traceback. A layer's own input-compatibility check runs before its call
(an enclosing layer's call then wraps it)."""
import inspect

from eagerflow.framework import errors, nest
from eagerflow.framework.tensor import Tensor


def _format(value):
    if isinstance(value, Tensor):
        return f"tf.Tensor(shape={value.shape}, dtype={value.dtype.name})"
    return repr(value)


def _argument_text(value):
    if isinstance(value, (list, tuple, dict)):
        return str(nest.map_structure(_format, value))
    return _format(value)


def with_call_info(layer, exc, args, kwargs):
    """`exc` again, its message wrapped with the layer and its call arguments; or None to re-raise as is."""
    if getattr(exc, "_keras_call_info_injected", False):
        return None
    try:
        bound = inspect.signature(layer.call).bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
    except (TypeError, ValueError):
        arguments = dict(kwargs, **{f"arg_{i}": a for i, a in enumerate(args)})
    if isinstance(exc, errors.OpError):
        message = exc.message
    else:
        message = exc.args[0] if exc.args else ""
    name, kind = layer.name, type(layer).__name__
    lines = [f"  • {k}={_argument_text(v)}" for k, v in arguments.items()]
    text = (f"Exception encountered when calling layer '{name}' (type {kind}).\n\n{message}\n\n"
            f"Call arguments received by layer '{name}' (type {kind}):\n" + "\n".join(lines))
    try:
        if isinstance(exc, errors.OpError):
            new = type(exc)(exc.node_def, exc.op, text, exc.error_code)
        else:
            new = type(exc)(text)
    except Exception:  # pylint: disable=broad-except
        return None  # a class that cannot be rebuilt from a message: raise the original
    new._keras_call_info_injected = True
    return new.with_traceback(exc.__traceback__)
