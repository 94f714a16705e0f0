"""The trace cache of one tf.function: exact hits by hash, else the most specific traced type the
call is a subtype of; entries die with the objects they were traced for, and the size is bounded."""
import collections
import weakref

from eagerflow.function import trace_type

# Traces kept per Function; the oldest is dropped beyond this (a ConcreteFunction someone holds still works).
MAX_TRACES = 4096
# Remembered subtype lookups (request -> traced type); cleared whenever the traces change.
_MAX_DISPATCH_MEMO = 1024


def _on_death(cache_ref, key):
    def callback(_):
        cache = cache_ref()
        if cache is not None:
            cache.remove(key)
    return callback


class FunctionCache:
    """Traced argument types (a TupleType over the parameters) -> ConcreteFunction."""

    def __init__(self, on_change=None):
        self._entries = collections.OrderedDict()
        self._watch = {}  # key -> weak references whose callbacks remove the key when an object dies
        self._memo = {}
        self._on_change = on_change  # called when traces are removed (the C++ cache drops its entries)

    def __len__(self):
        return len(self._entries)

    def values(self):
        return list(self._entries.values())

    def lookup(self, request):
        """(ConcreteFunction, exact) for a call of type `request`, or (None, False)."""
        cf = self._entries.get(request)
        if cf is not None:
            return cf, True
        key = self._memo.get(request)
        if key is not None:
            cf = self._entries.get(key)
            if cf is not None:
                return cf, False
        best = None
        for other in self._entries:
            if request.is_subtype_of(other) and (best is None or other.is_subtype_of(best)):
                best = other
        if best is None:
            return None, False
        if len(self._memo) >= _MAX_DISPATCH_MEMO:
            self._memo.clear()
        if not trace_type.weakrefs_of(request):
            self._memo[request] = best
        return self._entries[best], False

    def generalize(self, request):
        """`request` relaxed against every traced type (reduce_retracing): shapes become None where
        they differ, ranks unknown where ranks differ."""
        relaxed = request
        for other in self._entries:
            s = relaxed.most_specific_common_supertype([other])
            if s is not None:
                relaxed = s
        return relaxed

    def add(self, key, cf):
        self._memo.clear()
        self._entries[key] = cf
        refs = trace_type.weakrefs_of(key)
        if refs:
            me = weakref.ref(self)
            self._watch[key] = [weakref.ref(r(), _on_death(me, key)) for r in refs if r() is not None]
        while len(self._entries) > MAX_TRACES:
            old, _ = self._entries.popitem(last=False)
            self._watch.pop(old, None)
            if self._on_change is not None:
                self._on_change()

    def remove(self, key):
        # Keys with weak references (the only ones removed this way) never reach the C++ cache.
        self._memo.clear()
        self._watch.pop(key, None)
        self._entries.pop(key, None)

    def clear(self):
        self._entries.clear()
        self._watch.clear()
        self._memo.clear()
