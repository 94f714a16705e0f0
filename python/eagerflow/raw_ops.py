"""tf.raw_ops: every registered op as a function of keyword arguments, made from the op registry.

`tf.raw_ops.AddV2(x=1., y=2.)` runs op AddV2 with TF's keyword names for its inputs and attrs.
Inputs typed by one attr (AddV2's x and y by "T") convert to the dtype of the first tensor among
them; inputs of a fixed type convert to that type. Attrs inferred from the inputs (T, N, ...) are
not arguments, as in TF.
"""
import inspect as _inspect
import re as _re

from eagerflow import _core
from eagerflow.ops._execute import execute as _execute

_Tensor = _core.Tensor
# Attrs whose value is a count of outputs: the op returns a list however many there are.
_LIST_OUTPUT_ATTRS = ("num_split", "num", "Tout")
# Attrs TF infers from the inputs (a list's length and types); never keyword arguments.
_INFERRED_ATTRS = ("N", "Tin", "Tcond")
# TF's API names where they differ from the op definition's (TF's api_def renames).
_REDUCTIONS = ("All", "Any", "Max", "Mean", "Min", "Prod", "Sum")
_API_NAMES = {**{(op, "reduction_indices"): "axis" for op in _REDUCTIONS},
              ("ExpandDims", "dim"): "axis", ("Split", "split_dim"): "axis", ("SplitV", "split_dim"): "axis",
              ("Squeeze", "squeeze_dims"): "axis", ("Where", "input"): "condition"}


def _snake(name):
    """TF's Python name of an op: AddV2 -> add_v2, BatchMatMulV2 -> batch_mat_mul_v2."""
    s = _re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return _re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _dtype_enum(value):
    from eagerflow.framework.dtypes import as_dtype
    return as_dtype(value)._type_enum


def _fixed_type(t):
    """The dtype enum of a fixed input type ("int32", "resource"), None for a type attr ("T")."""
    try:
        return _dtype_enum(t)
    except (TypeError, ValueError):
        return None


def _convert_group(values, enum):
    """Values typed by one attr: to `enum` when known, else to the first tensor's dtype."""
    if enum is None:
        first = next((v for v in values if isinstance(v, _Tensor) or hasattr(v, "_as_tensor")), values[0])
        enum = _core.convert_to_tensor(first)._dtype_enum
    return [_core.convert_to_tensor(v, enum, True) for v in values]


def _make(op):
    api = lambda n: _API_NAMES.get((op.name, n), n)  # noqa: E731
    inputs = [api(n.rstrip("*")) for n in op.inputs]
    is_list = [n.endswith("*") for n in op.inputs]
    types = list(op.input_types)
    inferred = set(types) | set(_INFERRED_ATTRS)
    if any(is_list[i] and not types[i] for i in range(len(types))):
        inferred.add("T")  # the types of a list of mixed dtypes
    attr_names = {api(a): a for a in op.attrs if a not in inferred}
    keys = inputs + list(attr_names) + ["name"]
    snake = _snake(op.name)

    def raw_op(*args, **kwargs):
        if args:
            raise TypeError(f"{snake} only takes keyword args (possible keys: {keys}). Please pass these args "
                            f"as kwargs instead.")
        for k in kwargs:
            if k not in keys:
                raise TypeError(f"{snake}() got an unexpected keyword argument '{k}'")
        missing = [n for n in inputs if n not in kwargs]
        if missing:
            s = "s" if len(missing) > 1 else ""
            raise TypeError(f"{snake}() missing {len(missing)} required positional argument{s}: "
                            + " and ".join(f"'{m}'" for m in missing))
        node_name = kwargs.pop("name", None)
        groups = {}  # type attr -> positions of the values it types
        inferred_attrs = {}
        values = []
        for n, lst, t in zip(inputs, is_list, types):
            v = list(kwargs[n]) if lst else [kwargs[n]]
            groups.setdefault(t or id(v), []).append((len(values), len(v)))
            values.append(v)
        for t, members in groups.items():
            flat = [x for i, _ in members for x in values[i]]
            if not flat:
                continue
            if not isinstance(t, str):  # a list of any dtypes (Tin, T of While): each on its own
                converted = [_core.convert_to_tensor(x) for x in flat]
            else:
                converted = _convert_group(flat, _fixed_type(t) if t else None)
            if isinstance(t, str) and t in op.attrs:
                inferred_attrs[t] = converted[0].dtype  # a type attr the kernel reads
            converted = iter(converted)
            for i, _ in members:
                values[i] = [next(converted) for _ in values[i]]
        flat_inputs = [x for v in values for x in v]
        attrs = dict(inferred_attrs)
        attrs.update({a: kwargs[k] for k, a in attr_names.items() if k in kwargs})
        outputs = _execute(op.name, flat_inputs, attrs, node_name)
        if any(a in op.attrs for a in _LIST_OUTPUT_ATTRS) or len(outputs) > 1:
            return list(outputs)
        return outputs[0] if len(outputs) == 1 else None

    raw_op.__name__ = raw_op.__qualname__ = snake
    raw_op.__signature__ = _inspect.Signature(
        [_inspect.Parameter(k, _inspect.Parameter.KEYWORD_ONLY,
                            default=_inspect.Parameter.empty if k in inputs else None) for k in keys])
    raw_op.__doc__ = f"Runs op {op.name}: inputs {inputs}, attrs {list(op.attrs)}."
    return raw_op


_FUNCTIONS = {}


def _public_ops():
    return {op.name: op for op in _core.list_ops() if not op.name.startswith("_")}


# The registry is complete once _core is loaded: its op names are the namespace.
__all__ = sorted(_public_ops())


def __getattr__(name):
    fn = _FUNCTIONS.get(name)
    if fn is None:
        op = _public_ops().get(name)
        if op is None:
            raise AttributeError(f"module 'tf.raw_ops' has no attribute '{name}'")
        fn = _FUNCTIONS[name] = _make(op)
    return fn


def __dir__():
    return list(__all__)
