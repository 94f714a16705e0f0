"""tf.Graph, tf.Operation and graph-mode behaviour of tf.Tensor (symbolic tensors).

A Graph wraps a C++ graph (`_core.Graph`); ops called while a graph is the thread's building
graph become nodes in it (the one C++ execute() decides). FuncGraph (function/func_graph.py)
is the Graph tf.function traces into.
"""
import contextlib
import threading
import weakref

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.building import building, init_scope  # noqa: F401  (tf.init_scope)
from eagerflow.framework.default_stack import DefaultStack
from eagerflow.framework.graph_def import GraphDef, NodeDef, node_attrs
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_shape import TensorShape

_WRAPPERS = weakref.WeakValueDictionary()  # core graph id -> Python Graph


def _wrap_graph(core_graph):
    if core_graph is None:
        return None
    g = _WRAPPERS.get(core_graph.id)
    if g is None or g._graph is not core_graph:
        g = Graph.__new__(Graph)
        g._init_from_core(core_graph)
    return g


def _input_name(t):
    return t._node_name if t.value_index == 0 else "%s:%d" % (t._node_name, t.value_index)


class Operation:
    """A node of a Graph (tf.Operation)."""

    __slots__ = ("_node", "__weakref__")

    def __init__(self, node):
        if not isinstance(node, _core.Node):  # users get operations from graphs, never build them
            raise TypeError(f"tf.Operation wraps a graph node; got {type(node).__name__}. Operations come from "
                            "graph building (tf.Graph.get_operations, tensor.op).")
        self._node = node

    @property
    def name(self):
        return self._node.name

    @property
    def type(self):
        return self._node.type

    @property
    def graph(self):
        return _wrap_graph(self._node.graph)

    @property
    def inputs(self):
        return list(self._node.inputs())

    @property
    def outputs(self):
        return list(self._node.outputs())

    def values(self):
        return tuple(self._node.outputs())

    @property
    def control_inputs(self):
        return [Operation(n) for n in self._node.control_inputs()]

    @property
    def device(self):
        return self._node.device

    @property
    def node_def(self):
        return self._node_def()

    def _node_def(self, user_specified_name=None):
        inputs = [_input_name(t) for t in self._node.inputs()] + ["^" + n.name for n in self._node.control_inputs()]
        return NodeDef(self.name, self.type, inputs, node_attrs(self._node, user_specified_name), self.device)

    def get_attr(self, name):
        attrs = self._node.attrs()
        if name not in attrs:
            inferred = node_attrs(self._node).get(name)  # type attrs its inputs fix, TF's defaults
            if inferred is None:
                raise ValueError(f"Operation '{self.name}' has no attr named '{name}'.")
            return dtypes.as_dtype(inferred.type) if inferred.type is not None else inferred.b
        v = attrs[name]
        if name in ("dtype", "T", "DstT", "out_type", "output_type", "Tout"):
            return dtypes.as_dtype(v)
        return v

    def __eq__(self, other):
        return isinstance(other, Operation) and self._node == other._node

    def __hash__(self):
        return hash(self._node)

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self.name, self.type)

    def run(self, feed_dict=None, session=None):
        (session or get_default_session()).run(self, feed_dict)


