"""Node: one call of a layer on KerasTensors. `symbolic_call` computes the outputs' shapes and dtypes by
running the layer once on placeholders of a scratch graph (building its weights on the way), as Keras 2
does in its Keras graph."""
from eagerflow import _core
from eagerflow.framework import nest
from eagerflow.framework.building import building
from eagerflow.framework.ops import ITERABLE_GRAPH_IDS, current_name_scope
from eagerflow.keras._layers import call_info
from eagerflow.keras._layers.keras_tensor import KerasTensor, keras_tensor_from


def _is_kt(x):
    return isinstance(x, KerasTensor)


class Node:
    """`layer` called on `call_args`/`call_kwargs` (KerasTensor leaves) giving `outputs`."""

    def __init__(self, layer, call_args, call_kwargs, outputs):
        self.layer = layer
        self.call_args, self.call_kwargs = call_args, call_kwargs
        self.outputs = outputs
        self.keras_inputs = [x for x in nest.flatten((list(call_args), call_kwargs)) if _is_kt(x)]
        self.flat_outputs = nest.flatten(outputs)
        layer._inbound_nodes.append(self)
        index = len(layer._inbound_nodes) - 1
        for i, kt in enumerate(self.flat_outputs):
            kt._keras_history = (layer, index, i)

    @property
    def input_tensors(self):
        return self.call_args[0] if self.call_args else None

    @property
    def output_shape(self):
        return nest.map_structure(lambda kt: tuple(kt.shape.as_list()) if kt.shape.rank is not None else None,
                                  self.outputs)

    @property
    def input_shape(self):
        return nest.map_structure(lambda kt: tuple(kt.shape.as_list()) if _is_kt(kt) else None, self.input_tensors)

    @property
    def parent_nodes(self):
        return [kt.node for kt in self.keras_inputs]

    def iterate_inbound(self):
        """(inbound layer, its node index, tensor index, KerasTensor) for each symbolic input."""
        for kt in self.keras_inputs:
            layer, node_index, tensor_index = kt._keras_history
            yield layer, node_index, tensor_index, kt


def symbolic_call(layer, args, kwargs):
    """`layer(*args, **kwargs)` on KerasTensors: new KerasTensors and the Node that links them."""
    g = _core.Graph()
    g.name = "keras_graph"
    scope = current_name_scope()
    g.name_scope = scope[:-1] if scope else ""  # weights built here are named as eager ones would be

    def placeholder(x):
        if not _is_kt(x):
            return x
        dims = None if x.shape.rank is None else [-1 if d is None else d for d in x.shape.as_list()]
        return g.add_placeholder(x.dtype._type_enum, dims, "input")

    ITERABLE_GRAPH_IDS.add(g.id)
    try:
        with building(g), call_info.functional_construction(layer):
            real_args = nest.map_structure(placeholder, list(args))
            real_kwargs = nest.map_structure(placeholder, kwargs)
            out = layer(*real_args, **real_kwargs)
    finally:
        ITERABLE_GRAPH_IDS.discard(g.id)
    outputs = nest.map_structure(lambda t: keras_tensor_from(t, getattr(t, "name", None)), out)
    Node(layer, tuple(args), kwargs, outputs)
    return outputs
