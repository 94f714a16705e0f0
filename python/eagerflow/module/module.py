"""tf.Module: a named container of variables and submodules, found by walking its attributes."""
import functools
import re

from eagerflow.framework.ops import name_scope as _name_scope
from eagerflow.framework import nest

# Attributes a walk skips: bookkeeping, not model state.
_IGNORED_ATTRIBUTES = frozenset(["_tf_function_cache", "_scope_name", "_name"])


def camel_to_snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _is_variable(x):
    from eagerflow.ops.variables import Variable
    return isinstance(x, Variable)


class Module:
    """Base class of objects that own tf.Variables and other modules (tf.Module)."""

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid Python identifiers "
                             "(e.g. a valid class name).")
        self._name = name
        with _name_scope(name) as scope_name:  # eager: "name/" (no uniquifying, as in TF eager)
            self._scope_name = scope_name

    @property
    def name(self):
        """The module's name (the class name in snake_case by default)."""
        # Subclasses may skip super().__init__() (the guide's models do): derive it then.
        n = self.__dict__.get("_name")
        return n if n is not None else camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        """A tf.name_scope that re-enters this module's scope."""
        scope = self.__dict__.get("_scope_name") or self.name + "/"
        return _name_scope(scope)

    @property
    def variables(self):
        """All tf.Variables of this module and its submodules (each once), in attribute order."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and x.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and not x.trainable))

    @property
    def submodules(self):
        """Every Module reachable from this one's attributes (not itself), breadth first."""
        return tuple(self._flatten(predicate=lambda x: isinstance(x, Module)))

    def _flatten(self, recursive=True, predicate=None):
        return list(_flatten_module(self, recursive, predicate or (lambda x: True), set(), {id(self)}))

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: runs `method` inside `self.name_scope`."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def _leaves(value):
    if isinstance(value, Module) or _is_variable(value):
        return [value]
    if isinstance(value, (list, tuple, dict)) and not isinstance(value, str):
        try:
            return nest.flatten(value)
        except Exception:  # pylint: disable=broad-except
            return []
    return [value]


def _flatten_module(module, recursive, predicate, seen, visited):
    """Leaves matching `predicate` in `module`'s attributes (sorted by name, nested lists, tuples and
    dicts flattened), each yielded once; then the same for every submodule found, breadth first."""
    submodules = []
    for key in sorted(vars(module)):
        if key in _IGNORED_ATTRIBUTES:
            continue
        for leaf in _leaves(vars(module)[key]):
            if id(leaf) in seen:
                continue
            if predicate(leaf):
                seen.add(id(leaf))
                yield leaf
            if recursive and isinstance(leaf, Module) and id(leaf) not in visited:
                visited.add(id(leaf))
                submodules.append(leaf)
    for sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, seen, visited)


Module.__module__ = "eagerflow"
