"""tf.Variable (eager): a named, mutable holder of an immutable C++ tensor.

Assignment checks shape and dtype and then swaps the held tensor. Ops accept variables through
the `_as_tensor()` conversion protocol, and operators delegate to the current value.
"""
import enum
import functools

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework import errors
from eagerflow.ops import _execute
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor, _numpy_text, _Reference
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.default_stack import DefaultStack
from eagerflow.ops import variable_registry as _variable_registry
from eagerflow.ops.grad_support_ops import _index

# The variable-creation rule of the trace in progress on this thread: tf.function installs it (ops
# sit below tf.function), and it runs before each tf.Variable is made, which it may refuse.
_creation_rules = DefaultStack()


def variable_creation_rule(rule):
    """Runs `rule()` before each tf.Variable created on this thread while the block runs."""
    return _creation_rules.get_controller(rule)


def _lift_initial_value(value):
    """An eager tensor for a variable's initial value computed while tracing (TF's init_scope lifting).

    A symbolic value that depends on no function input is evaluated now by running its part of the
    graph; one that depends on an input cannot be lifted.
    """
    if not isinstance(value, Tensor) or not value._is_symbolic:
        return value
    try:
        captures = value._graph.captures()  # eager tensors the value reads: fed as they are
        plan = _core.Plan(value._graph, [ph for _, ph in captures], [value], [])
        return plan.run([t for t, _ in captures])[0]
    except Exception as e:
        raise ValueError(f"The initial value of a tf.Variable created inside a tf.function must not depend on "
                         f"the function's inputs: {value!r} ({e})") from None


class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def _require_eager():
    if _core.current_graph() is not None:
        raise NotImplementedError("numpy() is only available when eager execution is enabled.")


def _tf1_graph():
    """The TF1 graph being built on this thread (the default tf.Graph), or None: function graphs and
    scratch graphs (Keras's symbolic calls) lift variables out instead."""
    g = _core.current_graph()
    if g is None or g.captures_eager_tensors:
        return None
    from eagerflow.framework import ops
    return g if ops.get_default_graph()._graph.id == g.id else None


def _binary(name):
    def forward(self, other):
        return getattr(self.value(), name)(other)
    forward.__name__ = name
    return forward


def _unary(name):
    def op(self):
        return getattr(self.value(), name)()
    op.__name__ = name
    return op


