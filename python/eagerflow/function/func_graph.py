"""FuncGraph and tracing: runs a Python function on placeholders inside a graph."""
import inspect

import numpy as np

from eagerflow import _core
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.ops import Graph
from eagerflow.framework.tensor import Tensor
from eagerflow.util import nest

# Non-tensor leaves of a function's result that become constant tensors (None stays None).
_PYTHON_VALUES = (bool, int, float, complex, str, bytes, np.ndarray, np.generic)


class FuncGraph(Graph):
    """The graph of one trace of a tf.function (tf.Graph subclass)."""

    def __init__(self, name):
        super().__init__()
        self.name = name
        self._graph.name = name
        self._graph.captures_eager_tensors = True  # eager tensors used inside are fed at call time
        self.inputs = []
        self.outputs = []
        self.structured_input_signature = None
        self.structured_outputs = None
        outer = _core.current_graph()
        if outer is not None:
            self._graph.set_outer(outer)

    @property
    def captures(self):
        return self._graph.captures()

    def __repr__(self):
        return "FuncGraph(name=%s, id=%d)" % (self.name, id(self))


def _placeholder_for(graph, value, name):
    """A placeholder standing for a tensor argument (same dtype and shape)."""
    return graph._graph.add_placeholder(value._dtype_enum, _dims(value._shape_tuple), name)


def _dims(shape_tuple):
    if shape_tuple is None:
        return None
    return [-1 if d is None else d for d in shape_tuple]


def trace(python_function, name, args, kwargs, spec_for=None):
    """Traces `python_function` under TF's variable-creation rule (see variable_policy.py: only the
    first trace may create tf.Variables, and then the function is traced again)."""
    from eagerflow.function import variable_policy  # issue 4 semantics helper
    return variable_policy.trace_with_policy(_trace_once, python_function, name, args, kwargs, spec_for)


def _trace_once(python_function, name, args, kwargs, spec_for=None):
    """Traces `python_function(*args, **kwargs)` into a new FuncGraph.

    Tensor leaves of the arguments become placeholders named after their parameter; other
    values are passed through as Python values (they are part of the trace's key). Returns the
    graph with inputs (placeholders), outputs (Identity of each returned tensor) and the
    structured outputs set.
    """
    g = FuncGraph(name)
    sig = inspect.signature(python_function)
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        bound = None
    placeholders = []
    with g.as_default():
        def substitute(param_name, value):
            def leaf(x):
                spec = spec_for(x) if spec_for is not None else None
                if spec is not None:
                    dims = None if spec.shape.rank is None else [-1 if d is None else d for d in spec.shape.as_list()]
                    ph = g._graph.add_placeholder(spec.dtype._type_enum, dims, spec.name or param_name)
                elif isinstance(x, Tensor):
                    ph = _placeholder_for(g, x, param_name)
                else:
                    return x
                placeholders.append(ph)
                return ph
            return nest.map_structure(leaf, value) if nest.is_nested(value) else leaf(value)

        if bound is not None:
            new_args, new_kwargs = [], {}
            for pname, param in sig.parameters.items():
                if pname not in bound.arguments:
                    continue
                v = bound.arguments[pname]
                if param.kind == inspect.Parameter.VAR_POSITIONAL:
                    new_args.extend(substitute(pname, x) for x in v)
                elif param.kind == inspect.Parameter.VAR_KEYWORD:
                    new_kwargs.update({k: substitute(k, x) for k, x in v.items()})
                elif param.kind == inspect.Parameter.KEYWORD_ONLY:
                    new_kwargs[pname] = substitute(pname, v)
                else:
                    new_args.append(substitute(pname, v))
        else:
            new_args = [substitute("args_%d" % i, a) for i, a in enumerate(args)]
            new_kwargs = {k: substitute(k, v) for k, v in kwargs.items()}
        g.structured_input_signature = (tuple(new_args), new_kwargs)
        result = python_function(*new_args, **new_kwargs)
        flat = nest.flatten(result)
        outputs, packed = [], []
        for x in flat:
            if isinstance(x, _PYTHON_VALUES):  # TF returns Python numbers and strings as tensors
                x = convert_to_tensor(x)
            if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
                t = x._as_tensor() if hasattr(x, "_as_tensor") else x
                if not t._is_symbolic:
                    t = _core.graph_constant(t, "Const")
                out = _core.execute1(_core.get_op("Identity"), [t], None, "Identity")
                outputs.append(out)
                packed.append(out)
            else:
                packed.append(x)
        g.structured_outputs = nest.pack_sequence_as(result, packed) if nest.is_nested(result) else packed[0] if packed else None
    g.inputs = placeholders + [ph for _, ph in g.captures]
    g.outputs = outputs
    return g