class Graph:
    """tf.Graph: a dataflow graph of Operations, built by running ops inside `as_default()`."""

    def __init__(self):
        self._init_from_core(_core.Graph())
        # A TF1 graph runs only what a Session fetches: no automatic control dependencies
        # between stateful ops (those are for function graphs).
        self._graph.auto_control_deps = type(self) is not Graph
        self.seed = None  # the graph-level random seed (tf.compat.v1.set_random_seed)

    def _init_from_core(self, core_graph):
        self._graph = core_graph
        self._collections = {}
        self._finalized = False
        _WRAPPERS[core_graph.id] = self

    @contextlib.contextmanager
    def as_default(self):
        """Makes this the graph new ops are added to (on this thread)."""
        with _default_graph_stack.get_controller(self), building(self._graph):
            yield self

    def get_operations(self):
        return [Operation(n) for n in self._graph.nodes()]

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        n = self._graph.find(name)
        if n is None:
            raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")
        return Operation(n)

    def get_tensor_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        if ":" not in name:
            raise ValueError(f"The name {name!r} looks a like an Operation name, not a Tensor name. Tensor names "
                             "must be of the form \"<op_name>:<output_index>\".")
        op_name, _, idx = name.rpartition(":")
        n = self._graph.find(op_name)
        if n is None:
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, "
                           f"{op_name!r}, does not exist in the graph.")
        outs = n.outputs()
        if not idx.isdigit() or int(idx) >= len(outs):
            raise KeyError(f"The name {name!r} refers to a Tensor which does not exist. The operation, {op_name!r}, "
                           f"exists but only has {len(outs)} outputs.")
        return outs[int(idx)]

    def as_graph_def(self, from_version=None, add_shapes=False):
        from eagerflow.framework import function_def
        names = self._user_specified_names()
        nodes = [Operation(n)._node_def(names.get(n.name)) for n in self._graph.nodes()]
        library = function_def.FunctionDefLibrary(
            function_def.FunctionDef(f) for f in function_def.called_functions(self._graph))
        return GraphDef(nodes, library, function_def.VersionDef.of_library(library))

    def _user_specified_names(self):
        """Placeholder name -> the argument name it stands for (FuncGraph's arguments)."""
        return {}

    def unique_name(self, name, mark_as_used=True):
        return self._graph.unique_name(name)

    @contextlib.contextmanager
    def name_scope(self, name):
        """Prefixes the names of ops created inside with a unique scope ("outer/", "outer_1/", ...).

        A name ending in "/" re-enters that exact scope; None or "" returns to the top level.
        """
        old = self._graph.name_scope
        if not name:
            new = ""
        elif name.endswith("/"):
            new = name[:-1]
        else:
            new = self._graph.unique_name(old + "/" + name if old else name)
        self._graph.name_scope = new
        try:
            yield new + "/" if new else ""
        finally:
            self._graph.name_scope = old

    def get_name_scope(self):
        return self._graph.name_scope

    @property
    def finalized(self):
        return self._finalized

    def finalize(self):
        self._finalized = True

    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def get_collection(self, name, scope=None):
        return list(self._collections.get(name, []))

    @property
    def version(self):
        return self._graph.num_nodes()

    def __repr__(self):
        return "<eagerflow.Graph object at 0x%x>" % id(self)


_local = threading.local()
_default_graph_stack = DefaultStack()


def _graph_stack():
    return _default_graph_stack.stack


def get_default_graph():
    """The innermost graph of `as_default()` on this thread (a global graph outside any)."""
    s = _graph_stack()
    if s:
        return s[-1]
    g = getattr(_local, "global_graph", None)
    if g is None:
        g = _local.global_graph = Graph()
    return g


class SessionInterface:
    """What a TF1 session is to the graph layer (tf.compat.v1's BaseSession implements it)."""

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        raise NotImplementedError


_default_session_stack = DefaultStack()


def get_default_session():
    """The innermost session of `with sess:` / `sess.as_default()` on this thread, or None."""
    return _default_session_stack.get_default()


def default_session(session):
    """Makes `session` the default session while the block runs (`sess.as_default()`)."""
    return _default_session_stack.get_controller(session)


def executing_eagerly():
    """False while a graph is being built (tracing a tf.function, or inside Graph.as_default())."""
    return _core.current_graph() is None


def inside_function():
    """True while a tf.function is being traced (its graph feeds the eager tensors it uses)."""
    g = _core.current_graph()
    return g is not None and bool(g.captures_eager_tensors)


def get_current_name_scope():
    """tf.get_current_name_scope(): the innermost name scope, "outer/inner" ("" at the top level)."""
    return current_name_scope().rstrip("/")


def is_symbolic_tensor(tensor):
    """tf.is_symbolic_tensor: whether `tensor` is a graph tensor (not an eager one, a Variable or a value)."""
    return isinstance(tensor, Tensor) and tensor._is_symbolic


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """tf.control_dependencies: ops built in the block run after `control_inputs` (Operations or
    tensors; None clears the enclosing blocks' dependencies). Eagerly ops already run in program
    order: callables among the inputs are called and the block changes nothing."""
    core_graph = _core.current_graph()
    if core_graph is None:
        for c in control_inputs or ():
            if callable(c):
                c()
        yield None
        return
    old, old_since = core_graph.control_dependencies, core_graph.control_dependencies_since
    nodes = []
    for c in control_inputs or ():
        if hasattr(c, "_as_tensor") and not isinstance(c, (Tensor, Operation)):
            c = c._as_tensor()
        if isinstance(c, Tensor) and c._is_symbolic:
            c = c.op
        if not isinstance(c, Operation):
            raise TypeError(f"Can not convert a {type(c).__name__} into a Tensor or Operation.")
        nodes.append(c._node)
    core_graph.control_dependencies = ([] if control_inputs is None else list(old)) + nodes
    core_graph.control_dependencies_since = core_graph.num_nodes()
    try:
        yield None
    finally:
        core_graph.control_dependencies = old
        core_graph.control_dependencies_since = old_since


