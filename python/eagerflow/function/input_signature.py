"""tf.function's input_signature: checked against the Python function when the Function is made,
and used to convert and check each call's arguments (TF 2.21's rules)."""
import inspect

from eagerflow.framework.tensor import Tensor
from eagerflow.function import trace_type
from eagerflow.function.signature_errors import ValueError as IncompatibleInputError
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.type_spec import TypeSpec
from eagerflow.framework import nest

_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_LITERAL_TYPES = (bool, int, float, str, bytes, type(None))


def validate(input_signature, signature):
    """The signature as a tuple; TypeError where it is not TensorSpecs or does not fit the
    function's parameters (every parameter without a default needs a spec)."""
    if input_signature is None:
        return None
    if not isinstance(input_signature, (tuple, list)):
        raise TypeError(f"input_signature must be either a tuple or a list, got {type(input_signature)}.")
    bad = [s for s in nest.flatten(list(input_signature)) if not isinstance(s, (TensorSpec, TypeSpec))]
    if bad:
        raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec objects, got invalid "
                        f"args {bad} with types {[type(b) for b in bad]}.")
    params = list(signature.parameters.values())
    for p in params:
        if p.kind == p.KEYWORD_ONLY and p.default is p.empty:
            raise TypeError(f"Since input_signature is defined, keyword-only parameter `{p.name}` must have a "
                            "default value")
    positional = [p for p in params if p.kind in _POSITIONAL]
    varargs = any(p.kind == p.VAR_POSITIONAL for p in params)
    if len(input_signature) > len(positional) and not varargs:
        raise TypeError(f"input_signature contains {len(input_signature) - len(positional)} extra type constraints.")
    for p in positional[len(input_signature):]:
        if p.default is p.empty:
            raise TypeError(f"input_signature missing type constraint for {p.name}")
    return tuple(input_signature)


class Binder:
    """Converts a call's bound arguments to the signature: (value, TraceType) per parameter."""

    def __init__(self, input_signature, signature):
        self._sig = input_signature
        self._signature = signature
        self._n_positional = sum(1 for p in signature.parameters.values() if p.kind in _POSITIONAL)

    def spec_of(self, index, param):
        """The TensorSpec structure for parameter `index`, a ("literal", default) for a positional
        parameter the signature leaves to its default, or None."""
        if param.kind in _POSITIONAL:
            if index < len(self._sig):
                return self._sig[index]
            return ("literal", param.default)
        if param.kind == param.VAR_POSITIONAL:
            return tuple(self._sig[self._n_positional:])
        return None

    def convert(self, name, param, value, spec, call):
        """`value` for parameter `name` converted to `spec`, with its TraceType."""
        if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "literal":
            default = spec[1]
            if isinstance(default, _LITERAL_TYPES) and not (type(value) is type(default) and value == default):
                call.fail(f"Can not cast {value!r} to Literal[{default!r}]")
            return value, trace_type.from_value(value)
        if param.kind == param.VAR_POSITIONAL and len(value) > len(spec):
            call.fail("too many positional arguments", cls=TypeError)  # an arity error, as any other
        return _to_spec(value, spec, call), trace_type.from_value(spec)

    def text(self):
        """The signature as TF prints it in binding errors."""
        parts = []
        for i, (name, p) in enumerate(self._signature.parameters.items()):
            spec = self.spec_of(i, p)
            if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "literal":
                parts.append(f"{name}: Literal[{spec[1]!r}] = <captured_default_value>" if isinstance(
                    spec[1], _LITERAL_TYPES) else name)
            elif p.kind == p.VAR_POSITIONAL:
                parts.extend(f"{name}_{j}: {_spec_text(s)}" for j, s in enumerate(spec))
                if spec:
                    parts.append("/")
            elif spec is None:
                parts.append(name)
            else:
                parts.append(f"{name}: {_spec_text(spec)}")
        return "(%s)" % ", ".join(parts)


class Call:
    """One call's arguments, for error messages."""

    def __init__(self, args, kwargs, binder):
        self.args, self.kwargs, self._binder = args, kwargs, binder

    def fail(self, reason, cls=IncompatibleInputError):
        raise cls(f"Binding inputs to tf.function failed due to `{reason}`. Received args: {self.args} and kwargs: "
                  f"{self.kwargs} for signature: {self._binder.text()}.")

    def incompatible(self):
        # The TF guide's text for tensors of another shape or dtype than their spec.
        inputs = list(self.args) + list(self.kwargs.values())
        raise IncompatibleInputError(
            "Python inputs incompatible with input_signature:\n  inputs: (\n    " +
            ",\n    ".join(str(i) for i in inputs) + ")\n  input_signature: (\n    " +
            ",\n    ".join(str(s) for s in self._binder._sig) + ").")


def _spec_text(spec):
    if isinstance(spec, (TensorSpec, TypeSpec)):
        return repr(spec)
    if isinstance(spec, dict):
        return "Dict[%s]" % ", ".join(f"[{k!r}, {_spec_text(v)}]" for k, v in spec.items())
    kind = "List" if isinstance(spec, list) else "Tuple"
    return "%s[%s]" % (kind, ", ".join(_spec_text(s) for s in spec))


def _flatten_up_to(spec, value, call):
    """The leaves of `value` at the positions of `spec`'s leaves."""
    if isinstance(spec, (TensorSpec, TypeSpec)):
        return [value]
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            call.fail(f"{value!r} has different keys with the TraceType {_spec_text(spec)}.")
        return [x for k in sorted(spec, key=trace_type._sort_key) for x in _flatten_up_to(spec[k], value[k], call)]
    kind = list if isinstance(spec, list) else tuple
    if not isinstance(value, kind):  # TF tells lists and tuples apart
        call.fail(f"Can not cast {value!r} to {kind.__name__} type.")
    if len(value) != len(spec):
        call.fail(f"Expected {value!r} to have length of {len(spec)}")
    return [x for s, v in zip(spec, value) for x in _flatten_up_to(s, v, call)]


def _to_spec(value, spec, call):
    """`value` converted to tensors as `spec` says: Python values convert exactly to the spec's
    dtype, NumPy arrays are cast, tensors and variables must already match."""
    from eagerflow.framework.convert import convert_to_tensor
    flat = _flatten_up_to(spec, value, call)
    out = []
    for s, v in zip(nest.flatten(spec), flat):
        if isinstance(s, TypeSpec):  # a composite (ragged, sparse): its spec must fit
            value_spec = v if isinstance(v, TypeSpec) else getattr(v, "_type_spec", None)
            if value_spec is None or not value_spec.is_subtype_of(s):
                call.incompatible()
            out.append(v)
            continue
        if isinstance(v, TensorSpec):  # get_concrete_function(TensorSpec(...))
            if not (s.dtype == v.dtype and s.shape.is_compatible_with(v.shape)):
                call.incompatible()
            out.append(v)
            continue
        if not isinstance(v, Tensor):
            if hasattr(v, "_as_tensor"):
                if v.dtype != s.dtype:
                    call.fail(f"Incompatible type conversion requested to type {s.dtype.name} for `tf.Variable of "
                              f"type {v.dtype.name}. (Variable: {v!r})")
                v = v._as_tensor()
            else:
                try:
                    v = convert_to_tensor(v, dtype=s.dtype)
                except (TypeError, ValueError) as e:
                    call.fail(str(e))
        if not s.is_compatible_with(v):
            call.incompatible()
        out.append(v)
    return out[0] if isinstance(spec, (TensorSpec, TypeSpec)) else nest.pack_sequence_as(spec, out)
