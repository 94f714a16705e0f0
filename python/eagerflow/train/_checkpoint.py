"""tf.train.Checkpoint: object-based saving in TF's format (TensorBundle V2 + TrackableObjectGraph).

Saving numbers the objects reachable from the root breadth first (`_trackable.breadth_first`), keys
each variable by its path (`model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`) and writes
the values and the serialized graph with the C++ BundleWriter (temporary files renamed into place).
Restoring matches the checkpoint's graph against the live objects by child name from the root. A
checkpointed child that does not exist yet (a Keras layer's weights before it is built, an
optimizer's slots before its first step) is remembered on its parent and restored when the parent
calls `restore_deferred` after creating state, as TF restores on creation.
"""
import os
import weakref

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes, errors
from eagerflow.framework.ops import init_scope
from eagerflow.ops.script_ops import py_function
from eagerflow.ops.variables import Variable
from eagerflow.train import _checkpoint_management as management
from eagerflow.train import _object_graph as object_graph
from eagerflow.train import _trackable as trackable

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VARIABLE_VALUE = "VARIABLE_VALUE"

# TF DataType enum -> NumPy dtype, for reading checkpoints (TF's too) whatever eagerflow supports.
_NP_BY_ENUM = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8, 8: np.complex64,
               9: np.int64, 10: np.bool_, 14: np.uint16, 17: np.uint16, 18: np.complex128, 19: np.float16,
               22: np.uint32, 23: np.uint64}
_BFLOAT16 = 14  # stored as TF stores it: the 16 bits of each value


def _bfloat16_bits(value):
    """The uint16 bits of a bfloat16 tensor's NumPy value (ml_dtypes' bfloat16, else exact float32)."""
    if value.dtype == np.float32:
        return (value.view(np.uint32) >> 16).astype(np.uint16)
    return value.view(np.uint16)


def _bfloat16_from_bits(bits):
    """bfloat16 bits as the NumPy value eagerflow gives bfloat16 tensors (float32 without ml_dtypes)."""
    np_type = dtypes.bfloat16.as_numpy_dtype
    if np_type is np.float32:
        return (bits.astype(np.uint32) << 16).view(np.float32)
    return bits.view(np_type)

# Live objects -> restorations waiting for children they do not have yet.
_deferred = weakref.WeakKeyDictionary()


def restore_deferred(obj):
    """Restores checkpointed values into state `obj` created since a restore (called after a Keras layer's
    build and an optimizer's slot creation). Cheap when nothing waits on `obj`."""
    try:
        pending = _deferred.pop(obj, None)
    except TypeError:
        return
    if pending:
        for restoration, node_id in list(pending.items()):
            restoration.match(obj, node_id)


def _bundle_reader(save_path):
    return _core.BundleReader(os.fspath(save_path))


def tensor_from_bundle(reader, key):
    """The NumPy array (of bytes objects for strings) of one checkpoint entry."""
    dtype, shape = reader.entry(key)
    if dtype == 7:
        strings = reader.read_strings(key)
        values = np.empty(len(strings), dtype=object)
        values[:] = strings
        return values.reshape(shape)
    np_dtype = _NP_BY_ENUM.get(dtype)
    if np_dtype is None:
        raise errors.UnimplementedError(None, None, f"Reading checkpoint tensors of DataType {dtype} ({key}) is "
                                                    f"not supported")
    array = np.empty(shape, dtype=np_dtype)
    try:
        reader.read_into(key, array.reshape(-1).view(np.uint8))
    except errors.InvalidArgumentError as e:
        name = "bfloat16" if dtype == _BFLOAT16 else np.dtype(np_dtype).name
        raise errors.DataLossError(None, None, f"Checkpoint entry {key} does not hold shape {list(shape)} of "
                                               f"{name}: {e.message}") from None
    return _bfloat16_from_bits(array) if dtype == _BFLOAT16 else array


