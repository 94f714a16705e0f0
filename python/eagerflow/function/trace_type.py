"""Built-in TraceTypes: the type of each tf.function argument, which decides when to retrace.

Tensors are typed by dtype and shape (a fixed dim is a subtype of None, a ranked shape of an unknown
rank), Python primitives by value, containers and __tf_flatten__ objects by their elements, objects
with __tf_tracing_type__ by what it returns, and any other object by weak reference and its equality/hash: a trace for a dead
object never matches again and the cache does not keep the object alive.
"""
import collections.abc
import weakref

import numpy as np

from eagerflow.framework.tensor import EagerTensor, Tensor
from eagerflow.framework.trace import TraceType, TracingContext
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec

_LITERALS = (type(None), bool, int, float, complex, str, bytes, np.generic)


class _Builtin(TraceType):
    """Base of the built-in types: they also make placeholders and flatten call values."""
    __slots__ = ()

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None

    def _placeholder(self, value, ctx):
        return value

    def _flatten(self, value, out):
        pass

    def _weakrefs(self):
        return ()

    def __ne__(self, other):
        return not self == other


# --- tensors -------------------------------------------------------------------------------------

def _shape_is_subtype(a, b):
    if b is None:
        return True
    if a is None or len(a) != len(b):
        return False
    return all(y is None or x == y for x, y in zip(a, b))


def _shape_supertype(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


class TensorType(_Builtin):
    """A tensor argument: dtype and (partially known) shape; `name` only names the placeholder."""
    __slots__ = ("dtype_enum", "shape", "name", "_hash")

    def __init__(self, dtype_enum, shape, name=None):
        self.dtype_enum = dtype_enum
        self.shape = None if shape is None else tuple(shape)
        self.name = name
        self._hash = hash((TensorType, dtype_enum, self.shape))

    def is_subtype_of(self, other):
        return (type(other) is TensorType and other.dtype_enum == self.dtype_enum
                and _shape_is_subtype(self.shape, other.shape))

    def most_specific_common_supertype(self, others):
        shape = self.shape
        for o in others:
            if type(o) is not TensorType or o.dtype_enum != self.dtype_enum:
                return None
            shape = _shape_supertype(shape, o.shape)
        return TensorType(self.dtype_enum, shape, self.name)

    def placeholder_value(self, placeholder_context=None):
        ctx = placeholder_context
        dims = None if self.shape is None else [-1 if d is None else d for d in self.shape]
        return ctx.graph._graph.add_placeholder(self.dtype_enum, dims, self.name or ctx.name)

    def _placeholder(self, value, ctx):
        ph = self.placeholder_value(ctx)
        ctx.placeholders.append(ph)
        return ph

    def _flatten(self, value, out):
        if not isinstance(value, Tensor):  # a TensorSpec given to a call: a spec has no value to feed
            raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a "
                             "Tensor.")
        out.append(value)

    def spec(self):
        from eagerflow.framework.tensor_spec import TensorSpec
        from eagerflow.framework import dtypes
        return TensorSpec(self.shape, dtypes.as_dtype(self.dtype_enum), self.name)

    def __eq__(self, other):
        return (type(other) is TensorType and other.dtype_enum == self.dtype_enum and other.shape == self.shape)

    def __hash__(self):
        return self._hash

    def __repr__(self):  # TF's tensor type is its TensorSpec
        return repr(self.spec())


class _Ref:
    """A weak reference with the referent's hash, equal while both referents live and are equal."""
    __slots__ = ("ref", "hash", "__weakref__")

    def __init__(self, value):
        self.hash = hash(value)
        self.ref = weakref.ref(value)

    def same(self, other):
        a, b = self.ref(), other.ref()
        if a is None or b is None:
            return False
        if a is b:
            return True
        try:
            return bool(a == b)
        except Exception:  # an __eq__ that returns a tensor or raises: not equal
            return False


class VariableType(_Builtin):
    """A tf.Variable argument, as TF's VariableSpec: its dtype, shape, trainability and which earlier
    argument it aliases. Variables of one type share a trace: the function sees the variable it was
    traced with, whose handle is a placeholder of the graph; each call feeds its own variable's."""
    __slots__ = ("dtype_enum", "shape", "trainable", "alias_id", "_hash")

    def __init__(self, dtype_enum, shape, trainable, alias_id):
        self.dtype_enum = dtype_enum
        self.shape = None if shape is None else tuple(shape)
        self.trainable = bool(trainable)
        self.alias_id = alias_id
        self._hash = hash((VariableType, dtype_enum, self.shape, self.trainable, alias_id))

    @classmethod
    def of(cls, var, context):
        dims = var.shape.dims
        return cls(var.dtype._type_enum, dims, var.trainable, context._alias_id(var))

    def is_subtype_of(self, other):
        return self == other

    def __eq__(self, other):
        return (type(other) is VariableType and self.dtype_enum == other.dtype_enum and self.shape == other.shape
                and self.trainable == other.trainable and self.alias_id == other.alias_id)

    def __hash__(self):
        return self._hash

    def _placeholder(self, value, ctx):
        ctx.placeholders.append(ctx.graph._graph.add_resource_argument(value.handle, ctx.name))
        return value

    def _flatten(self, value, out):
        out.append(value.handle)

    def spec(self):
        from eagerflow.framework import dtypes
        from eagerflow.ops.variable_spec import VariableSpec
        return VariableSpec(self.shape, dtypes.as_dtype(self.dtype_enum), self.trainable, self.alias_id)

    def __repr__(self):  # as TF prints the type in function_type
        return repr(self.spec())


