"""The tracing protocol: TraceType (what tf.function keys traces on) and the contexts it receives."""
import abc


class TracingContext:
    """What `__tf_tracing_type__(context)` receives while tf.function computes an argument's type."""

    def __init__(self, is_legacy_signature=False):
        self._is_legacy_signature = is_legacy_signature
        self._alias_ids = {}

    def _alias_id(self, obj):
        """The number of `obj` among the objects of one call that may alias (variables), from 0."""
        return self._alias_ids.setdefault(id(obj), len(self._alias_ids))

    @property
    def is_legacy_signature(self):
        return self._is_legacy_signature


class PlaceholderContext:
    """What `TraceType.placeholder_value(context)` receives while tracing (the graph being built)."""

    def __init__(self, graph=None, name=None):
        self.graph = graph
        self.name = name


class TraceType(abc.ABC):
    """The type of a tf.function argument: equal types share a trace, and a call whose type is a
    subtype of a traced type can use that trace."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """True when every value of this type is also a value of `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The most specific type all of self and `others` are subtypes of, or None."""

    def placeholder_value(self, placeholder_context=None):
        """The value the Python function sees while tracing (None: use the call's own value)."""
        raise NotImplementedError

    @abc.abstractmethod
    def __eq__(self, other):
        pass

    @abc.abstractmethod
    def __hash__(self):
        pass

