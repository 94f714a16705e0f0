"""TF's op dispatch for composite values: an API function wrapped here runs as usual, and when its
arguments do not convert to tensors (TypeError / ValueError), the handlers registered for it get
the call (ragged tensors register the elementwise ops and reductions). Dense calls pay one Python
call; the handlers run only after a failed conversion."""
import functools

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
