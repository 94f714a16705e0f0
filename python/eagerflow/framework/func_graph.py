"""FuncGraph: the tf.Graph that tf.function, cond and while_loop trace into (nested in the graph
being built, whose tensors it captures)."""
from eagerflow import _core
from eagerflow.framework.ops import Graph, get_default_graph


class FuncGraph(Graph):
    """The graph of one trace of a tf.function (tf.Graph subclass)."""

    def __init__(self, name):
        super().__init__()
        self.name = name
        self._graph.name = name
        self._graph.captures_eager_tensors = True  # eager tensors used inside are fed at call time
        self.inputs = []
        self.outputs = []
        self.structured_input_signature = None
        self.structured_outputs = None
        outer = _core.current_graph()
        if outer is not None:
            self._graph.set_outer(outer)
        # TF's rule: a function graph takes the global seed when traced from eager code, else
        # the enclosing graph's seed.
        if outer is None:
            self.seed = _core.get_global_seed()
        else:
            self.seed = getattr(get_default_graph(), "seed", None)

    @property
    def captures(self):
        return self._graph.captures()

    def _user_specified_names(self):
        captured = {internal.op.name for _, internal in self.captures}
        return {t.op.name: t.op.name for t in self.inputs
                if t.op.type == "Placeholder" and t.op.name not in captured}

    def __repr__(self):
        return "FuncGraph(name=%s, id=%d)" % (self.name, id(self))
