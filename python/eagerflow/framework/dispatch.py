"""TF's fallback op dispatch: a public API function called on values it cannot take (Keras's symbolic
KerasTensors) is offered to the dispatchers registered here, and the first that claims the arguments
computes the result (Keras records the call as a TFOpLambda layer). A layer above registers its
dispatcher, so the ops need not know it. The wrappers are installed on the public namespaces only
(`install`): op calls inside eagerflow run the functions themselves."""
import functools

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


def add_dispatch_support(target, api_name):
    """`target` with fallback dispatch: it runs as is; when it raises, a dispatcher that claims the
    arguments gets the call instead (TF's dispatch.add_dispatch_support)."""

    @functools.wraps(target)
    def wrapper(*args, **kwargs):
        try:
            return target(*args, **kwargs)
        except Exception:  # pylint: disable=broad-except
            handle = _dispatcher_for(args, kwargs)
            if handle is None:
                raise
        return handle(target, api_name, args, kwargs)  # outside the except: its errors are its own

    wrapper._tf_api_name = api_name
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
            wrappers[key] = add_dispatch_support(target, key[1])
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

