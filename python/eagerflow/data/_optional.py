"""tf.experimental.Optional: a variant tensor that holds one element or nothing
(Iterator.get_next_as_optional returns one)."""
from eagerflow.framework import nest
from eagerflow.ops import _execute
from eagerflow.data import _structure


class Optional:
    """An element that may be missing (TF's tf.experimental.Optional)."""

    def has_value(self, name=None):
        raise NotImplementedError

    def get_value(self, name=None):
        raise NotImplementedError

    @property
    def element_spec(self):
        raise NotImplementedError

    @staticmethod
    def empty(element_spec):
        return _OptionalImpl(_execute.execute1("OptionalNone", []), element_spec)

    @staticmethod
    def from_value(value):
        value = _structure.normalize_element(value)
        flat = nest.flatten(value)
        variant = _execute.execute1("OptionalFromValue", flat, {"Toutput_types": [t.dtype for t in flat]})
        return _OptionalImpl(variant, _structure.spec_of(value))


class _OptionalImpl(Optional):
    def __init__(self, variant_tensor, element_spec):
        self._variant_tensor = variant_tensor
        self._element_spec = element_spec

    def has_value(self, name=None):
        return _execute.execute1("OptionalHasValue", [self._variant_tensor])

    def get_value(self, name=None):
        flat = _execute.execute("OptionalGetValue", [self._variant_tensor],
                                _structure.element_attrs(self._element_spec))
        return _structure.from_tensor_list(self._element_spec, flat)

    @property
    def element_spec(self):
        return self._element_spec
