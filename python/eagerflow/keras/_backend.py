"""Keras 3 plumbing: unique object names ("dense", "dense_1"), the path scope stack, keras.Variable."""
import collections
import re
import threading

import numpy as np

from eagerflow import _core
from eagerflow.keras import _initializers as initializers
from eagerflow.ops.variables import Variable as _TFVariable

_names = collections.defaultdict(int)  # Keras's global object-name counters (one per base name)
_local = threading.local()


def to_snake_case(name):
    """Keras's class-name to layer-name rule (Conv2D -> conv2d, MyHTTPLayer -> my_http_layer); tf.Module's
    camel_to_snake differs on digits (conv2_d)."""
    s = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    s = re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()
    return s if not s.startswith("_") else "private" + s


def auto_name(prefix, zero_based=True, snake=True):
    """A fresh name: `prefix` the first time, then `prefix_1`, `prefix_2`, ... (Keras's uid scheme);
    one-based (`prefix_1` first) where Keras counts so, as for Input layers."""
    if snake:
        prefix = to_snake_case(prefix)
    n = _names[prefix]
    _names[prefix] += 1
    if not zero_based:
        return f"{prefix}_{n + 1}"
    return prefix if n == 0 else f"{prefix}_{n}"


def _stack():
    s = getattr(_local, "scopes", None)
    if s is None:
        s = _local.scopes = []
    return s


class name_scope:
    """Pushes `name` on the path of variables created inside (Keras's backend.name_scope)."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _stack().append(self.name)
        return self

    def __exit__(self, *exc):
        _stack().pop()


def current_path(name):
    return "/".join(_stack() + [name])


class Variable(_TFVariable):
    """keras.Variable: a tf.Variable with Keras's short `name`, scoped `path` and printed form.

    (In Keras 3 it wraps a tf.Variable; here it is one, so tf.function's variable rules apply to it.)
    """

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, name=None, **kwargs):
        name = name or "variable"
        if "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        path = current_path(name)
        if isinstance(initializer, str):
            initializer = initializers.get(initializer)
        if callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                                 f"specified. Received: initializer={initializer} and shape={shape}")
            init, dtype = initializer, dtype or "float32"  # Keras's floatx
            initializer = lambda: init(shape, dtype=dtype)  # noqa: E731 (evaluated lifted, like TF's init_scope)
        super().__init__(initializer, trainable=trainable, name=path, dtype=dtype, **kwargs)
        self._keras_name = name
        self._path = path

    @property
    def name(self):
        return self._keras_name

    @property
    def path(self):
        return self._path

    def __repr__(self):
        head = f"<Variable path={self._path}, shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}"
        if _core.current_graph() is not None:  # symbolic while tracing: no value to show
            return head + ">"
        a = np.asarray(self.numpy())
        return f"{head}, value={a.item() if a.ndim == 0 else a}>"

    __str__ = __repr__


Variable.__module__ = "keras"
Variable.__qualname__ = "Variable"