class _Restoration:
    """One restore: the checkpoint's graph and which live object each of its nodes was matched with."""

    def __init__(self, save_path, reader, nodes):
        self.save_path = save_path
        self.reader = reader
        self.nodes = nodes
        self.object_by_node = {}
        self.restored = set()       # ids of variables assigned by this restore
        self.used_keys = set()

    def match(self, obj, node_id):
        """Matches `obj` with checkpoint node `node_id` and its subtree, restoring variables. Returns True
        when something under `obj` is still missing and `obj` cannot wait for it itself (a list or dict:
        its owner waits instead)."""
        self.object_by_node[node_id] = obj
        node = self.nodes[node_id]
        if trackable.is_variable(obj):
            self._restore_variable(obj, node)
            return False
        live = {}
        for name, child in trackable.children(obj):
            live.setdefault(name, child)
        incomplete = False
        for ref in node.children:
            child = live.get(ref.local_name)
            if child is None:
                incomplete = incomplete or self._has_values(ref.node_id)
            elif not (trackable.is_variable(child) and id(child) in self.restored):
                incomplete = self.match(child, ref.node_id) or incomplete
        if not incomplete:
            return False
        try:
            _deferred.setdefault(obj, {})[self] = node_id
        except TypeError:  # not weakly referenceable (a list or dict)
            return True
        return False

    def _has_values(self, node_id, seen=None):
        seen = set() if seen is None else seen
        if node_id in seen:
            return False
        seen.add(node_id)
        node = self.nodes[node_id]
        return bool(node.attributes) or any(self._has_values(r.node_id, seen) for r in node.children)

    def _restore_variable(self, variable, node):
        if id(variable) in self.restored:
            return
        for attr in node.attributes:
            if attr.name != VARIABLE_VALUE:
                continue
            value = tensor_from_bundle(self.reader, attr.checkpoint_key)
            shape = variable.shape
            if shape.rank is not None and list(value.shape) != shape.as_list():
                raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting to restore "
                                 f"variable with shape {tuple(shape.as_list())} and name "
                                 f"{attr.checkpoint_key}.")
            if value.dtype != object:
                value = value.astype(variable.dtype.as_numpy_dtype, copy=False)
            with init_scope():
                variable.assign(value)
            self.used_keys.add(attr.checkpoint_key)
            self.restored.add(id(variable))


def _node_name(nodes, node_id):
    """A readable path of a checkpoint node (its first path from the root)."""
    paths = {0: "(root)"}
    queue = [0]
    for current in queue:
        for ref in nodes[current].children:
            if ref.node_id not in paths:
                paths[ref.node_id] = ref.local_name if current == 0 else f"{paths[current]}.{ref.local_name}"
                queue.append(ref.node_id)
    return paths.get(node_id, f"node {node_id}")


class CheckpointLoadStatus:
    """What `Checkpoint.restore` returns: assertions about how the checkpoint matched the objects."""

    def __init__(self, checkpoint, restoration):
        self._checkpoint = checkpoint
        self._restoration = restoration

    def assert_consumed(self):
        """Every checkpointed value has a live object (restored or waiting for creation) and vice versa."""
        self.assert_existing_objects_matched()
        r = self._restoration
        for node_id, node in enumerate(r.nodes):
            if node.attributes and node_id not in r.object_by_node:
                raise AssertionError(f"Unresolved object in checkpoint {_node_name(r.nodes, node_id)}: "
                                     f"attributes {[a.checkpoint_key for a in node.attributes]}")
        return self

    def assert_existing_objects_matched(self):
        """Every live object that holds values was matched to the checkpoint."""
        r = self._restoration
        for node_id, obj in r.object_by_node.items():
            if trackable.is_variable(obj) and id(obj) not in r.restored and r.nodes[node_id].attributes:
                raise AssertionError(f"Object {_node_name(r.nodes, node_id)} not assigned a value from checkpoint.")
        objects, _ = trackable.breadth_first(self._checkpoint._graph_root())
        matched = {id(o) for o in r.object_by_node.values()}
        unused = [o for o in objects if trackable.is_variable(o) and id(o) not in matched]
        if unused:
            raise AssertionError(f"Some Python objects were not bound to checkpointed values, likely due to changes "
                                 f"in the Python program: {unused}")
        return self

    def assert_nontrivial_match(self):
        """Something besides the root matched."""
        if len(self._restoration.object_by_node) <= 1:
            raise AssertionError(f"Nothing except the root object matched a checkpointed value. Typically this means "
                                 f"that the checkpoint does not match the Python program. The following objects have "
                                 f"checkpointed values: {self._restoration.nodes and len(self._restoration.nodes)}")
        return self

    def expect_partial(self):
        """Silences warnings about values not restored (there are none to silence here)."""
        return self

    def run_restore_ops(self, session=None):
        """Restoration already happened eagerly."""

    def initialize_or_restore(self, session=None):
        """Restoration already happened eagerly."""


