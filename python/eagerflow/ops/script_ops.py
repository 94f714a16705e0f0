"""tf.py_function and tf.numpy_function: run a Python function as a (stateful) op.

The EagerPyFunc op's kernel calls back into Python through a registered callable
(cpp/bindings/py_func.cc takes the GIL), so the function runs on every call of a traced
tf.function, with eager tensors (py_function) or NumPy arrays (numpy_function).
"""
import traceback

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.ops import _execute


def _callback(func, out_dtypes, as_numpy, single):
    """What the kernel calls: inputs -> outputs of the declared dtypes, or the error text."""
    def call(inputs):
        try:
            args = [x.numpy() if as_numpy else x for x in inputs]
            ret = func(*args)
            if single:
                ret = [ret]
            elif ret is None:
                ret = []
            elif not isinstance(ret, (list, tuple)):
                ret = [ret]
            if len(ret) != len(out_dtypes):
                raise ValueError(f"The Python function returned {len(ret)} values, but Tout has {len(out_dtypes)}.")
            outs = []
            for v, dt in zip(ret, out_dtypes):
                if hasattr(v, "_as_tensor"):
                    v = v._as_tensor()
                if as_numpy and isinstance(v, (np.ndarray, np.generic)) and not isinstance(v, Tensor):
                    v = np.asarray(v)
                outs.append(convert_to_tensor(v, dtype=dt))
            return outs
        except StopIteration as e:  # OutOfRangeError, as in TF (a generator's end, for tf.data)
            return (f"StopIteration: {e}\n{traceback.format_exc()}",)
        except Exception as e:  # pylint: disable=broad-except
            # Raised by the op as InvalidArgumentError, with the Python traceback, as in TF.
            return f"{type(e).__name__}: {e}\n{traceback.format_exc()}"
    return call


def _script_op(func, inp, Tout, as_numpy, name):
    single = not isinstance(Tout, (list, tuple))
    out_dtypes = [dtypes.as_dtype(Tout)] if single else [dtypes.as_dtype(t) for t in Tout]
    inputs = [x._as_tensor() if hasattr(x, "_as_tensor") else convert_to_tensor(x) for x in (inp or [])]
    token = _core.register_py_func(_callback(func, out_dtypes, as_numpy, single))
    eager = _core.current_graph() is None
    try:
        outs = _execute.execute("EagerPyFunc", inputs, {"token": token, "Tout": [d._type_enum for d in out_dtypes]},
                                name or "EagerPyFunc")
    finally:
        if eager:  # a graph keeps its function registered: every call of the graph runs it
            _core.unregister_py_func(token)
    if single:
        return outs[0]
    return list(outs)


def py_function(func=None, inp=None, Tout=None, name=None):
    """tf.py_function: calls `func(*inp)` with eager tensors, eagerly or from inside a graph."""
    if func is None:  # decorator form: @tf.py_function(Tout=...)
        def decorator(f):
            def wrapped(*args):
                return _script_op(f, args, Tout, False, name)
            return wrapped
        return decorator
    return _script_op(func, inp, Tout, False, name)


eager_py_func = py_function


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """tf.numpy_function: like py_function, but `func` sees and returns NumPy arrays."""
    if func is None:
        def decorator(f):
            def wrapped(*args):
                return _script_op(f, args, Tout, True, name)
            return wrapped
        return decorator
    return _script_op(func, inp, Tout, True, name)
