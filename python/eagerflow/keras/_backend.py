"""Keras plumbing: unique object names ("dense", "dense_1") and Keras's snake_case rule."""
import collections
import re

_names = collections.defaultdict(int)  # Keras's global object-name counters (one per base name)


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


def clear_session():
    """tf.keras.backend.clear_session: object names start again from `dense`, `model`, ... (eagerflow keeps
    no global Keras graph or session to reset)."""
    _names.clear()