CheckpointLoadStatus.__module__ = "eagerflow.train"


class InitializationOnlyStatus:
    """What `restore(None)` returns: nothing was restored."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        pass

    def initialize_or_restore(self, session=None):
        pass


InitializationOnlyStatus.__module__ = "eagerflow.train"


class CheckpointOptions:
    """tf.train.CheckpointOptions: accepted for compatibility; eagerflow writes one shard on the CPU."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False, experimental_sharding_callback=None,
                 experimental_skip_slot_variables=False):
        self.experimental_io_device = experimental_io_device
        self.enable_async = enable_async or experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.experimental_sharding_callback = experimental_sharding_callback
        self.experimental_skip_slot_variables = experimental_skip_slot_variables


CheckpointOptions.__module__ = "eagerflow.train"


class _Root:
    """The graph root when `Checkpoint(root=...)` is given: the root's children plus the keyword ones."""

    def __init__(self, checkpoint):
        self._ckpt = checkpoint

    def _trackable_children(self):
        out = trackable.children(self._ckpt._root)
        return out + self._ckpt._own_children()


class Checkpoint:
    """tf.train.Checkpoint(root=None, **kwargs): saves and restores the trackable objects given."""

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_deps", {})
        object.__setattr__(self, "_save_counter", None)
        object.__setattr__(self, "_root", root)
        if root is not None:
            self._check_trackable("root", root)
        for name, value in sorted(kwargs.items(), key=lambda item: item[0]):
            setattr(self, name, value)

    @staticmethod
    def _check_trackable(name, value):
        if not trackable.is_trackable(value) and not isinstance(value, (list, dict, tuple)):
            raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an object derived from "
                             f"`Trackable`), got {value}. If you believe this object should be trackable (i.e. it is "
                             f"part of the TensorFlow Python API and manages state), please open an issue.")

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            self._check_trackable(name, value)
            self._deps[name] = value
        object.__setattr__(self, name, value)

    def _own_children(self):
        out = list(self._deps.items())
        if self._save_counter is not None:
            out.append(("save_counter", self._save_counter))
        return out

    def _trackable_children(self):
        return self._own_children()

    def _graph_root(self):
        return self if self._root is None else _Root(self)

    @property
    def save_counter(self):
        """An int64 variable counting `save` calls (created on first use)."""
        if self._save_counter is None:
            with init_scope():
                object.__setattr__(self, "_save_counter",
                                   Variable(0, dtype="int64", trainable=False, name="save_counter"))
        return self._save_counter

    # --- saving ------------------------------------------------------------------------------------
    def write(self, file_prefix, options=None):
        """Writes a checkpoint at `file_prefix` (no numbering, no state file); returns the prefix. Inside a
        tf.function it adds a stateful op that writes the variables' values as of its turn on every call."""
        if _core.current_graph() is not None:
            return py_function(lambda prefix: self._write(prefix.numpy().decode()), [os.fspath(file_prefix)],
                               dtypes.string)
        return self._write(os.fspath(file_prefix))

    def _write(self, file_prefix):
        objects, paths = trackable.breadth_first(self._graph_root())
        ids = {id(o): i for i, o in enumerate(objects)}
        nodes, values = [], []
        for obj in objects:
            node = object_graph.TrackableObject()
            if trackable.is_variable(obj):
                key = trackable.checkpoint_key(paths[id(obj)])
                node.attributes.append(object_graph.SerializedTensor(VARIABLE_VALUE, trackable.full_name(obj), key))
                values.append((key, obj))
            else:
                node.children = [object_graph.ObjectReference(ids[id(c)], name)
                                 for name, c in trackable.children(obj)]
            nodes.append(node)
        _mark_values(nodes)
        writer = _core.BundleWriter(file_prefix)
        for key, variable in values:
            value = variable.value()._numpy()  # a view of the immutable current value: no copy
            if variable.dtype.name == "string":
                flat = np.asarray(value, dtype=object).reshape(-1)
                writer.add_strings(key, list(np.shape(value)), [bytes(s) for s in flat])
            else:
                if variable.dtype.as_datatype_enum == _BFLOAT16:
                    value = _bfloat16_bits(value)
                flat = np.ascontiguousarray(value).reshape(-1).view(np.uint8)  # ascontiguousarray makes 0-d 1-d
                writer.add(key, variable.dtype.as_datatype_enum, list(value.shape), flat)
        writer.add_strings(OBJECT_GRAPH_KEY, [], [object_graph.encode(nodes)])
        writer.finish()
        return file_prefix

    def save(self, file_prefix, options=None):
        """Writes `<file_prefix>-<save_counter>` and records it in the directory's `checkpoint` file."""
        if _core.current_graph() is not None:
            raise NotImplementedError(
                "Calling tf.train.Checkpoint.save() from a function is not supported, as save() modifies saving "
                "metadata in ways not supported by TensorFlow Operations. Consider using tf.train.Checkpoint.write(), "
                "a lower-level API which does not update metadata. tf.train.latest_checkpoint and related APIs will "
                "not see this checkpoint.")
        file_prefix = os.fspath(file_prefix)
        counter = self.save_counter
        with init_scope():
            counter.assign_add(1)
        path = self.write(f"{file_prefix}-{int(counter.numpy())}", options=options)
        management.update_checkpoint_state(os.path.dirname(file_prefix), path, [path])
        return path

    # --- restoring ---------------------------------------------------------------------------------
    def read(self, save_path, options=None):
        """Restores from `save_path` (as `restore` does); returns the load status."""
        return self._restore(save_path)

    def restore(self, save_path, options=None):
        """Restores the values of `save_path` into the objects, now or when they are created."""
        if save_path is None:
            return InitializationOnlyStatus()
        return self._restore(save_path)

    def _restore(self, save_path):
        save_path = os.fspath(save_path)
        try:
            reader = _bundle_reader(save_path)
        except errors.NotFoundError as e:
            raise errors.NotFoundError(
                None, None, f"Error when restoring from checkpoint or SavedModel at {save_path}: {e.message}\n"
                            f"Please double-check that the path is correct. You may be missing the checkpoint "
                            f"suffix (e.g. the '-1' in 'path/to/ckpt-1').") from None
        if OBJECT_GRAPH_KEY not in reader:
            raise errors.NotFoundError(None, None, f"The checkpoint at {save_path} has no object graph "
                                                   f"({OBJECT_GRAPH_KEY}); name-based checkpoints are not supported.")
        nodes = object_graph.decode(reader.read_strings(OBJECT_GRAPH_KEY)[0], save_path)
        if any(ref.local_name == "save_counter" for ref in nodes[0].children if nodes):
            self.save_counter  # pylint: disable=pointless-statement  (created so that it is restored)
        restoration = _Restoration(save_path, reader, nodes)
        if nodes:
            restoration.match(self._graph_root(), 0)
        return CheckpointLoadStatus(self, restoration)


Checkpoint.__module__ = "eagerflow.train"


def _mark_values(nodes):
    """Sets has_checkpoint_values on every node with a value in its subtree (children may point back)."""
    memo = {}

    def has(i, stack):
        if i in memo:
            return memo[i]
        if i in stack:
            return False
        stack.add(i)
        result = bool(nodes[i].attributes) or any(has(r.node_id, stack) for r in nodes[i].children)
        stack.discard(i)
        memo[i] = result
        return result

    for i, node in enumerate(nodes):
        node.has_checkpoint_values = has(i, set())