class Variable:
    """tf.Variable: state that persists across calls and can be assigned to."""

    __array_priority__ = 100

    def __new__(cls, *args, **kwargs):
        # tf.Variable(...) makes a ResourceVariable, as TF's VariableMetaclass does; subclasses are their own.
        return object.__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None, name=None,
                 variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE, shape=None,
                 experimental_enable_variable_lifting=True, **unused_kwargs):
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when you are not "
                             "providing a `variable_def`. You provided neither.")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                             f"{type(constraint)}:  {constraint}")
        from eagerflow.framework.ops import current_name_scope
        scope = current_name_scope()  # taken before lifting: TF's init_scope keeps the name scope
        rule = _creation_rules.get_default()
        if rule is not None:  # while tracing, only a Function's first trace may create variables
            rule()
        tf1_graph = _tf1_graph()
        in_trace = _core.current_graph() is not None and tf1_graph is None
        if in_trace:
            # Lifted out of the function graph (TF's init_scope): the variable and its initial value
            # are eager, and the graph reads it by handle.
            from eagerflow.framework.ops import init_scope
            with init_scope():
                if callable(initial_value):
                    initial_value = initial_value()
                initial_value = _lift_initial_value(initial_value)
                if not isinstance(initial_value, Tensor):
                    initial_value = convert_to_tensor(initial_value, dtype=dtypes.as_dtype(dtype) if dtype else None)
        elif callable(initial_value):
            initial_value = initial_value()
        if dtype is not None:
            dtype = dtypes.as_dtype(dtype)
            try:
                value = convert_to_tensor(initial_value, dtype=dtype)
            except ValueError as e:  # TF names the input in a tensor's dtype mismatch only
                if not str(e).startswith("Tensor conversion requested dtype"):
                    raise
                raise ValueError(f"initial_value: {e}") from None
        else:
            value = convert_to_tensor(initial_value)
        if shape is None:
            self._shape = TensorShape(value._shape_tuple)
        else:
            self._shape = TensorShape(shape)
            if not self._shape.is_compatible_with(TensorShape(value._shape_tuple)):
                raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                                 f"({TensorShape(value._shape_tuple)}) is not compatible with the explicitly "
                                 f"supplied `shape` argument ({self._shape.as_list() if self._shape.rank is not None else None}).")
        if synchronization == VariableSynchronization.ON_READ and trainable:
            raise ValueError("Synchronization value can be set to VariableSynchronization.ON_READ only for "
                             "non-trainable variables. You have specified trainable=True and "
                             "synchronization=VariableSynchronization.ON_READ.")
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        # The state lives in C++ behind a resource handle, so graphs read it live (ReadVariableOp).
        dims = [-1 if d is None else d for d in self._shape.as_list()] if self._shape.rank is not None else None
        self._dtype = value.dtype
        self._trainable = bool(trainable)
        self._tf1 = None
        if tf1_graph is not None:
            self._init_in_graph(value, dims, "Variable" if name is None else str(name))
        else:
            self._handle = _core.new_variable_handle(value, dims)
            self._name = scope + ("Variable" if name is None else str(name)) + ":0"
        self._device = _core.current_device()
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        _variable_registry.variable_created(self)  # tapes: trainable flag, handle -> variable

    def _init_in_graph(self, value, dims, name):
        """A TF1 graph variable: a handle node named after the variable, an initializer (AssignVariableOp
        of the initial value) and a read; it has no value until a Session runs the initializer, and each
        Session feeds the handle node its own state (compat/v1/_session.py)."""
        from eagerflow.framework import ops
        graph = ops.get_default_graph()
        self._handle = _core.new_uninitialized_variable_handle(value.dtype._type_enum, dims, "")
        handle = _core.graph_constant(self._handle, name)
        node_name = handle._node_name
        _core.set_variable_name(self._handle, node_name)
        self._name = node_name + ":0"
        with graph.name_scope(node_name + "/"):
            _execute.execute("AssignVariableOp", [self._handle, value], {"dtype": self._dtype}, "Assign")
            initializer = ops.Operation(graph._graph.last_node())
            with graph.name_scope("Read"):
                read = _execute.execute1("ReadVariableOp", [self._handle], {"dtype": self._dtype}, "ReadVariableOp")
        self._tf1 = _GraphVariable(graph, handle.op, handle, initializer, value, read)
        graph.add_to_collection("variables", self)
        if self._trainable:
            graph.add_to_collection("trainable_variables", self)

    # --- properties -------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def graph(self):
        if self._tf1 is None:
            raise AttributeError("Tensor.graph is undefined when eager execution is enabled.")
        return self._tf1.graph

    @property
    def op(self):
        if self._tf1 is None:
            raise AttributeError("Tensor.op is undefined when eager execution is enabled.")
        return self._tf1.op

    @property
    def initializer(self):
        if self._tf1 is None:
            return None  # TF: a no-op outside graphs
        return self._tf1.initializer

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    @property
    def trainable(self):
        return self._trainable

    @property
    def device(self):
        return self._device

    @property
    def constraint(self):
        return self._constraint

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def initial_value(self):
        if self._tf1 is not None:
            return self._tf1.initial_value
        raise RuntimeError("This property is not supported when eager execution is enabled.")

    # --- reading ------------------------------------------------------------------------------
    @property
    def handle(self):
        return self._handle

    @property
    def _value_tensor(self):
        if self._tf1 is not None and _core.current_graph() is None:
            return self._tf1.read  # a Session fetches the graph's read
        return _execute.execute1("ReadVariableOp", [self._handle], {"dtype": self._dtype}, "ReadVariableOp")

    def value(self):
        """The current value as a Tensor."""
        return self._value_tensor

    def read_value(self):
        return self._value_tensor

    def _as_tensor(self):
        return self._value_tensor

    def numpy(self):
        _require_eager()
        if self._tf1 is not None:
            raise NotImplementedError("numpy() is only available when eager execution is enabled.")
        return self._value_tensor.numpy()

    def is_initialized(self, name=None):
        return _core.convert_to_tensor(True)

    # --- writing ------------------------------------------------------------------------------
    def _converted(self, value):
        if isinstance(value, _core.Tensor) and value._dtype_enum == self._dtype._type_enum:
            return value  # what convert_to_tensor returns for it, without its dtype handling
        if isinstance(value, Variable):
            value = value.value()
        return convert_to_tensor(value, dtype=self._dtype)

    def _result(self, read_value):
        if self._tf1 is not None and _core.current_graph() is not None:
            # TF1: the update's Operation, or the value read after it (what a Session fetches).
            from eagerflow.framework.ops import Operation, control_dependencies
            update = Operation(_core.current_graph().last_node())
            if not read_value:
                return update
            with control_dependencies([update]):
                return _execute.execute1("ReadVariableOp", [self._handle], {"dtype": self._dtype}, "ReadVariableOp")
        return _UnreadVariable(self) if read_value else None

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Replaces the value; the new value must have a compatible shape and the same dtype."""
        t = self._converted(value)
        new_shape = TensorShape(t._shape_tuple)
        if not self._shape.is_compatible_with(new_shape):
            raise ValueError(f"Cannot assign value to variable ' {self._name}': Shape mismatch.The variable shape "
                             f"{self._shape}, and the assigned value shape {new_shape} are incompatible.")
        _execute.execute("AssignVariableOp", [self._handle, t], {"dtype": self._dtype}, "AssignVariableOp")
        return self._result(read_value)

    def _update(self, op_name, tf_op_name, delta, read_value):
        t = self._converted(delta)
        _execute.execute(tf_op_name, [self._handle, t], {"dtype": self._dtype}, tf_op_name)
        return self._result(read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("AddV2", "AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("Sub", "AssignSubVariableOp", delta, read_value)

    # --- scatters: ResourceScatterNd* (index vectors), ResourceScatter* (rows of dim 0) ----------
    def _scatter_nd(self, op_name, indices, updates):
        _execute.execute(op_name, [self._handle, _index(indices), convert_to_tensor(updates, dtype=self._dtype)],
                         None, op_name)
        return self._result(True)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdUpdate", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdAdd", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdSub", indices, updates)

    def scatter_nd_max(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdMax", indices, updates)

    def scatter_nd_min(self, indices, updates, name=None):
        return self._scatter_nd("ResourceScatterNdMin", indices, updates)

    def _scatter(self, op_name, sparse_delta):
        # tf.IndexedSlices, or any object with its `indices` and `values`.
        if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
        _execute.execute(op_name, [self._handle, _index(sparse_delta.indices),
                                   convert_to_tensor(sparse_delta.values, dtype=self._dtype)], None, op_name)
        return self._result(True)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterUpdate", sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterAdd", sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterSub", sparse_delta)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMul", sparse_delta)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterDiv", sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMax", sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("ResourceScatterMin", sparse_delta)

    # --- Python protocols ---------------------------------------------------------------------
    def __repr__(self):
        if _core.current_graph() is not None or self._tf1 is not None:  # no value to show (TF's form)
            return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self.name, self.shape, self.dtype.name, _numpy_text(self.value(), True))

    __str__ = __repr__

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        """An independent variable with this one's value and settings (TF's ResourceVariable)."""
        if _core.current_graph() is not None:
            raise NotImplementedError("__deepcopy__() is only available when eager execution is enabled.")
        return Variable(initial_value=self.read_value(), trainable=self._trainable, constraint=self._constraint,
                        dtype=self._dtype, name=self._name[:-2], synchronization=self._synchronization,
                        aggregation=self._aggregation)

    def __reduce__(self):
        # As TF: rebuilt from its value on load, like __deepcopy__.
        return functools.partial(Variable, initial_value=self.numpy(), trainable=self._trainable,
                                 name=self._name[:-2], dtype=self._dtype, constraint=self._constraint), ()

    def __hash__(self):
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. (Variable: {self!r})")

    def ref(self):
        return _Reference(self)

    def experimental_ref(self):
        return _Reference(self)

    def __array__(self, dtype=None, copy=None):
        _require_eager()
        a = np.asarray(self.value().numpy())
        if dtype is not None and a.dtype != np.dtype(dtype):
            return a.astype(dtype)
        return a.copy() if copy else a

    def __bool__(self):
        return bool(self.value())

    def __int__(self):
        return int(self.value())

    def __float__(self):
        return float(self.value())

    def __complex__(self):
        return complex(self.value())

    def __getitem__(self, key):
        # The slice has `assign` (TF's sliced assignment: v[0, 1:].assign(...)).
        from eagerflow.ops import slice_ops
        return slice_ops._slice_helper(self.value(), key, var=self)

    def __iter__(self):
        return iter(self.value())

    __add__, __radd__ = _binary("__add__"), _binary("__radd__")
    __sub__, __rsub__ = _binary("__sub__"), _binary("__rsub__")
    __mul__, __rmul__ = _binary("__mul__"), _binary("__rmul__")
    __truediv__, __rtruediv__ = _binary("__truediv__"), _binary("__rtruediv__")
    __floordiv__, __rfloordiv__ = _binary("__floordiv__"), _binary("__rfloordiv__")
    __mod__, __rmod__ = _binary("__mod__"), _binary("__rmod__")
    __pow__, __rpow__ = _binary("__pow__"), _binary("__rpow__")
    __matmul__, __rmatmul__ = _binary("__matmul__"), _binary("__rmatmul__")
    __and__, __rand__ = _binary("__and__"), _binary("__rand__")
    __or__, __ror__ = _binary("__or__"), _binary("__ror__")
    __xor__, __rxor__ = _binary("__xor__"), _binary("__rxor__")
    __lt__, __le__ = _binary("__lt__"), _binary("__le__")
    __gt__, __ge__ = _binary("__gt__"), _binary("__ge__")
    __eq__, __ne__ = _binary("__eq__"), _binary("__ne__")
    __neg__, __abs__, __invert__ = _unary("__neg__"), _unary("__abs__"), _unary("__invert__")


class _GraphVariable:
    """What a TF1 graph variable holds besides its handle: its graph, handle Operation, initializer,
    initial value and the read a Session fetches."""

    __slots__ = ("graph", "op", "handle", "initializer", "initial_value", "read")

    def __init__(self, graph, op, handle, initializer, initial_value, read):
        self.graph, self.op, self.handle = graph, op, handle
        self.initializer, self.initial_value, self.read = initializer, initial_value, read


def _list_text(dims):
    return "[" + ",".join(str(d) for d in dims) + "]"


class ResourceVariable(Variable):
    """The class of the variables tf.Variable makes (TF's ResourceVariable): every variable here is
    a resource handle."""


class _UnreadVariable(Variable):
    """What assign* return (TF's _UnreadVariable): a view of the variable, named 'UnreadVariable'."""

    def __init__(self, parent):  # pylint: disable=super-init-not-called
        self._parent = parent

    def __getattr__(self, attr):
        # Every other attribute (shape, dtype, trainable, ...) is the parent's.
        if attr == "_parent":  # not set yet (copy/pickle): avoid recursing
            raise AttributeError(attr)
        return getattr(self._parent, attr)

    @property
    def name(self):
        return "UnreadVariable"

    @property
    def _value_tensor(self):
        return self._parent._value_tensor

    @property
    def _handle(self):
        return self._parent._handle


Variable.__module__ = "eagerflow"
_core.register_variable_class(ResourceVariable)  # tf.function's C++ call path keys its instances