class WeakrefType(_Builtin):
    """Any other (hashable) object: by weak reference and its equality and hash."""
    __slots__ = ("_r",)

    def __init__(self, value):
        self._r = _Ref(value)

    def is_subtype_of(self, other):
        return self == other

    def _weakrefs(self):
        return (self._r.ref,)

    def __eq__(self, other):
        return type(other) is WeakrefType and self._r.hash == other._r.hash and self._r.same(other._r)

    def __hash__(self):
        return self._r.hash

    def __repr__(self):
        return "Weakref[%r])" % (self._r.ref,)  # TF's text, its stray parenthesis included


class Literal(_Builtin):
    """A Python primitive by value and type (1, 1.0 and True are different)."""
    __slots__ = ("value", "_hash")

    def __init__(self, value):
        self.value = value
        self._hash = hash((type(value), value))

    def is_subtype_of(self, other):
        return self == other

    def __eq__(self, other):
        return type(other) is Literal and type(other.value) is type(self.value) and other.value == self.value

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return "Literal[%r]" % (self.value,)


# --- containers ----------------------------------------------------------------------------------

class _Composite(_Builtin):
    """Ordered components plus a structural tag (container class, field names)."""
    __slots__ = ("tag", "components", "_hash")

    def __init__(self, tag, components):
        self.tag = tag
        self.components = tuple(components)
        self._hash = hash((type(self), tag, self.components))

    def is_subtype_of(self, other):
        return (type(other) is type(self) and other.tag == self.tag and len(other.components) == len(self.components)
                and all(a.is_subtype_of(b) for a, b in zip(self.components, other.components)))

    def most_specific_common_supertype(self, others):
        for o in others:
            if type(o) is not type(self) or o.tag != self.tag or len(o.components) != len(self.components):
                return None
        comps = []
        for i, c in enumerate(self.components):
            s = c.most_specific_common_supertype([o.components[i] for o in others])
            if s is None:
                return None
            comps.append(s)
        return type(self)(self.tag, comps)

    def _children(self, value):
        return list(value)

    def _placeholder(self, value, ctx):
        return self._rebuild(value, [_placeholder(t, v, ctx) for t, v in zip(self.components, self._children(value))])

    def _flatten(self, value, out):
        for t, v in zip(self.components, self._children(value)):
            _flatten(t, v, out)

    def _weakrefs(self):
        return [r for c in self.components for r in _weakrefs(c)]

    def __eq__(self, other):
        return (type(other) is type(self) and other._hash == self._hash and other.tag == self.tag
                and other.components == self.components)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return "%s[%s]" % (self._type_name, ", ".join(map(repr, self.components)))


def _pairs(names, types):
    return ", ".join("[%r, %r]" % (n, t) for n, t in zip(names, types))


class TupleType(_Composite):
    __slots__ = ()
    _type_name = "Tuple"

    def _rebuild(self, value, children):
        return tuple(children)


class ListType(_Composite):
    __slots__ = ()
    _type_name = "List"

    def _rebuild(self, value, children):
        return list(children)


class NamedTupleType(_Composite):
    """tag: (class, field names)."""
    __slots__ = ()

    def _rebuild(self, value, children):
        return type(value)(*children)

    def __repr__(self):
        return "%s[%s]" % (self.tag[0].__name__, _pairs(self.tag[1], self.components))


class DictType(_Composite):
    """tag: (mapping class, keys sorted as tf.nest sorts them); components in that key order."""
    __slots__ = ()

    def _children(self, value):
        return [value[k] for k in self.tag[1]]

    def __repr__(self):
        return "Dict[%s]" % _pairs(self.tag[1], self.components)

    def _rebuild(self, value, children):
        d = dict(zip(self.tag[1], children))
        items = [(k, d[k]) for k in value]  # the caller's key order
        return dict(items) if type(value) is dict else type(value)(items)


class CustomNestType(_Composite):
    """An object of a class with __tf_flatten__ / __tf_unflatten__ (TF's CustomNestProtocol).
    tag: (class, metadata); the metadata may be unhashable, so only the class and components hash."""
    __slots__ = ()

    def __init__(self, tag, components):
        self.tag = tag
        self.components = tuple(components)
        self._hash = hash((CustomNestType, tag[0], self.components))

    def _children(self, value):
        return list(value.__tf_flatten__()[1])

    def _rebuild(self, value, children):
        return self.tag[0].__tf_unflatten__(self.tag[1], tuple(children))

    def __repr__(self):  # TF's text
        return "CustomNestTraceType [metadata=%r, components=%r]" % (self.tag[1], self.components)


