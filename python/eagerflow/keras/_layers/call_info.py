"""Keras 2's error messages for failing layer calls: the innermost layer whose `call` raised adds its name
and the arguments it received ("Exception encountered when calling layer 'dense' (type Dense)."),
keeping the exception's class and traceback. A layer's own input-compatibility check runs before its call
(an enclosing layer's call then wraps it)."""
import contextlib
import inspect
import threading

from eagerflow.framework import errors, nest
from eagerflow.framework.tensor import Tensor


_construction = threading.local()  # the layer being called on KerasTensors


@contextlib.contextmanager
def functional_construction(layer):
    """Marks `layer`'s call on KerasTensors (its errors are worded so)."""
    outer = getattr(_construction, "layer", None)
    _construction.layer = layer
    try:
        yield
    finally:
        _construction.layer = outer


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
        # a TFOpLambda's call passes its arguments to the TF function: they are named after its parameters
        signature = inspect.signature(layer.function if getattr(layer, "_calls_function", False) else layer.call)
        bound = signature.bind(*args, **kwargs).arguments
        # an argument not passed shows its default as is (Keras 2 formats only the values it received)
        lines = [f"  • {p.name}={_argument_text(bound[p.name]) if p.name in bound else p.default}"
                 for p in signature.parameters.values()]
    except (TypeError, ValueError):
        arguments = dict(kwargs, **{f"arg_{i}": a for i, a in enumerate(args)})
        lines = [f"  • {k}={_argument_text(v)}" for k, v in arguments.items()]
    if isinstance(exc, errors.OpError):
        message = exc.message
    else:
        message = exc.args[0] if exc.args else ""
    # Keras 2 quotes the name with " for the layer called on KerasTensors (building a functional model)
    quote = '"' if getattr(_construction, "layer", None) is layer else "'"
    layer_text = f"layer {quote}{layer.name}{quote} (type {type(layer).__name__})"
    text = (f"Exception encountered when calling {layer_text}.\n\n{message}\n\n"
            f"Call arguments received by {layer_text}:\n" + "\n".join(lines))
    try:
        if isinstance(exc, errors.OpError):
            new = type(exc)(exc.node_def, exc.op, text, exc.error_code)
        else:
            new = type(exc)(text)
    except Exception:  # pylint: disable=broad-except
        return None  # a class that cannot be rebuilt from a message: raise the original
    new._keras_call_info_injected = True
    return new.with_traceback(exc.__traceback__)