_eager_scope = threading.local()


def current_name_scope():
    """The innermost tf.name_scope as a prefix ("outer/inner/", or "" at the top level): the graph's
    while one is being built, else the eager one."""
    core_graph = _core.current_graph()
    if core_graph is not None:
        scope = core_graph.name_scope
        return scope + "/" if scope else ""
    return getattr(_eager_scope, "scope", "")


class name_scope:
    """tf.name_scope(name): prefixes the names of ops built inside (in a graph being built); while
    executing eagerly it only tracks the scope string, as TF does."""

    __slots__ = ("_name", "_exit", "_scope")

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._exit = None

    @property
    def name(self):
        return self._name

    def __enter__(self):
        core_graph = _core.current_graph()
        if core_graph is not None:
            cm = _wrap_graph(core_graph).name_scope(self._name)
            scope = cm.__enter__()
            self._exit = cm.__exit__
            return scope
        old = getattr(_eager_scope, "scope", "")
        if not self._name:
            scope = ""
        elif self._name.endswith("/"):
            scope = self._name
        else:
            scope = old + self._name + "/"
        _eager_scope.scope = scope
        self._exit = lambda *exc: setattr(_eager_scope, "scope", old)
        return scope

    def __exit__(self, *exc):
        exit_fn, self._exit = self._exit, None
        exit_fn(*exc)
        return False


# --- graph-mode behaviour of tf.Tensor ---------------------------------------------------------
_eager_str, _eager_repr = Tensor.__str__, Tensor.__repr__
_eager_bool = Tensor.__bool__
_eager_len = Tensor.__len__
_eager_index = Tensor.__index__
_eager_hash, _eager_eq, _eager_ne = Tensor.__hash__, Tensor.__eq__, Tensor.__ne__
_eager_format = Tensor.__format__
_eager_array = Tensor.__array__
_eager_reduce = Tensor.__reduce__
_eager_int, _eager_float, _eager_complex = Tensor.__int__, Tensor.__float__, Tensor.__complex__


def _sym_name(self):
    return "%s:%d" % (self._node_name, self.value_index)


def _str(self):
    if self._is_symbolic:
        shape = self.shape
        if shape.rank is None:  # TF leaves an unknown shape out of str() (repr() shows <unknown>)
            return 'Tensor("%s", dtype=%s)' % (_sym_name(self), self.dtype.name)
        return 'Tensor("%s", shape=%s, dtype=%s)' % (_sym_name(self), shape, self.dtype.name)
    return _eager_str(self)


def _repr(self):
    if self._is_symbolic:
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (_sym_name(self), self.shape, self.dtype.name)
    return _eager_repr(self)


def _name(self):
    if self._is_symbolic:
        return _sym_name(self)
    raise AttributeError("Tensor.name is undefined when eager execution is enabled.")


def _op(self):
    if self._is_symbolic:
        return Operation(_core_node(self))
    raise AttributeError("Tensor.op is undefined when eager execution is enabled.")


def _core_node(t):
    return t._graph.find(t._node_name)


def _graph(self):
    if self._is_symbolic:
        return _wrap_graph(self._graph)
    raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")


# Graphs whose tensors iterate in Python: Keras' functional construction runs layers on placeholders
# where TF iterates its KerasTensors into rows (Keras adds and removes its graph's id).
ITERABLE_GRAPH_IDS = set()


def operator_not_allowed(what):
    """TF's OperatorNotAllowedInGraphError for a Python operation on a symbolic tensor."""
    from eagerflow.framework.errors import OperatorNotAllowedInGraphError
    return OperatorNotAllowedInGraphError(
        f"{what} is not allowed. You can attempt the following "
        "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or decorate "
        "this function with @tf.function. If you are using AutoGraph, you can try decorating this function "
        "with @tf.function. If that does not work, then you may be using an unsupported feature or your "
        "source code may not be visible to AutoGraph. See "
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
        "limitations.md#access-to-source-code for more information.")


