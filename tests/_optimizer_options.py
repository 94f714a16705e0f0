"""Helpers for tests that set tf.config.optimizer options and read the optimized graph."""
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.config import _optimizer_options as _optimizer


@pytest.fixture(autouse=True)
def reset_options():
    """Put the optimizer options back to their defaults after each test (autouse where imported)."""
    yield
    _optimizer._options.clear()
    _optimizer._apply()


def set_options(opts):
    """Only `opts` set (the others at their defaults)."""
    _optimizer._options.clear()
    tf.config.optimizer.set_experimental_options(opts)


def optimized(fn, *args):
    """The optimized graph the plan of fn's trace for args runs: (node types, graph, fetches)."""
    cf = fn.get_concrete_function(*args)
    g = cf.graph._graph
    og, _, fetches = _core.optimize_graph(g, cf.graph.inputs, cf.graph.outputs, g.stateful_nodes())
    return [n.type for n in og.nodes()], og, fetches
