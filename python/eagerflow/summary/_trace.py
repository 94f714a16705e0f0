"""tf.summary.trace_on / trace_off / trace_export: the graphs of the tf.functions traced in between,
written as TF writes them (a RunMetadata of function graphs under the `graph_run_metadata_graph`
plugin) for TensorBoard's graph dashboard. Functions traced before trace_on are not collected."""
import threading

from eagerflow.framework.convert import constant
from eagerflow.framework.proto_wire import field_bytes
from eagerflow.function import func_graph
from eagerflow.summary import _event
from eagerflow.summary import _ops

_lock = threading.Lock()
_graphs = None  # the graphs collected since trace_on, or None when tracing is off


def _collect(graph):
    with _lock:
        if _graphs is not None:
            _graphs.append(graph)


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts collecting the graphs of the tf.functions traced from now on (profiling is not supported)."""
    global _graphs
    if profiler:
        raise NotImplementedError("tf.summary.trace_on(profiler=True): eagerflow has no profiler.")
    with _lock:
        if _graphs is None:
            _graphs = []
            func_graph.trace_observers.append(_collect)


def trace_off():
    """Stops collecting graphs and drops those collected."""
    global _graphs
    with _lock:
        if _graphs is not None:
            func_graph.trace_observers.remove(_collect)
        _graphs = None


def trace_export(name, step=None, profiler_outdir=None):
    """Writes the collected graphs as summary `name` at `step` with the default writer, then stops."""
    with _lock:
        graphs = list(_graphs or [])
    trace_off()
    function_graphs = b"".join(field_bytes(4, field_bytes(2, _event.graph_def(g.as_graph_def().node)))
                               for g in graphs)
    metadata = _event.summary_metadata("graph_run_metadata_graph", b"1")
    if not graphs:
        return constant(False)
    return _ops._write_raw(name, constant(function_graphs), step, metadata)  # pylint: disable=protected-access