def _bool(self):
    if self._is_symbolic:
        raise operator_not_allowed("Using a symbolic `tf.Tensor` as a Python `bool`")
    return _eager_bool(self)


def _len(self):
    if self._is_symbolic:
        raise TypeError(f"len is not well defined for a symbolic Tensor ({_sym_name(self)}). Please call "
                        "`x.shape` rather than `len(x)` for shape information.")
    return _eager_len(self)


def _index(self):
    if self._is_symbolic:
        raise TypeError(f"Tensor {_sym_name(self)} cannot be used as a Python index: its value is not known "
                        "while tracing.")
    return _eager_index(self)


def _tf1_graph_tensor(t):
    # A tensor of a TF1 tf.Graph (not a function graph): hashable and compared by identity, as in
    # TF, so tensors work as feed_dict keys and in `in` tests.
    return t._is_symbolic and not t._graph.name


def _hash(self):
    if _tf1_graph_tensor(self):
        return id(self)
    return _eager_hash(self)


def _eq(self, other):
    if _tf1_graph_tensor(self):
        return self is other
    return _eager_eq(self, other)


def _ne(self, other):
    if _tf1_graph_tensor(self):
        return self is not other
    return _eager_ne(self, other)


def _format(self, spec):
    if self._is_symbolic:
        if spec:
            raise TypeError("unsupported format string passed to SymbolicTensor.__format__")
        return _str(self)
    return _eager_format(self, spec)


def _array(self, dtype=None, copy=None):
    if self._is_symbolic:
        raise NotImplementedError(f"Cannot convert a symbolic tf.Tensor ({_sym_name(self)}) to a numpy array. This "
                                  "error may indicate that you're trying to pass a Tensor to a NumPy call, which is "
                                  "not supported.")
    return _eager_array(self, dtype, copy)


def _reduce(self):
    if self._is_symbolic:  # a graph tensor has no value to copy or pickle
        raise TypeError("cannot pickle 'SymbolicTensor' object")
    return _eager_reduce(self)


def _deepcopy(self, memo):
    if self._is_symbolic:
        raise TypeError("cannot pickle 'SymbolicTensor' object")
    return self


def _python_number(eager_fn, message):
    def convert(self):
        if self._is_symbolic:  # Python's own error: a symbolic tensor is no number
            raise TypeError(message)
        return eager_fn(self)
    return convert


def _numpy(self):
    if self._is_symbolic:
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")
    a = self._numpy()
    return a[()] if a.ndim == 0 else a.copy()


def _eval(self, feed_dict=None, session=None):
    if not self._is_symbolic:
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're "
                                  "looking for?")
    session = session or get_default_session()
    if session is not None and not isinstance(session, SessionInterface):
        raise TypeError(f"`session` must be a tf.compat.v1.Session, got {type(session).__name__}")
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use `with "
                         "sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return session.run(self, feed_dict)


def _shape(self):
    # _shape_tuple is already ints and None (or None for an unknown rank): no per-dim validation.
    shape = object.__new__(TensorShape)
    shape._dims = self._shape_tuple
    return shape


for _n, _f in {"__str__": _str, "__repr__": _repr, "__bool__": _bool, "__len__": _len,
               "__index__": _index, "numpy": _numpy, "eval": _eval, "__hash__": _hash, "__eq__": _eq,
               "__ne__": _ne, "__format__": _format, "__array__": _array, "__reduce__": _reduce,
               "__deepcopy__": _deepcopy,
               "__int__": _python_number(_eager_int, "int() argument must be a string, a bytes-like object or a real "
                                                     "number, not 'SymbolicTensor'"),
               "__float__": _python_number(_eager_float, "float() argument must be a string or a real number, not "
                                                         "'SymbolicTensor'"),
               "__complex__": _python_number(_eager_complex, "complex() first argument must be a string or a number, "
                                                             "not 'SymbolicTensor'")}.items():
    setattr(Tensor, _n, _f)
Tensor.name = property(_name)
Tensor.op = property(_op)
Tensor.graph = property(_graph)
Tensor.shape = property(_shape)
