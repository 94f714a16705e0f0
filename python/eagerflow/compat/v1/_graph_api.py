"""The TF1 graph-building functions of tf.compat.v1: placeholder, the default graph, initializers and
switching eager execution off."""
import threading

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework import ops
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops.no_op import no_op

get_default_graph = ops.get_default_graph
_state = threading.local()  # per thread, like the C++ building graph: eager execution disabled?


def placeholder(dtype, shape=None, name=None):
    """A Placeholder node in the graph being built: a value fed through Session.run's feed_dict."""
    g = _core.current_graph()
    if g is None:
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    dtype = dtypes.as_dtype(dtype)
    shape = TensorShape(shape)
    dims = None if shape.rank is None else [-1 if d is None else d for d in shape.as_list()]
    return g.add_placeholder(dtype._type_enum, dims, name or "Placeholder")


def reset_default_graph():
    """Replaces this thread's global default graph with a new empty one."""
    if ops._graph_stack():
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
                             "graph, exit the nesting and create a new graph.")
    ops._local.global_graph = ops.Graph()
    if getattr(_state, "graph_mode", False):
        _core.set_graph(ops._local.global_graph._graph)


def global_variables():
    """The variables created in the default graph (TF1 graph variables); eagerly, none."""
    return get_default_graph().get_collection("variables") if _core.current_graph() is not None else []


def trainable_variables():
    """The trainable variables created in the default graph; eagerly, none."""
    return get_default_graph().get_collection("trainable_variables") if _core.current_graph() is not None else []


def variables_initializer(var_list, name="init"):
    """An op that runs the initializers of `var_list` (a NoOp named `name` depending on them); eagerly,
    where variables are initialized on creation, nothing."""
    inits = [v.initializer for v in var_list if getattr(v, "initializer", None) is not None]
    with ops.control_dependencies(inits):
        return no_op(name=name)


def global_variables_initializer():
    """The op named "init" that initializes every variable of the default graph."""
    return variables_initializer(global_variables())


initialize_all_variables = global_variables_initializer


def local_variables_initializer():
    return no_op(name="init")


def disable_eager_execution():
    """TF1 graph mode on this thread: ops are added to the default graph and run by a Session.

    Call it at program start-up, before building anything; it applies to the calling thread.
    """
    if ops._graph_stack():
        raise ValueError("disable_eager_execution must be called at program startup, outside any graph.")
    _state.graph_mode = True
    _core.set_graph(ops.get_default_graph()._graph)


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Undoes disable_eager_execution on this thread."""
    if getattr(_state, "graph_mode", False) and not ops._graph_stack():
        _state.graph_mode = False
        _core.set_graph(None)


def disable_v2_behavior():
    disable_eager_execution()


def name_scope(name, default_name=None, values=None):
    """tf.compat.v1.name_scope: like tf.name_scope, with `default_name` used when `name` is None."""
    if name is None and default_name is not None:
        name = default_name
    return ops.name_scope(name if name is not None else "")
