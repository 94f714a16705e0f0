"""Converting a Python function: parse, run the converters, compile; cached per code object (the
rewrite) and per function object (the function bound to its globals and closure)."""
import linecache
import sys
import types
import weakref

from eagerflow.autograph._converters import functions
from eagerflow.autograph._impl import loader
from eagerflow.autograph._pyct import naming, parser, unparser
from eagerflow.autograph._pyct.parser import ConversionError

_code_cache = {}  # code object -> (converted code object, source text) or ConversionError
_fn_cache = weakref.WeakKeyDictionary()  # function -> converted function
_allow_cache = {}  # code object -> whether the function is user code

_SKIP_ROOTS = {"eagerflow", "numpy", "pytest", "_pytest", "pluggy", "six", "tensorflow"}


def _transform(fn):
    """(converted code object, converted source text) for a user function."""
    key = fn.__code__
    hit = _code_cache.get(key)
    if hit is None:
        try:
            node, filename = parser.parse_function(fn)
            new = functions.convert(node, naming.Namer(node))
            source = unparser.unparse(new)
            hit = (loader.compile_function(new, fn, filename), source)
        except ConversionError as e:
            hit = e
        _code_cache[key] = hit
    if isinstance(hit, ConversionError):
        raise hit
    return hit


def to_source(fn):
    return _transform(fn)[1]


def convert(fn):
    """The converted version of Python function `fn` (raises ConversionError)."""
    conv = _fn_cache.get(fn)
    if conv is None:
        from eagerflow.autograph import _ag
        code, _ = _transform(fn)
        conv = loader.instantiate(code, fn, _ag)
        _fn_cache[fn] = conv
    return conv


def is_user_function(fn):
    """True for plain Python functions outside eagerflow, NumPy, the standard library and
    installed packages, not marked do_not_convert and not already converted."""
    if not isinstance(fn, types.FunctionType):
        return False
    code = fn.__code__
    ok = _allow_cache.get(code)
    if ok is None:
        mod = (getattr(fn, "__module__", None) or "").split(".")[0]
        path = code.co_filename
        # "<...>" files: interactive code, convertible when its source is known (IPython cells
        # are put in linecache), not when it cannot be read (python -c, exec of a string).
        ok = not (mod in _SKIP_ROOTS or mod in sys.stdlib_module_names or "site-packages" in path
                  or "dist-packages" in path or code.co_name == "<lambda>"
                  or (path.startswith("<") and path not in linecache.cache))
        _allow_cache[code] = ok
    return ok and not getattr(fn, "__ag_converted__", False) and not getattr(fn, "__ag_do_not_convert__", False)
