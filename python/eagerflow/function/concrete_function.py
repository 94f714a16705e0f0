"""ConcreteFunction: one trace of a tf.function, compiled to a C++ Plan and called without Python
in the loop."""
from eagerflow import _core
from eagerflow.framework import errors
from eagerflow.framework.tensor import Tensor
from eagerflow.util import nest


class ConcreteFunction:
    """A traced graph with fixed input types; calling it runs the graph's plan in C++."""

    def __init__(self, func_graph, function_spec=None):
        self._graph = func_graph
        self._spec = function_spec  # (python signature, names of tensor params) for keyword calls
        g = func_graph._graph
        targets = g.stateful_nodes()
        self._plan = _core.Plan(g, func_graph.inputs, func_graph.outputs, targets)
        self._num_inputs = len(func_graph.inputs) - len(func_graph.captures)
        self._capture_values = [outer for outer, _ in func_graph.captures]
        out_ids = {id(t): i for i, t in enumerate(func_graph.outputs)}
        self._out_template = func_graph.structured_outputs
        self._out_index = [out_ids.get(id(x)) if isinstance(x, Tensor) else None
                           for x in nest.flatten(func_graph.structured_outputs)]

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self):
        return list(self._graph.inputs)

    @property
    def outputs(self):
        return list(self._graph.outputs)

    @property
    def structured_outputs(self):
        return self._graph.structured_outputs

    @property
    def structured_input_signature(self):
        return self._graph.structured_input_signature

    @property
    def captured_inputs(self):
        return list(self._capture_values)

    @property
    def name(self):
        return self._graph.name

    def _call_flat(self, tensors):
        """Runs the plan on flat tensor inputs and packs the structured outputs."""
        if len(tensors) != self._num_inputs:
            raise errors.InvalidArgumentError(None, None, f"Expected {self._num_inputs} input tensors, got "
                                                          f"{len(tensors)}")
        flat = self._plan.run(list(tensors) + self._capture_values)
        return self._pack(flat)

    def _fast_call_spec(self):
        """(plan, captures, output mode, packer) for Function's C++ call cache: mode 0 returns None,
        1 the single output tensor, 2 packer(list of outputs)."""
        if self._out_template is None:
            return self._plan, self._capture_values, 0, None
        if isinstance(self._out_template, Tensor) and self._out_index == [0]:
            return self._plan, self._capture_values, 1, None
        return self._plan, self._capture_values, 2, self._pack

    def _pack(self, flat):
        if self._out_template is None:
            return None
        leaves = [flat[i] if i is not None else x for i, x in zip(self._out_index, nest.flatten(self._out_template))]
        if nest.is_nested(self._out_template):
            return nest.pack_sequence_as(self._out_template, leaves)
        return leaves[0]

    def __call__(self, *args, **kwargs):
        sig = self._graph.structured_input_signature
        flat = _flatten_call_args(self, args, kwargs)
        return self._call_flat(flat)

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self._graph.name, id(self))


def _flatten_call_args(cf, args, kwargs):
    """Tensor leaves of a call, in the order of the traced placeholders."""
    from eagerflow.framework.convert import convert_to_tensor
    spec = cf._spec
    if spec is not None:
        bound = spec.bind(*args, **kwargs)
        values = []
        for name in spec.parameters:
            if name in bound.arguments:
                values.append(bound.arguments[name])
        template_args, template_kwargs = cf._graph.structured_input_signature
        template = list(template_args) + list(template_kwargs.values())
    else:
        values = list(args) + list(kwargs.values())
        template = values
    flat = []
    for tv, v in zip(template, values):
        for t_leaf, v_leaf in zip(nest.flatten(tv), nest.flatten(v)):
            if isinstance(t_leaf, Tensor):
                flat.append(v_leaf if isinstance(v_leaf, Tensor) else convert_to_tensor(v_leaf, dtype_hint=t_leaf.dtype))
    return flat
