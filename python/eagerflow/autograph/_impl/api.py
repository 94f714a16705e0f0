"""AutoGraph's user API: converted_call (the runtime entry of every call in converted code),
tf_convert, to_graph, to_code, do_not_convert; errors are rewritten by user_errors.py."""
import functools
import sys
import types

from eagerflow.autograph._impl import conversion
from eagerflow.autograph._impl.user_errors import StagingError, rewrite_error  # noqa: F401 (API)
from eagerflow.autograph._operators.py_builtins import BUILTIN_OVERLOADS
from eagerflow.autograph._pyct.parser import ConversionError


class AutoGraphError(Exception):
    """Conversion failed."""


class ConversionWarning(UserWarning):
    pass


_warned = set()


def _warn_unconverted(fn, err):
    key = getattr(fn, "__code__", fn)
    if key in _warned:
        return
    _warned.add(key)
    sys.stderr.write("WARNING: AutoGraph could not transform %r and will run it as-is.\nCause: %s\n" % (fn, err))


def _converted_or_none(fn):
    if not conversion.is_user_function(fn):
        return None
    try:
        return conversion.convert(fn)
    except ConversionError as e:
        if "could not get source code" not in str(e):
            _warn_unconverted(fn, e)
        return None


def converted_call(f, args, kwargs, caller_fscope=None, options=None):
    """Calls `f(*args, **kwargs)`, converting `f` first when it is user code."""
    if kwargs is None:
        kwargs = {}
    t = type(f)
    if t is types.FunctionType:
        conv = _converted_or_none(f)
        return (conv or f)(*args, **kwargs)
    if t is types.MethodType:
        conv = _converted_or_none(f.__func__)
        if conv is not None:
            return conv(f.__self__, *args, **kwargs)
        return f(*args, **kwargs)
    if t is types.BuiltinFunctionType or t is type:
        try:
            over = BUILTIN_OVERLOADS.get(f)
        except TypeError:  # unhashable
            over = None
        if over is not None:
            return over(*args, **kwargs)
        return f(*args, **kwargs)
    if t is functools.partial:
        return converted_call(f.func, tuple(f.args) + tuple(args), {**f.keywords, **kwargs}, caller_fscope, options)
    return f(*args, **kwargs)


def _convert_callable(fn):
    """Converted form of `fn` (function, bound method or functools.partial), or `fn` itself."""
    if isinstance(fn, functools.partial):
        inner = _convert_callable(fn.func)
        return fn if inner is fn.func else functools.partial(inner, *fn.args, **fn.keywords)
    if isinstance(fn, types.MethodType):
        conv = _converted_or_none(fn.__func__)
        return fn if conv is None else types.MethodType(conv, fn.__self__)
    if isinstance(fn, types.FunctionType):
        return _converted_or_none(fn) or fn
    return fn


def tf_convert(f, ctx=None, convert_by_default=True, user_requested=False):
    """The converted version of `f` (f itself when it cannot or should not be converted)."""
    return _convert_callable(f)


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """tf.autograph.to_graph: the converted Python function (raises when it cannot be converted)."""
    fn = entity.python_function if hasattr(entity, "python_function") else entity
    target = fn.__func__ if isinstance(fn, types.MethodType) else fn
    if not isinstance(target, types.FunctionType):
        raise AutoGraphError("converting %r: only functions and methods are supported" % (entity,))
    try:
        conv = conversion.convert(target)
    except ConversionError as e:
        raise AutoGraphError("converting %r: %s" % (entity, e)) from None
    return types.MethodType(conv, fn.__self__) if isinstance(fn, types.MethodType) else conv


def to_code(entity, recursive=True, experimental_optional_features=None):
    """tf.autograph.to_code: the source of the converted function (`def tf__<name>(...)`)."""
    fn = entity.python_function if hasattr(entity, "python_function") else entity
    if isinstance(fn, functools.partial):
        fn = fn.func
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    if not isinstance(fn, types.FunctionType):
        raise AutoGraphError("converting %r: only functions and methods are supported" % (entity,))
    try:
        return conversion.to_source(fn)
    except ConversionError as e:
        raise AutoGraphError("converting %r: %s" % (entity, e)) from None


def do_not_convert(func=None):
    """Decorator: the function runs as written, even when called from converted code."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    wrapper.__ag_do_not_convert__ = True
    return wrapper
