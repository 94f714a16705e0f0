"""tf.function: a Function traces its Python function once per distinct argument TraceType into a
graph (ConcreteFunction); later calls run that graph's C++ plan. Exact keys of plain tensor/scalar
calls hit a C++ cache; other calls look up the most specific matching trace in Python."""
import functools
import inspect
import threading
import types

import numpy as np

from eagerflow import _core
from eagerflow.autograph._impl import api
from eagerflow.function import function_type as function_type_lib
from eagerflow.function import input_signature as input_signature_lib
from eagerflow.function import retracing_warning, trace_type
from eagerflow.function.concrete_function import ConcreteFunction
from eagerflow.function.func_graph import trace
from eagerflow.function.function_cache import FunctionCache
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework import nest


def run_functions_eagerly(run_eagerly):
    """tf.config.run_functions_eagerly: when True, Functions run their Python code eagerly."""
    _core.set_run_functions_eagerly(bool(run_eagerly))  # the flag lives in C++ (the fast call path reads it)


def functions_run_eagerly():
    """tf.config.functions_run_eagerly: the flag run_functions_eagerly sets."""
    return _core.functions_run_eagerly()


def _unbound_method_signature(fn, signature):
    """A method decorated in its class body gets `self` from binding (__get__): an input_signature covers the
    parameters after it, as in TF."""
    params = list(signature.parameters.values())
    if (isinstance(fn, types.FunctionType) and "." in fn.__qualname__ and "<locals>" != fn.__qualname__.split(".")[-2]
            and params and params[0].name == "self"):
        return signature.replace(parameters=params[1:])
    return signature


