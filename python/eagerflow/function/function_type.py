"""FunctionType: a function's input and output types as TF 2.21 describes them (an inspect.Signature
whose annotations are TraceTypes), printed as `(x: TensorSpec(...), y: Literal[2]) -> ...` by str()
and as the "Input Parameters: / Output Type: / Captures:" listing by repr()."""
import collections
import inspect

from eagerflow.framework import dtypes
from eagerflow.function import trace_type


class _CapturedDefaultValue:
    """The default of an optional parameter: its value is the Python function's own default."""

    def __repr__(self):
        return "<captured_default_value>"

    __str__ = __repr__


CAPTURED_DEFAULT_VALUE = _CapturedDefaultValue()


class Parameter(inspect.Parameter):
    """A parameter with a TraceType constraint (None: any value)."""

    __slots__ = ()

    def __init__(self, name, kind, optional, type_constraint):
        super().__init__(name, kind, default=CAPTURED_DEFAULT_VALUE if optional else self.empty,
                         annotation=self.empty if type_constraint is None else type_constraint)

    @property
    def optional(self):
        return self.default is not self.empty

    @property
    def type_constraint(self):
        return None if self.annotation is self.empty else self.annotation

    def __repr__(self):
        return "Parameter(name=%s, kind=%s, optional=%r, type_constraint=%r)" % (
            self.name, self.kind, self.optional, self.type_constraint)


class FunctionType(inspect.Signature):
    """Parameters (with TraceType constraints), the output's TraceType and the captures' types."""

    __slots__ = ("_captures",)

    def __init__(self, parameters, captures=None, **kwargs):
        super().__init__(parameters, **kwargs)
        self._captures = captures if captures else collections.OrderedDict()

    @property
    def captures(self):
        """An ordered mapping of capture id to type."""
        return self._captures

    @property
    def output(self):
        return None if self.return_annotation is self.empty else self.return_annotation

    def __repr__(self):
        lines = ["Input Parameters:"]
        lines.extend(f"  {p.name} ({p.kind}): {p.type_constraint}" for p in self.parameters.values())
        lines.append("Output Type:")
        lines.append(f"  {self.output}")
        lines.append("Captures:")
        if self.captures:
            lines.extend(f"  {i}: {t}" for i, t in self.captures.items())
        else:
            lines.append("  None")
        return "\n".join(lines)


def of_python_function(signature, input_signature=None):
    """A tf.function's type before tracing: its parameters, typed only by an input_signature."""
    params = []
    specs = list(input_signature) if input_signature is not None else []
    for p in signature.parameters.values():
        constraint = None
        if specs and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            constraint = trace_type.from_value(specs.pop(0))
        params.append(Parameter(p.name, p.kind, p.default is not p.empty and constraint is None, constraint))
    return FunctionType(params)


def of_trace(params, types, structured_outputs, graph):
    """The type of a trace into `graph`: one parameter per argument (*args and **kwargs spread into
    their values, as TF binds them), the outputs' type and each capture's (keyed by the captured
    value's id)."""
    has_varargs = any(kind == inspect.Parameter.VAR_POSITIONAL for _, kind in params)
    out = []
    for (name, kind), t in zip(params, types):
        if kind == inspect.Parameter.VAR_POSITIONAL:
            out.extend(Parameter("%s_%d" % (name, i), inspect.Parameter.POSITIONAL_ONLY, False, c)
                       for i, c in enumerate(t.components))
        elif kind == inspect.Parameter.VAR_KEYWORD:
            out.extend(Parameter(k, inspect.Parameter.KEYWORD_ONLY, False, c) for k, c in zip(t.tag[1], t.components))
        else:
            if has_varargs and kind == inspect.Parameter.POSITIONAL_OR_KEYWORD:
                kind = inspect.Parameter.POSITIONAL_ONLY
            out.append(Parameter(name, kind, False, t))
    # Keyword-only parameters follow the positional ones, spread **kwargs included.
    out.sort(key=lambda p: p.kind == inspect.Parameter.KEYWORD_ONLY)
    return FunctionType(out, _capture_types(graph), return_annotation=_output_type(structured_outputs))


def _capture_types(graph):
    """Each captured value's type in the order the trace used them: captured tensors and the
    variable handles the graph holds as constants (TF captures those too)."""
    captured = {inner._node_name: (outer, inner) for outer, inner in graph.captures}
    types = collections.OrderedDict()
    for node in graph._graph.nodes():
        if node.name in captured:
            outer, inner = captured[node.name]
            types[id(outer)] = trace_type.from_value(inner)
        elif node.type == "Const":
            value = node.attrs()["value"]
            if value._dtype_enum == _RESOURCE:  # the wrapper is the variable's own handle object
                types.setdefault(id(value), trace_type.TensorType(_RESOURCE, ()))
    return types


_RESOURCE = dtypes.resource._type_enum


def _output_type(outputs):
    try:
        return trace_type.from_value(outputs)
    except TypeError:  # an output TF could not type either
        return inspect.Signature.empty
