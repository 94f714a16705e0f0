"""The dependency graph of trackable objects that checkpoints save, as TF's AutoTrackable and Keras
tracking build it: found by walking attributes, so eagerflow's classes need no tracking base class.

- a tf.Variable is a leaf (saved as its `VARIABLE_VALUE` attribute);
- a tf.Module (Keras layers and models included), a tf.train.Checkpoint, or any other object that holds
  variables in its attributes (a Keras optimizer) is a node whose children are its attributes, in the
  order they were assigned;
- a list, tuple or dict attribute that holds trackables is a node whose children are named "0", "1", ...
  or by key;
- a Keras layer (an object with `_own_weights`) names its weights by their short names first, as
  `add_weight` tracks them; a Keras model with a layer list (`_tracked_layers`: Sequential, functional)
  names them `layer_with_weights-N` and `layer-N`, as Keras 2 does;
- attributes a class lists in `_untracked_attributes` are its bookkeeping, not dependencies;
- an object may also define `_trackable_children()` returning (name, child) pairs.
"""
import collections

from eagerflow.module.module import Module
from eagerflow.ops.variables import Variable

# Attributes that are bookkeeping, or reach the same objects under a second name that TF does not use.
_SKIPPED = frozenset(["_tf_function_cache", "_own_weights", "_trainable_variables", "_index",
                      "_deferred_restorations"])


def is_variable(x):
    return isinstance(x, Variable)


def _holds_state(value, depth=0):
    if is_variable(value) or isinstance(value, Module):
        return True
    if depth > 0:
        return False
    return any(_holds_state(v, 1) or (_is_container(v) and _container_holds_state(v, 1))
               for v in _attributes(value).values())


def _is_container(x):
    return isinstance(x, (list, tuple, dict))


def _container_holds_state(container, depth=0):
    values = container.values() if isinstance(container, dict) else container
    for v in values:
        if _is_container(v):
            if depth < 8 and _container_holds_state(v, depth + 1):
                return True
        elif is_trackable(v):
            return True
    return False


def _attributes(obj):
    try:
        return vars(obj)
    except TypeError:
        return {}


def is_trackable(x):
    """Whether a checkpoint saves `x` as a node (not a plain Python value)."""
    if is_variable(x) or isinstance(x, Module) or hasattr(type(x), "_trackable_children"):
        return True
    if _is_container(x) or isinstance(x, (str, bytes, int, float, complex, type)) or x is None:
        return False
    return _holds_state(x)


def weight_name(v):
    """The name Keras tracks a weight by: the last component of the variable's name."""
    return v.name.split(":")[0].rsplit("/", 1)[-1]


def full_name(v):
    """TF's `full_name` of a saved variable: its graph name without the output index."""
    path = getattr(v, "path", None)
    return path if isinstance(path, str) else v.name.split(":")[0]


def children(obj):
    """The (local name, child) pairs of a trackable node, in TF's order (duplicates allowed)."""
    hook = getattr(type(obj), "_trackable_children", None)
    if hook is not None:
        return list(hook(obj))
    if isinstance(obj, dict):
        return [(str(k), v) for k, v in obj.items() if is_trackable(v) or
                (_is_container(v) and _container_holds_state(v))]
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if is_trackable(v) or
                (_is_container(v) and _container_holds_state(v))]
    out, names = [], set()

    def add(name, value):
        if name not in names:
            names.add(name)
            out.append((name, value))

    attrs = _attributes(obj)
    for v in attrs.get("_own_weights", ()):
        add(weight_name(v), v)
    layers = getattr(obj, "_tracked_layers", None)
    if isinstance(layers, list) and layers and all(isinstance(x, Module) for x in layers):
        with_weights = 0
        for i, layer in enumerate(layers):
            if layer.variables:
                add(f"layer_with_weights-{with_weights}", layer)
                with_weights += 1
            add(f"layer-{i}", layer)
    untracked = getattr(type(obj), "_untracked_attributes", ())
    for key, value in attrs.items():
        if key in _SKIPPED or key in untracked or (layers is not None and layers is value):
            continue
        if is_trackable(value) or (_is_container(value) and _container_holds_state(value)):
            add(key, value)
    return out


def breadth_first(root):
    """(objects in node-id order, paths: id(obj) -> tuple of local names) as TF numbers the nodes."""
    order, paths = [root], {id(root): ()}
    queue = collections.deque([root])
    while queue:
        current = queue.popleft()
        if is_variable(current):
            continue
        for name, child in children(current):
            if id(child) not in paths:
                paths[id(child)] = paths[id(current)] + (name,)
                order.append(child)
                queue.append(child)
    return order, paths


def escape(name):
    """TF's escaping of a local name inside a checkpoint key ('.' -> '..', '/' -> '.S')."""
    return name.replace(".", "..").replace("/", ".S")


def checkpoint_key(path, attribute="VARIABLE_VALUE"):
    return "/".join(escape(n) for n in path) + "/.ATTRIBUTES/" + escape(attribute)