class Function:
    """The callable tf.function returns."""

    def __init__(self, python_function, name=None, input_signature=None, autograph=True, reduce_retracing=False,
                 jit_compile=None):
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", "function")
        self._autograph = autograph
        self._ag_function = None  # the AutoGraph-converted python_function, made on first trace
        self._reduce_retracing = bool(reduce_retracing)
        self._jit_compile = jit_compile
        self._signature = inspect.signature(python_function)
        self._input_signature = input_signature_lib.validate(input_signature, _unbound_method_signature(
            python_function, self._signature) if input_signature is not None else self._signature)
        self._binder = (None if self._input_signature is None else
                        input_signature_lib.Binder(self._input_signature, self._signature))
        # C++ cache for calls with positional tensor / Python scalar arguments: exact key, plan and run
        # in one call (see cpp/bindings/function.cc); other calls take the Python path below.
        self._fast = _core.FunctionCache()
        self._fast_call = self._fast.call
        self._cache = FunctionCache(on_change=self._fast.clear)
        self._lock = threading.RLock()
        self._tracing_count = 0
        self._detector = retracing_warning.detector(retracing_warning.key_for(python_function))
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_type(self):
        """The parameters as traced calls bind them, typed only where input_signature fixes them."""
        return function_type_lib.of_python_function(self._signature, self._input_signature)

    def experimental_get_tracing_count(self):
        return self._tracing_count

    # --- calls -------------------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if not kwargs:
            result = self._fast_call(args)
            if result is not NotImplemented:
                return result
        return self._call(args, kwargs)

    def _call(self, args, kwargs):
        if _core.functions_run_eagerly():  # eager mode on request
            return self._python_function(*args, **kwargs)
        if _core.current_graph() is not None:  # inside another trace the body joins the outer graph
            return self._traced_function()(*args, **kwargs)
        params, key = self._canonicalize(args, kwargs)
        with self._lock:  # tracing is serialized; plans run concurrently
            hits = self._fast.take_hits()  # C++ cache hits count as calls for the retracing warning
            if hits:
                self._detector.called_without_tracing(hits)
            cf, exact = self._cache.lookup(key)
            if cf is None:
                cf, exact = self._trace_new(params, key)
                self._detector.called_with_tracing(repr(self._python_function))
            else:
                self._detector.called_without_tracing()
        flat = []
        for t, (_, _, v) in zip(key.components, params):
            trace_type.flatten_tensors(t, v, flat)
        if not kwargs:
            self._remember_fast(args, flat, cf, exact or self._input_signature is not None)
        return cf._call_flat(flat)

    def _remember_fast(self, args, flat, cf, exact):
        """Adds the call's exact key to the C++ cache when the tensors it would feed (the tensors
        of the arguments, nested ones included, in tf.nest order) are the ones this call fed."""
        tensors = self._fast.feeds_of(args)
        if tensors is not None and len(tensors) == len(flat) and all(a is b for a, b in zip(tensors, flat)):
            # Under a tape, the entry also learns the taped call (saving forward values).
            call = cf._saving_call_op() if _core.tape_depth() > 0 else None
            self._fast.add(args, *cf._fast_call_spec(), exact, call)

    def _traced_function(self):
        """The function tracing runs: python_function converted by AutoGraph (autograph=True, once)."""
        fn = self._ag_function
        if fn is None:
            if self._autograph:
                fn = api.tf_convert(self._python_function)
            else:
                fn = self._python_function
            self._ag_function = fn
            self._ag_tracer = _ConvertedTrace(fn)
        return fn

    def _trace_new(self, params, key):
        trace_key = self._cache.generalize(key) if self._reduce_retracing else key
        try:
            fn = self._traced_function()
            if fn is self._python_function:
                graph = trace(fn, self._name, params, trace_key.components)
            else:
                graph = self._ag_tracer.trace(self._name, params, trace_key.components)
        except Exception as e:  # noqa: BLE001 - AutoGraph points errors at the user's code
            if not self._autograph:
                raise
            new = api.rewrite_error(e, e.__traceback__)
            if new is e:
                raise
            raise new.with_traceback(e.__traceback__) from None  # keeps the user's frames
        cf = ConcreteFunction(graph, [(n, k) for n, k, _ in params], list(trace_key.components))
        self._tracing_count += getattr(graph, "trace_passes", 1)
        self._cache.add(trace_key, cf)
        self._fast.clear_inexact()  # keys that resolved to a less specific trace may fit this one better
        return cf, trace_key == key

    # --- arguments -----------------------------------------------------------------------------------

    def _canonicalize(self, args, kwargs):
        """(params, key): the bound arguments as (name, kind, value) in parameter order (defaults
        applied, NumPy arrays as tensors, input_signature conversions done) and their TraceType."""
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"Binding inputs to tf.function failed due to `{e}`. Received args: {args} and kwargs: "
                            f"{kwargs} for signature: {self._signature_text()}.") from None
        bound.apply_defaults()
        binder = self._binder
        call = None if binder is None else input_signature_lib.Call(args, kwargs, binder)
        params, types = [], []
        context = trace_type.TracingContext()  # one per call: variables alias across parameters
        for i, (name, p) in enumerate(self._signature.parameters.items()):
            v = bound.arguments[name]
            spec = None if binder is None else binder.spec_of(i, p)
            if spec is not None:
                v, t = binder.convert(name, p, v, spec, call)
            else:
                v = _numpy_to_tensors(v)
                t = trace_type.from_value(v, context)
            params.append((name, p.kind, v))
            types.append(t)
        return params, trace_type.TupleType(None, types)

    def _signature_text(self):
        if self._binder is None:
            return "(%s)" % ", ".join(self._signature.parameters)
        return self._binder.text()

    # --- concrete functions --------------------------------------------------------------------------

    def get_concrete_function(self, *args, **kwargs):
        """The ConcreteFunction for these arguments (tensors, tf.TensorSpecs, Python values), tracing if
        needed (not counted as a retracing call)."""
        if not args and not kwargs and self._input_signature is not None:
            args = tuple(self._input_signature)
        params, key = self._canonicalize(args, kwargs)
        with self._lock:
            cf, _ = self._cache.lookup(key)
            if cf is None:
                cf, _ = self._trace_new(params, key)
        return cf

    def pretty_printed_concrete_signatures(self, verbose=True):
        """Every trace's signature, in tracing order (print(concrete) without the prefix)."""
        joiner = "\n\n" if verbose else "\n"
        return joiner.join(cf.pretty_printed_signature(verbose=verbose) for cf in self._cache.values())

    def _list_all_concrete_functions(self):
        return self._cache.values()

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


class _ConvertedTrace:
    """Traces a Function's converted python function. variable_policy finds the Function being
    traced by a caller frame's `self` whose `_python_function` is the traced function: this object,
    one per Function, plays that part for the converted function."""

    __slots__ = ("_python_function", "__weakref__")

    def __init__(self, fn):
        self._python_function = fn

    def trace(self, name, params, types):
        return trace(self._python_function, name, params, types)


def _numpy_to_tensors(v):
    """NumPy arrays are tensor arguments (traced by dtype and shape), as in TF."""
    if isinstance(v, np.ndarray):
        return _core.convert_to_tensor(v)
    if isinstance(v, (list, tuple, dict)) and nest.is_nested(v) and any(
            isinstance(x, np.ndarray) for x in nest.flatten(v)):
        return nest.map_structure(lambda x: _core.convert_to_tensor(x) if isinstance(x, np.ndarray) else x, v)
    return v


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
