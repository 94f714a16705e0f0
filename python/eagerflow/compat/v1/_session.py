"""tf.compat.v1.Session: runs parts of a tf.Graph. Each distinct (fetches, feeds) signature is
compiled once into a C++ Plan and cached; later runs only convert feeds and results."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework import ops
from eagerflow.framework.config import list_logical_devices
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework import nest

get_default_session = ops.get_default_session


class _Fetch:
    """One fetched element resolved against the session's graph: a tensor or an Operation."""

    __slots__ = ("tensor", "op")

    def __init__(self, tensor=None, op=None):
        self.tensor, self.op = tensor, op


class BaseSession(ops.SessionInterface):
    """The shared part of Session and InteractiveSession."""

    def __init__(self, target="", graph=None, config=None):
        if graph is None:
            graph = ops.get_default_graph()
        elif not isinstance(graph, ops.Graph):
            raise TypeError(f"Argument `graph` must be a tf.Graph, but got \"{type(graph).__name__}\"")
        self._graph = graph
        self._target = target if isinstance(target, bytes) else str(target).encode()
        self._config = config
        self._closed = False
        self._plans = {}
        self._contexts = []
        self._variables = {}  # id(graph variable) -> (variable, this session's handle: its own state)

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    @property
    def sess_str(self):
        return self._target

    def close(self):
        self._closed = True
        self._plans.clear()

    def as_default(self):
        return ops.default_session(self)

    def list_devices(self):
        return list_logical_devices()

    # --- run ------------------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the graph to compute `fetches` (a tensor, an Operation, a tensor or op name, or a
        list/tuple/dict/namedtuple of them) with placeholders fed from `feed_dict`. Tensors come
        back as NumPy values, Operations as None, in the structure of `fetches`."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        # Running is eager work even inside `with graph.as_default()`: feeds convert to values.
        with ops.init_scope():
            return self._run(fetches, feed_dict)

    def _run(self, fetches, feed_dict):
        flat = nest.flatten(fetches)
        resolved = [self._resolve_fetch(f) for f in flat]
        feed_keys, feed_values = self._resolve_feeds(feed_dict)
        var_keys, var_values = self._variable_feeds()
        feed_keys, feed_values = feed_keys + var_keys, feed_values + var_values
        tensors, targets, seen = [], [], set()
        for r in resolved:
            if r.tensor is not None:
                tensors.append(r.tensor)
            elif r.op._node not in seen:
                seen.add(r.op._node)
                targets.append(r.op._node)
        key = (tuple((t._node_name, t.value_index) for t in tensors), tuple(n.name for n in targets),
               tuple((t._node_name, t.value_index) for t in feed_keys))
        plan = self._plans.get(key)
        if plan is None:
            plan = _core.Plan(self._graph._graph, feed_keys, tensors, targets)
            self._plans[key] = plan
        values = iter(plan.run(feed_values))
        results = [None if r.tensor is None else next(values).numpy() for r in resolved]
        if nest.is_nested(fetches):
            return nest.pack_sequence_as(fetches, results)
        return results[0]

    def _variable_feeds(self):
        """Feeds for the handle nodes of the graph's variables: this session's own states (TF: each
        session has its own variables, uninitialized until it runs their initializers)."""
        keys, values = [], []
        for v in self._graph.get_collection("variables"):
            entry = self._variables.get(id(v))
            if entry is None:
                dims = None if v.shape.rank is None else [-1 if d is None else d for d in v.shape.as_list()]
                entry = self._variables[id(v)] = (v, _core.new_uninitialized_variable_handle(
                    v.dtype._type_enum, dims, v.name.rsplit(":", 1)[0]))
            keys.append(v._tf1.handle)
            values.append(entry[1])
        return keys, values

    def _resolve_fetch(self, fetch):
        g = self._graph
        if fetch is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
        if isinstance(fetch, ops.Operation):
            if fetch.graph is not g:
                raise ValueError(f"Argument `fetch` = {fetch.name} cannot be interpreted as a Tensor. (Operation "
                                 f"{fetch!r} is not an element of this graph.)")
            return _Fetch(op=fetch)
        if isinstance(fetch, str):
            try:
                if ":" in fetch:
                    return _Fetch(tensor=g.get_tensor_by_name(fetch))
                return _Fetch(op=g.get_operation_by_name(fetch))
            except KeyError as e:
                raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a Tensor. ({e})") from None
        if hasattr(fetch, "_as_tensor") and not isinstance(fetch, Tensor):
            fetch = fetch._as_tensor()
        if isinstance(fetch, Tensor):
            if fetch.graph is not g:  # .graph of an eager tensor raises AttributeError, as in TF
                raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a Tensor. (Tensor {fetch} is "
                                 "not an element of this graph.)")
            return _Fetch(tensor=fetch)
        raise TypeError(f'Argument `fetch` = {fetch!r} has invalid type "{type(fetch).__name__}" must be a string '
                        f"or Tensor. (Can not convert a {type(fetch).__name__} into a Tensor or Operation.)")

    def _resolve_feeds(self, feed_dict):
        keys, values = [], []
        if not feed_dict:
            return keys, values
        g = self._graph
        for key, value in feed_dict.items():
            if isinstance(key, str):
                try:
                    key = g.get_tensor_by_name(key)
                except (KeyError, ValueError) as e:
                    raise TypeError(f"Cannot interpret feed_dict key as Tensor: {e.args[0]}") from None
            elif isinstance(key, Tensor) and key._is_symbolic:
                if key.graph is not g:
                    raise ValueError(f"Cannot interpret feed_dict key as Tensor: Tensor {key} is not an element of "
                                     "this graph.")
            else:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: Can not convert a {type(key).__name__} "
                                "into a Tensor.")
            if key.value_index != 0:
                raise ValueError(f"Feeding output {key.value_index} of an op is not supported (Tensor {key.name}).")
            keys.append(key)
            values.append(_feed_value(key, value))
        return keys, values

    # --- context manager --------------------------------------------------------------------------
    def __enter__(self):
        # As in TF: the session becomes the default session and its graph the default graph.
        ctxs = [self._graph.as_default(), self.as_default()]
        for c in ctxs:
            c.__enter__()
        self._contexts.append(ctxs)
        return self

    def __exit__(self, exc_type, exc_value, tb):
        for c in reversed(self._contexts.pop()):
            c.__exit__(exc_type, exc_value, tb)
        self.close()
        return False


