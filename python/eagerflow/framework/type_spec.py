"""tf.TypeSpec and CompositeTensor: values made of tensors (a Dataset's variant, an Iterator's
resource) that tf.function traces by their spec, feeds by their components and rebuilds inside the
graph from placeholders of the same components."""
import abc


def _hashable(x):
    if isinstance(x, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__,) + tuple(_hashable(v) for v in x)
    return x


class TypeSpec(abc.ABC):
    """The type of a composite value. Subclasses give `value_type`, `_component_specs` (TensorSpecs),
    `_to_components(value)`, `_from_components(tensors)` and `_serialize()` (what makes two specs
    equal: a nest of specs, numbers and strings)."""

    @property
    @abc.abstractmethod
    def value_type(self):
        """The Python type of the values this spec describes."""

    @property
    @abc.abstractmethod
    def _component_specs(self):
        pass

    @abc.abstractmethod
    def _to_components(self, value):
        pass

    @abc.abstractmethod
    def _from_components(self, components):
        pass

    @abc.abstractmethod
    def _serialize(self):
        pass

    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None

    def is_compatible_with(self, spec_or_value):
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else getattr(spec_or_value, "_type_spec", None)
        return type(other) is type(self) and other._serialize() == self._serialize()

    def __eq__(self, other):
        return type(other) is type(self) and _hashable(other._serialize()) == _hashable(self._serialize())

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), _hashable(self._serialize())))


class CompositeTensor(abc.ABC):
    """A value tf.function passes by its tensor components (see TypeSpec)."""

    @property
    @abc.abstractmethod
    def _type_spec(self):
        pass
