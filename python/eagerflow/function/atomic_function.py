"""AtomicFunction (ConcreteFunction.inference_fn): the traced graph as one callable function, without
the structured-signature checks and conversions of ConcreteFunction: it binds its FunctionType,
takes the tensors of the arguments and runs the plan (`call_flat` takes the flat tensors)."""
from eagerflow.framework import nest
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.ops.variables import Variable


class AtomicFunction:
    """TF's AtomicFunction: `name` (bytes), `function_type`, `graph`, `definition`; call it with the
    arguments of its FunctionType, or `call_flat` with its input tensors."""

    def __init__(self, concrete):
        self._cf = concrete

    @property
    def name(self):
        """b"__inference_<function>_<uid>", as TF names the function in its runtime."""
        return self._cf._inference_name().encode()

    @property
    def function_type(self):
        return self._cf.function_type

    @property
    def graph(self):
        return self._cf.graph

    @property
    def definition(self):
        """The FunctionDef of the graph (signature, nodes, ret)."""
        from eagerflow import _core
        from eagerflow.framework.function_def import FunctionDef
        g = self._cf.graph
        return FunctionDef(_core.GraphFunction(g._graph, g.inputs, g.outputs, self.name.decode()),
                           g._user_specified_names())

    cached_definition = definition

    def __call__(self, *args, **kwargs):
        bound = self.function_type.bind(*args, **kwargs)  # TypeError (inspect's message) as in TF
        tensors = []
        for value in bound.arguments.values():
            for leaf in nest.flatten(value, expand_composites=True):
                if isinstance(leaf, Variable):
                    tensors.append(leaf.handle)
                elif isinstance(leaf, Tensor):
                    tensors.append(leaf)
        self._check(tensors)
        return self._cf._call_flat(tensors)

    def call_flat(self, *tensors):
        """Runs the function on its flat input tensors; returns the list of its flat outputs."""
        self._check_count(tensors)
        return self._cf._run_flat(list(tensors))

    def _check_count(self, tensors):
        n = self._cf._num_inputs
        if len(tensors) != n:
            from eagerflow.framework.function_def import ArgDef
            expected = ", ".join(str(ArgDef(t._node_name, t.dtype)) for t in self._cf.graph.inputs[:n])
            raise ValueError(f"Signature specifies {n} arguments, got: {len(tensors)}. Expected inputs: [{expected}]. "
                             f"Received inputs: {tuple(tensors)!r}. Function Type: {self.function_type!r}")

    def _check(self, tensors):
        self._check_count(tensors)
        for t, ph in zip(tensors, self._cf.graph.inputs):
            if t.dtype != ph.dtype:
                raise TypeError(f"Can not cast {TensorSpec(t.shape, t.dtype)!r} to "
                                f"{TensorSpec(ph.shape, ph.dtype)!r}")

    def __str__(self):
        return "<AtomicFunction> %s%s" % (self.name.decode(), self.function_type)

    def __repr__(self):
        return "AtomicFunction(name=%r,\nfunction_type=%r,\ncached_graph=%r)" % (self.name, self.function_type,
                                                                               self.graph)
