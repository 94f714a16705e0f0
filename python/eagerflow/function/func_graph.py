"""Tracing: runs a Python function on placeholders inside a FuncGraph."""
import inspect
import weakref

import numpy as np

from eagerflow import _core
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.func_graph import FuncGraph
from eagerflow.framework.tensor import Tensor
from eagerflow.function import trace_type, variable_policy
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.trace import PlaceholderContext
from eagerflow.framework import nest


class _PlaceholderContext(PlaceholderContext):
    """Placeholder generation state: the graph, the parameter being traced and the placeholders made."""

    def __init__(self, graph):
        super().__init__(graph)
        self.placeholders = []


# Callables given each finished trace's FuncGraph (tf.summary.trace_on collects the graphs with one).
trace_observers = []


def trace(python_function, name, params, types):
    """Traces `python_function` under TF's variable-creation rule (see variable_policy.py: only the
    first trace may create tf.Variables, and then the function is traced again)."""
    graph = variable_policy.trace_with_policy(_trace_once, python_function, name, params, types)
    for observe in list(trace_observers):
        observe(graph)
    return graph


def _trace_once(python_function, name, params, types):
    """Traces the Python function into a new FuncGraph.

    `params` are the bound arguments as (parameter name, inspect kind, value) in parameter order and
    `types` their TraceTypes (possibly generalized, reduce_retracing): tensor leaves become
    placeholders named after their parameter (shaped by the type), other values are passed as they
    are (they are part of the trace's key). Returns the graph with inputs (placeholders), outputs
    (Identity of each returned tensor), the structured input signature and outputs set.
    """
    g = FuncGraph(name)
    ctx = _PlaceholderContext(g)
    with g.as_default():
        new_args, new_kwargs = [], {}
        arg_specs, kwarg_specs = [], {}
        for (pname, kind, value), t in zip(params, types):
            if kind == inspect.Parameter.VAR_POSITIONAL:
                for i, (ct, v) in enumerate(zip(t.components, value)):
                    ctx.name = "%s_%d" % (pname, i)
                    ph = trace_type.placeholder_for(ct, v, ctx)
                    new_args.append(ph)
                    arg_specs.append(_spec_of(ct, ph))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                for k, ct in zip(t.tag[1], t.components):
                    ctx.name = k
                    ph = trace_type.placeholder_for(ct, value[k], ctx)
                    new_kwargs[k] = ph
                    kwarg_specs[k] = _spec_of(ct, ph)
            else:
                ctx.name = pname
                ph = trace_type.placeholder_for(t, value, ctx)
                if kind == inspect.Parameter.KEYWORD_ONLY:
                    new_kwargs[pname] = ph
                    kwarg_specs[pname] = _spec_of(t, ph)
                else:
                    new_args.append(ph)
                    arg_specs.append(_spec_of(t, ph))
        g.structured_input_signature = (tuple(arg_specs), kwarg_specs)
        placeholders = ctx.placeholders
        result = python_function(*new_args, **new_kwargs)
        flat = nest.flatten(result, expand_composites=True)
        outputs, packed = [], []
        for x in flat:
            if x is not None and not (isinstance(x, Tensor) or hasattr(x, "_as_tensor")):
                x = _output_tensor(x, python_function)
            if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
                t = x._as_tensor() if hasattr(x, "_as_tensor") else x
                if not t._is_symbolic:
                    t = _core.graph_constant(t, "Const")
                out = _core.execute1(_core.get_op("Identity"), [t], None, "Identity")
                outputs.append(out)
                packed.append(out)
            else:
                packed.append(x)
        g.structured_outputs = (nest.pack_sequence_as(result, packed, expand_composites=True)
                                if nest.is_nested(result, expand_composites=True) else packed[0] if packed else None)
    g.inputs = placeholders + [ph for _, ph in g.captures]
    g.outputs = outputs
    return g


def _output_tensor(x, python_function):
    """A non-tensor result leaf as TF returns it: converted to a tensor (Python numbers, strings,
    arrays, TensorShapes), else TF's TypeError (objects, ops, functions)."""
    try:
        return convert_to_tensor(x)
    except (TypeError, ValueError):
        raise TypeError(
            "To be compatible with tf.function, Python functions must return zero or more Tensors or "
            f"ExtensionTypes or None values; in compilation of {python_function}, found return value of type "
            f"{type(x).__name__}, which is not a Tensor or ExtensionType.") from None


def _spec_of(t, value):
    """The structured_input_signature entry of an argument: TensorSpecs (named after their
    placeholder) for tensors, the containers rebuilt around them, other values as they are."""
    if isinstance(t, trace_type.TensorType):
        return TensorSpec(value.shape, value.dtype, value.name.split(":")[0])
    if isinstance(t, trace_type.VariableType):
        return t.spec()
    if isinstance(t, trace_type._Composite):
        return t._rebuild(value, [_spec_of(c, v) for c, v in zip(t.components, t._children(value))])
    if isinstance(t, trace_type.WeakrefType):  # the trace must not keep the object alive
        try:
            return weakref.proxy(value)
        except TypeError:
            return value
    return value
