"""tf.function: a Function traces its Python function once per distinct input signature into a
graph (ConcreteFunction) and later calls run that graph's C++ plan."""
import functools
import inspect
import threading

import numpy as np

from eagerflow import _core
from eagerflow.framework.tensor import Tensor
from eagerflow.function.concrete_function import ConcreteFunction
from eagerflow.function.func_graph import trace
from eagerflow.function.tensor_spec import TensorSpec



def run_functions_eagerly(run_eagerly):
    """tf.config.run_functions_eagerly: when True, Functions run their Python code eagerly."""
    _core.set_run_functions_eagerly(bool(run_eagerly))  # the flag lives in C++ (the fast call path reads it)


def functions_run_eagerly():
    """tf.config.functions_run_eagerly: the flag run_functions_eagerly sets."""
    return _core.functions_run_eagerly()


def _key_of(value):
    """The part of the trace key one argument contributes (basic form; issue 4 adds TraceType)."""
    if isinstance(value, Tensor):
        return (value._dtype_enum, value._shape_tuple)
    if isinstance(value, np.ndarray):
        return ("nd", value.dtype.str, value.shape)
    if isinstance(value, TensorSpec):
        return (value.dtype._type_enum, None if value.shape.rank is None else tuple(value.shape.as_list()))
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return (type(value), value)
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_key_of(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted(((k, _key_of(v)) for k, v in value.items()), key=lambda kv: repr(kv[0]))))
    if hasattr(value, "_handle"):  # tf.Variable: captured by handle, keyed by identity
        return ("var", id(value))
    return ("obj", id(value))


def _spec_for(x):
    return x if isinstance(x, TensorSpec) else None


class Function:
    """The callable tf.function returns."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True, reduce_retracing=False,
                 jit_compile=None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._input_signature = input_signature
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._jit_compile = jit_compile
        self._signature = inspect.signature(python_function)
        self._nparams = sum(1 for p in self._signature.parameters.values()
                            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        self._simple = all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                           for p in self._signature.parameters.values())
        self._cache = {}
        # C++ cache for calls with positional tensor / Python scalar arguments: key, plan and run in
        # one call (see cpp/bindings/function.cc); other calls take the Python path below.
        self._fast = _core.FunctionCache()
        self._fast_call = self._fast.call
        self._lock = threading.RLock()
        self._tracing_count = 0
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def _canonical(self, args, kwargs):
        """Arguments as a positional tuple in parameter order (defaults applied)."""
        if not kwargs and self._simple and len(args) == self._nparams:
            return tuple(args), {}
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.args), dict(bound.kwargs)

    def _concrete_for(self, args, kwargs):
        key = (tuple(_key_of(a) for a in args), tuple(sorted((k, _key_of(v)) for k, v in kwargs.items())))
        cf = self._cache.get(key)
        if cf is None:
            with self._lock:  # tracing is serialized; calls run concurrently
                cf = self._cache.get(key)
                if cf is None:
                    graph = trace(self._python_function, self._name, args, kwargs, _spec_for)
                    cf = ConcreteFunction(graph, self._signature)
                    self._tracing_count += 1
                    self._cache[key] = cf
        return cf

    def __call__(self, *args, **kwargs):
        if not kwargs:
            result = self._fast_call(args)
            if result is not NotImplemented:
                return result
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        if _core.functions_run_eagerly() or _core.current_graph() is not None:
            # Eager mode on request; inside another trace the body joins the outer graph.
            return self._python_function(*args, **kwargs)
        given = args
        args, kwargs = self._canonical(args, kwargs)
        args, kwargs = _numpy_to_tensors(args, kwargs)
        cf = self._concrete_for(args, kwargs)
        if not kwargs and args is given:  # the same positional arguments key the C++ cache
            self._fast.add(args, *cf._fast_call_spec())
        return cf._call_flat(_tensor_leaves(args, kwargs))

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (tensors or tf.TensorSpec), tracing if needed."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        args, kwargs = self._canonical(args, kwargs)
        return self._concrete_for(args, kwargs)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        # A Function per instance so traces (and variables) belong to one object.
        cache = instance.__dict__.setdefault("_tf_function_cache", {}) if hasattr(instance, "__dict__") else {}
        bound = cache.get(id(self))
        if bound is None:
            bound = Function(functools.partial(self._python_function, instance), self._name, self._input_signature,
                             self._autograph, self._reduce_retracing, self._jit_compile)
            cache[id(self)] = bound
        return bound

    def __repr__(self):
        return "<eagerflow.Function %s at 0x%X>" % (self._name, id(self))


def _numpy_to_tensors(args, kwargs):
    """NumPy arrays are tensor arguments (traced by dtype and shape), as in TF."""
    from eagerflow.util import nest

    def conv(v):
        if isinstance(v, np.ndarray):
            return _core.convert_to_tensor(v)
        if nest.is_nested(v) and any(isinstance(x, np.ndarray) for x in nest.flatten(v)):
            return nest.map_structure(lambda x: _core.convert_to_tensor(x) if isinstance(x, np.ndarray) else x, v)
        return v
    if not any(isinstance(a, (np.ndarray, list, tuple, dict)) for a in args) and not kwargs:
        return args, kwargs
    return tuple(conv(a) for a in args), {k: conv(v) for k, v in kwargs.items()}


def _tensor_leaves(args, kwargs):
    from eagerflow.util import nest
    flat = []
    for v in list(args) + [kwargs[k] for k in kwargs]:
        for x in (nest.flatten(v) if nest.is_nested(v) else (v,)):
            if isinstance(x, Tensor):
                flat.append(x)
            elif isinstance(x, np.ndarray):
                flat.append(_core.convert_to_tensor(x))
    return flat


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_implements=None, experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None, experimental_follow_type_hints=None):
    """tf.function, as `@tf.function`, `@tf.function(...)` or `tf.function(f)`."""
    if experimental_relax_shapes is not None:
        reduce_retracing = experimental_relax_shapes

    def wrap(f):
        return Function(f, input_signature=input_signature, autograph=autograph, reduce_retracing=reduce_retracing,
                        jit_compile=jit_compile)
    return wrap if func is None else wrap(func)