def _is_custom_nest(value):
    cls = type(value)
    return (not isinstance(value, type) and hasattr(cls, "__tf_flatten__") and hasattr(cls, "__tf_unflatten__"))


class CompositeType(_Builtin):
    """A CompositeTensor argument: typed by its TypeSpec, fed by its component tensors and rebuilt
    from placeholders of them while tracing."""
    __slots__ = ("spec", "components")

    def __init__(self, spec):
        self.spec = spec
        self.components = tuple(TensorType(c.dtype._type_enum, c.shape.dims) for c in spec._component_specs)

    def is_subtype_of(self, other):
        return type(other) is CompositeType and self.spec.is_subtype_of(other.spec)

    def most_specific_common_supertype(self, others):
        if any(type(o) is not CompositeType for o in others):
            return None
        spec = self.spec.most_specific_common_supertype([o.spec for o in others])
        return None if spec is None else CompositeType(spec)

    def _placeholder(self, value, ctx):
        return self.spec._from_components([c._placeholder(None, ctx) for c in self.components])

    def _flatten(self, value, out):
        out.extend(self.spec._to_components(value))

    def __eq__(self, other):
        return type(other) is CompositeType and other.spec == self.spec

    def __hash__(self):
        return hash((CompositeType, self.spec))

    def __repr__(self):
        return repr(self.spec)


# --- dispatch on built-in vs user types ---------------------------------------------------------

def _placeholder(t, value, ctx):
    if isinstance(t, _Builtin):
        return t._placeholder(value, ctx)
    try:
        return t.placeholder_value(ctx)
    except NotImplementedError:  # TF 2.11-era user types have none: the function sees the value itself
        return value


def _flatten(t, value, out):
    if isinstance(t, _Builtin):
        t._flatten(value, out)


def _weakrefs(t):
    return t._weakrefs() if isinstance(t, _Builtin) else ()


def _sort_key(k):
    return (str(type(k)), k) if not isinstance(k, str) else ("", k)


_variable_class = None


def _is_variable(value):
    global _variable_class
    if _variable_class is None:
        from eagerflow.ops.variables import Variable
        _variable_class = Variable
    return isinstance(value, _variable_class)


def from_value(value, context=None):
    """The TraceType of one argument value (raises TypeError for unhashable plain objects)."""
    cls = type(value)
    if cls is EagerTensor:
        return TensorType(value._dtype_enum, value._shape_tuple)
    if isinstance(value, _LITERALS):
        return Literal(value)
    from eagerflow.framework.tensor_spec import TensorSpec
    if cls is TensorSpec:
        return TensorType(value.dtype._type_enum, value.shape.dims, value.name)
    if isinstance(value, TypeSpec):  # a composite's spec (input_signature, get_concrete_function)
        return CompositeType(value)
    if context is None:
        context = TracingContext()
    if hasattr(value, "__tf_tracing_type__") and not isinstance(value, type):
        return value.__tf_tracing_type__(context)
    if isinstance(value, Tensor):
        return TensorType(value._dtype_enum, value._shape_tuple)
    if isinstance(value, CompositeTensor):
        return CompositeType(value._type_spec)
    if _is_variable(value):
        return VariableType.of(value, context)
    if isinstance(value, tuple):
        comps = [from_value(v, context) for v in value]
        if hasattr(cls, "_fields"):
            return NamedTupleType((cls, tuple(cls._fields)), comps)
        return TupleType(None, comps)
    if isinstance(value, list):
        return ListType(None, [from_value(v, context) for v in value])
    if isinstance(value, collections.abc.Mapping):
        keys = tuple(sorted(value, key=_sort_key))
        return DictType((cls, keys), [from_value(value[k], context) for k in keys])
    if _is_custom_nest(value):
        metadata, components = value.__tf_flatten__()
        return CustomNestType((cls, metadata), [from_value(c, context) for c in components])
    try:
        return WeakrefType(value)
    except TypeError:
        pass
    try:
        return Literal(value)  # hashable but not weak-referenceable (e.g. frozenset)
    except TypeError:
        raise TypeError(f"Could not generate a generic TraceType for {value!r}.Please verify that it is "
                        f"immutable/hashable. Otherwise, consider implementing the Tracing Protocol for it.") from None


def placeholder_for(t, value, ctx):
    """The value the traced function sees for an argument of type `t` (placeholders for tensors)."""
    return _placeholder(t, value, ctx)


def flatten_tensors(t, value, out):
    """Appends the tensors of `value` (an argument of type `t`) in placeholder order."""
    _flatten(t, value, out)


def weakrefs_of(t):
    """The weak references inside `t`: when one dies, traces keyed by `t` can never match again."""
    return _weakrefs(t)
