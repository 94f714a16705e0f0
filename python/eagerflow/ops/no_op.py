"""tf.no_op: an op that does nothing (a node other ops and Sessions can depend on); tf.timestamp."""
from eagerflow import _core
from eagerflow.ops import _execute


def no_op(name=None):
    """Adds a NoOp node to the graph being built and returns its Operation; eagerly, None."""
    _execute.execute("NoOp", [], None, name or "NoOp")
    g = _core.current_graph()
    if g is None:
        return None
    from eagerflow.framework.ops import Operation
    return Operation(g.last_node())


def timestamp(name=None):
    """The time since the epoch in seconds, a float64 scalar, read when the op runs (each call of a function)."""
    return _execute.execute1("Timestamp", [], None, name or "Timestamp")
