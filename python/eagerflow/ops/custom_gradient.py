"""tf.custom_gradient and tf.stop_gradient.

A custom-gradient call runs the function with recording off, passes its outputs through Identity
(fresh tensors), and records one tape entry whose backward function is the user's `grad_fn`
(C++ `tape_record_custom`), so the tape never looks inside the function.
"""
import functools
import inspect

from eagerflow import _core
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import _execute
from eagerflow.ops import variable_registry
from eagerflow.ops.variables import Variable
from eagerflow.framework import nest


def stop_gradient(input, name=None):
    """The input, treated as a constant by gradient computations."""
    if isinstance(input, Variable):
        input = input.value()
    return _execute.execute1("StopGradient", [_execute.convert_to_tensor(input)], None, name)


def _accepts_variables(fn):
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind == p.VAR_KEYWORD for p in params)


def _call(f, args, kwargs):
    if _core.tape_depth() == 0:
        result, _ = f(*args, **kwargs)
        return result
    inputs = [a._handle if isinstance(a, Variable) else convert_to_tensor(a) for a in args]
    # Run f with every tape suspended, under a private tape that only notes the trainable
    # variables f reads (their gradients come from grad_fn's `variables` part).
    watcher = _core.Tape(False, True)
    _core.tape_suspend()
    watcher.push()
    try:
        result, grad_fn = f(*args, **kwargs)
        flat = nest.flatten(result)
        outputs = [_execute.execute1("Identity", [convert_to_tensor(x)]) for x in flat]
    finally:
        watcher.pop()
        _core.tape_resume()
    arg_handles = {_core.tensor_key(a._handle) for a in args if isinstance(a, Variable)}
    variables = [v for v in (variable_registry.variable_of(h) for h in watcher.watched_variables())
                 if v is not None and _core.tensor_key(v._handle) not in arg_handles]
    if variables and not _accepts_variables(grad_fn):
        raise TypeError("If using @custom_gradient with a function that uses variables, then grad_fn must accept "
                        "a keyword argument 'variables'.")
    arg_count = len(args)

    def backward(*output_grads):
        if variables:
            input_grads, variable_grads = grad_fn(*output_grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads, variable_grads = grad_fn(*output_grads), []
        flat_grads = nest.flatten(input_grads)
        if len(flat_grads) != arg_count:
            raise ValueError(f"custom_gradient function expected to return {arg_count} gradients, but returned "
                             f"{len(flat_grads)} instead.")
        return list(flat_grads) + list(variable_grads)

    _core.tape_record_custom(inputs + [v._handle for v in variables], outputs, backward,
                             getattr(f, "__name__", "custom_gradient"))
    return nest.pack_sequence_as(result, outputs)


def custom_gradient(f=None):
    """Decorator: `f(*x)` returns `(y, grad_fn)`; gradients of y use `grad_fn(*dy)` (tf.custom_gradient)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call(f, args, kwargs)
    return decorated
