"""Nested structures: flatten and rebuild (list, tuple, namedtuple, dict, TF's __tf_flatten__ protocol)."""
import collections.abc

from eagerflow import _core
from eagerflow.framework.type_spec import CompositeTensor


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


_LEAVES = (_core.Tensor, type(None), int, float, bool, str)


def _is_custom(x):
    """TF's CustomNestProtocol: `__tf_flatten__() -> (metadata, components)` and a classmethod
    `__tf_unflatten__(metadata, components)` (a TensorArray flattens to its flow tensor)."""
    return hasattr(type(x), "__tf_flatten__") and not isinstance(x, type)


def is_nested(x, expand_composites=False):
    if isinstance(x, _LEAVES):  # the common leaves, without the protocol lookup
        return False
    return (isinstance(x, (list, tuple, dict, collections.abc.Mapping)) or _is_custom(x)
            or (expand_composites and isinstance(x, CompositeTensor)))


def _children(x, expand=False):
    if isinstance(x, collections.abc.Mapping):
        return [x[k] for k in sorted(x, key=_sort_key)]
    if _is_custom(x):
        return list(x.__tf_flatten__()[1])
    if expand and isinstance(x, CompositeTensor):  # a ragged or sparse tensor: its component tensors
        return list(x._type_spec._to_components(x))
    return list(x)


def _sort_key(k):
    return (str(type(k)), k) if not isinstance(k, str) else ("", k)


def flatten(structure, expand_composites=False):
    """Leaves of `structure` in order (dicts by sorted key); None is a leaf."""
    out = []
    _flatten(structure, out, expand_composites)
    return out


def _flatten(x, out, expand=False):
    if is_nested(x, expand):
        for c in _children(x, expand):
            _flatten(c, out, expand)
    else:
        out.append(x)


def _rebuild(template, children):
    if isinstance(template, CompositeTensor) and not _is_custom(template):
        return template._type_spec._from_components(list(children))
    if _is_custom(template):  # metadata of the template (its components are replaced)
        return type(template).__tf_unflatten__(template.__tf_flatten__()[0], tuple(children))
    if isinstance(template, collections.abc.Mapping):
        keys = sorted(template, key=_sort_key)
        d = dict(zip(keys, children))
        return type(template)((k, d[k]) for k in template) if type(template) is not dict else {k: d[k] for k in template}
    if _is_namedtuple(template):
        return type(template)(*children)
    if isinstance(template, tuple):
        return tuple(children)
    return list(children)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """Rebuilds `structure` with the leaves taken from `flat_sequence` (TF's ValueError when the
    counts differ)."""
    flat = flat_sequence if isinstance(flat_sequence, (list, tuple)) else list(flat_sequence)
    if not is_nested(structure, expand_composites):
        if len(flat) != 1:
            raise ValueError(
                f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever the input is a "
                f"sequence ({type(flat_sequence)}) of length {len(flat)}.\n  {flat}\nnest cannot guarantee that "
                "it is safe to map one to the other.")
        return flat[0]
    it = iter(flat)
    try:
        result = _pack(structure, it, expand_composites)
        extra = next(it, _END) is not _END
    except StopIteration:
        extra = True
    if extra:
        raise ValueError(f"Could not pack sequence. Structure had {len(flatten(structure, expand_composites))} atoms, but flat_sequence "
                         f"had {len(flat)} items.  Structure: {structure}, flat_sequence: {flat}.")
    return result


_END = object()


def _pack(x, it, expand=False):
    if is_nested(x, expand):
        return _rebuild(x, [_pack(c, it, expand) for c in _children(x, expand)])
    return next(it)


def map_structure(func, *structures, **kwargs):
    expand = kwargs.get("expand_composites", False)
    flats = [flatten(s, expand) for s in structures]
    if any(len(f) != len(flats[0]) for f in flats):
        raise ValueError("The two structures don't have the same number of elements.")
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)], expand)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """Raises ValueError (TypeError for differing sequence types) unless both have the same
    nested structure."""
    def check(a, b):
        if is_nested(a) != is_nested(b):
            raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: "
                             "type=%s str=%s\n\nSecond structure: type=%s str=%s"
                             % (type(nest1).__name__, nest1, type(nest2).__name__, nest2))
        if not is_nested(a):
            return
        if check_types and type(a) is not type(b) and not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                                                         and not _is_namedtuple(a) and not _is_namedtuple(b)):
            raise TypeError("The two structures don't have the same sequence type. Input structure has type %s, "
                            "while shallow structure has type %s." % (type(a), type(b)))
        ca, cb = _children(a), _children(b)
        if isinstance(a, collections.abc.Mapping) and sorted(a, key=_sort_key) != sorted(b, key=_sort_key):
            raise ValueError("The two structures don't have the same keys: %s vs %s" % (list(a), list(b)))
        if len(ca) != len(cb):
            raise ValueError("The two structures don't have the same nested structure.\n\nFirst structure: "
                             "type=%s str=%s\n\nSecond structure: type=%s str=%s\n\nMore specifically: The two "
                             "structures don't have the same number of elements."
                             % (type(nest1).__name__, nest1, type(nest2).__name__, nest2))
        for x, y in zip(ca, cb):
            check(x, y)
    check(nest1, nest2)
