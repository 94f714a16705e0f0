"""tf.nest: flatten and rebuild nested structures (list, tuple, namedtuple, dict, dataclass-free)."""
import collections.abc


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def is_nested(x):
    return isinstance(x, (list, tuple, dict, collections.abc.Mapping))


def _children(x):
    if isinstance(x, collections.abc.Mapping):
        return [x[k] for k in sorted(x, key=_sort_key)]
    return list(x)


def _sort_key(k):
    return (str(type(k)), k) if not isinstance(k, str) else ("", k)


def flatten(structure, expand_composites=False):
    """Leaves of `structure` in order (dicts by sorted key); None is a leaf."""
    out = []
    _flatten(structure, out)
    return out


def _flatten(x, out):
    if is_nested(x):
        for c in _children(x):
            _flatten(c, out)
    else:
        out.append(x)


def _rebuild(template, children):
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
    """Rebuilds `structure` with the leaves taken from `flat_sequence`."""
    it = iter(flat_sequence)
    result = _pack(structure, it)
    return result


def _pack(x, it):
    if is_nested(x):
        return _rebuild(x, [_pack(c, it) for c in _children(x)])
    return next(it)


def map_structure(func, *structures, **kwargs):
    flats = [flatten(s) for s in structures]
    if any(len(f) != len(flats[0]) for f in flats):
        raise ValueError("The two structures don't have the same number of elements.")
    return pack_sequence_as(structures[0], [func(*xs) for xs in zip(*flats)])
