"""TF's op dispatch, in its two forms.

Type-based handlers (TF's dispatch_for_api), for composite values: an op function wrapped where it is
defined (`add_dispatch_support(fn, kind)`) runs as usual, and when its arguments do not convert to
tensors (TypeError / ValueError) the handlers registered for it get the call (ragged and sparse tensors
register the elementwise ops, reductions, concat and stack). Dense calls pay one Python call.

Fallback dispatchers (TF's GlobalOpDispatcher), for values no op takes: a public API function called on
them (Keras's symbolic KerasTensors) is offered to the dispatchers registered here, and the first that
claims the arguments computes the result (Keras records the call as a TFOpLambda layer named after the
API). These wrappers are installed on the public namespaces only (`install`), with each function's own
parameters: op calls inside eagerflow run the functions themselves. A layer above registers its
dispatcher, so the ops need not know it.
"""
import functools
import inspect

from eagerflow.framework._api_names import API_NAMES, DISPATCHABLE

_DISPATCHERS = []  # (claims(args, kwargs) -> bool, handle(function, api_name, args, kwargs))


def add_fallback_dispatcher(claims, handle):
    """Registers a dispatcher: `handle` runs a failed call whose arguments `claims` accepts."""
    _DISPATCHERS.append((claims, handle))


def _dispatcher_for(args, kwargs):
    for claims, handle in _DISPATCHERS:
        if claims(args, kwargs):
            return handle
    return None


def _failed(target, api_name, error, args, kwargs):
    handle = _dispatcher_for(args, kwargs)
    if handle is None:
        raise error
    return handle(target, api_name, args, kwargs)  # outside the failed call's except: its errors are its own