def _feed_value(key, value):
    """A feed converted to the placeholder's dtype (as NumPy converts) and checked against its shape."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values include Python "
                        "scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, the tensor object "
                        f"was {value} which was passed to the argument `feed_dict` with key {key}.")
    dtype = key.dtype
    if dtype == dtypes.string:
        arr = np.asarray(value, dtype=object)
        arr = np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr) if arr.size else arr
    else:
        arr = np.asarray(value, dtype=dtype.as_numpy_dtype)
    shape = TensorShape(key._shape_tuple)
    if not shape.is_compatible_with(TensorShape(arr.shape)):
        raise ValueError(f"Cannot feed value of shape {arr.shape} for Tensor {key.name}, which has shape {shape}")
    return _core.convert_to_tensor(arr)


class Session(BaseSession):
    """tf.compat.v1.Session(target='', graph=None, config=None)."""


class InteractiveSession(BaseSession):
    """A Session that makes itself (and its graph) the default on creation, until close()."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._interactive = [self._graph.as_default(), self.as_default()]
        for c in self._interactive:
            c.__enter__()

    def close(self):
        ctxs, self._interactive = getattr(self, "_interactive", None), None
        if ctxs:
            for c in reversed(ctxs):
                c.__exit__(None, None, None)
        super().close()
