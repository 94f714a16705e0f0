"""The graph ops are built into on this thread: the C++ context's graph, None while executing eagerly."""
import contextlib

from eagerflow import _core


@contextlib.contextmanager
def building(core_graph):
    """Makes `core_graph` (a _core.Graph; None: eager execution) the graph ops go to on this thread."""
    prev = _core.set_graph(core_graph)
    try:
        yield core_graph
    finally:
        _core.set_graph(prev)


def init_scope():
    """Leaves graph building for the enclosed code (lifts it out to eager execution)."""
    return building(None)