def _failed_with_all_arguments(target, api_name, error, args, kwargs):
    """`_failed` for a signature wrapper, which passed every parameter on: those still holding their default
    object are dropped, so handlers and dispatchers see the call as it was written. A target with type-based
    handlers (which the wrapper skipped, calling the function under them) offers them the call first."""
    params = inspect.signature(getattr(target, "_dispatch_target", target)).parameters
    positional = [p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    args = list(args)
    while args and len(args) <= len(positional) and args[-1] is positional[len(args) - 1].default:
        args.pop()
    kwargs = {k: v for k, v in kwargs.items() if k not in params or v is not params[k].default}
    if isinstance(error, (TypeError, ValueError)):
        for handler in _handlers.get(target, ()):
            result = handler(*args, **kwargs)
            if result is not NotImplemented:
                return result
    return _failed(target, api_name, error, tuple(args), kwargs)


def add_fallback_support(target, api_name):
    """`target` with fallback dispatch: it runs as is; when it raises, a dispatcher that claims the
    arguments gets the call instead (TF's dispatch.add_dispatch_support). The wrapper has the target's own
    parameters where it can (no packing of *args and **kwargs on every call)."""
    wrapper = _with_signature(target, api_name)
    if wrapper is None:
        def wrapper(*args, **kwargs):
            try:
                return target(*args, **kwargs)
            except Exception as e:  # pylint: disable=broad-except
                error = e
            return _failed(target, api_name, error, args, kwargs)
    functools.update_wrapper(wrapper, target)
    wrapper._tf_api_name = api_name
    return wrapper


def _with_signature(target, api_name):
    """A wrapper defined with `target`'s parameter list (its defaults copied), or None for a callable that is
    no plain Python function. It calls the function under a type-based dispatch wrapper directly (one frame
    per call) and runs that wrapper's handlers itself when the call fails."""
    inner = getattr(target, "_dispatch_target", target)  # a function with type-based handlers: its own parameters
    code = getattr(inner, "__code__", None)
    if code is None or not isinstance(getattr(inner, "__defaults__", None), (tuple, type(None))):
        return None
    params = list(inspect.signature(inner).parameters.values())
    last_positional_only = max((i for i, p in enumerate(params) if p.kind is p.POSITIONAL_ONLY), default=None)
    head, args, kwargs, call = [], [], [], []
    for i, p in enumerate(params):
        if p.kind is p.VAR_POSITIONAL:
            head.append("*" + p.name)
            call.append("*" + p.name)
            args.append("*" + p.name)
        elif p.kind is p.VAR_KEYWORD:
            head.append("**" + p.name)
            call.append("**" + p.name)
            kwargs.append("**" + p.name)
        elif p.kind is p.KEYWORD_ONLY:
            if not any(h.startswith("*") for h in head):
                head.append("*")
            head.append(p.name)
            call.append(f"{p.name}={p.name}")
            kwargs.append(f"{p.name!r}: {p.name}")
        else:
            head.append(p.name)
            call.append(p.name)
            args.append(p.name)
        if i == last_positional_only:
            head.append("/")
    source = (f"def {code.co_name}({', '.join(head)}):\n"
              f"    try:\n"
              f"        return _ef_target_({', '.join(call)})\n"
              f"    except Exception as _ef_e_:\n"
              f"        _ef_error_ = _ef_e_\n"
              f"    return _ef_failed_(_ef_api_, _ef_api_name_, _ef_error_, ({''.join(a + ', ' for a in args)}),"
              f" {{{', '.join(kwargs)}}})\n")
    scope = {"_ef_target_": inner, "_ef_failed_": _failed_with_all_arguments, "_ef_api_name_": api_name, "_ef_api_": target}
    try:
        exec(source, scope)  # pylint: disable=exec-used
    except SyntaxError:
        return None
    wrapper = scope[code.co_name]
    wrapper.__defaults__ = inner.__defaults__
    wrapper.__kwdefaults__ = inner.__kwdefaults__
    return wrapper


def install(tf_module):
    """Replaces each dispatchable function with its wrapper wherever a namespace under `tf_module` exports it
    (`tf.cast` and `tf.dtypes.cast` stay one object); a function TF exports under two API names (an alias)
    gets one wrapper per name at the table's paths."""
    wrappers, first, exported = {}, {}, []
    for path in DISPATCHABLE:
        *parents, name = path.split(".")
        module = tf_module
        for part in parents:
            module = getattr(module, part, None)
        target = getattr(module, name, None) if module is not None else None
        if target is None or not callable(target) or hasattr(target, "_tf_api_name"):
            continue
        key = (id(target), API_NAMES.get(path, path))
        if key not in wrappers:
            wrappers[key] = add_fallback_support(target, key[1])
        first.setdefault(id(target), wrappers[key])
        exported.append((module, name, wrappers[key]))
    for module in _namespaces(tf_module):  # other exports of the same functions
        for name, value in list(vars(module).items()):
            wrapper = first.get(id(value))
            if wrapper is not None and wrapper.__wrapped__ is value:
                setattr(module, name, wrapper)
    for module, name, wrapper in exported:
        setattr(module, name, wrapper)


def _namespaces(tf_module):
    """The public namespaces reachable from `tf_module`: modules of the package that list their API in
    `__all__` (the implementation modules, which do not, keep their own functions)."""
    import types
    root = tf_module.__name__
    found, todo = {}, [tf_module]
    while todo:
        module = todo.pop()
        if id(module) in found:
            continue
        found[id(module)] = module
        for name, value in vars(module).items():
            if isinstance(value, types.ModuleType) and not name.startswith("_") and hasattr(value, "__all__") and (
                    value.__name__.startswith(root + ".")) and not any(
                    part.startswith("_") for part in value.__name__.split(".")):
                todo.append(value)
    return list(found.values())


# ---- type-based handlers ----

_handlers = {}  # API wrapper -> [handler(*args, **kwargs) -> result or NotImplemented]
_unary_apis = []
_binary_apis = []


def add_dispatch_support(fn, kind=None):
    """`fn` wrapped to fall back on the handlers registered for it; `kind` ("unary" or "binary")
    lists it among the elementwise APIs that elementwise handlers register for."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (TypeError, ValueError):
            for handler in _handlers.get(wrapper, ()):
                result = handler(*args, **kwargs)
                if result is not NotImplemented:
                    return result
            raise
    wrapper._dispatch_target = fn
    if kind == "unary":
        _unary_apis.append(wrapper)
    elif kind == "binary":
        _binary_apis.append(wrapper)
    return wrapper


def register(api, handler):
    """Calls of `api` (a wrapper from add_dispatch_support) that fail to convert go to `handler`,
    which returns NotImplemented for arguments it does not handle."""
    if not hasattr(api, "_dispatch_target"):
        raise ValueError(f"{api} does not support dispatch.")
    _handlers.setdefault(api, []).append(handler)


def register_unary_elementwise(handler):
    """handler(api, x, *args, **kwargs) for every unary elementwise API."""
    for api in _unary_apis:
        register(api, functools.partial(handler, api._dispatch_target))


def register_binary_elementwise(handler):
    """handler(api, x, y, *args, **kwargs) for every binary elementwise API."""
    for api in _binary_apis:
        register(api, functools.partial(handler, api._dispatch_target))


def unary_elementwise_apis():
    return list(_unary_apis)


def binary_elementwise_apis():
    return list(_binary_apis)
