"""Functional: a model defined by the graph of layer calls between its Input and output KerasTensors."""
from eagerflow.framework import nest
from eagerflow.framework.tensor import Tensor
from eagerflow.keras import _backend as backend
from eagerflow.keras._layers.input_layer import InputLayer
from eagerflow.keras._layers.keras_tensor import KerasTensor
from eagerflow.keras._engine.model import Model
from eagerflow.ops import array_ops, math_ops


def map_graph(inputs, outputs):
    """The nodes between `inputs` and `outputs` in run order, and the nodes grouped by depth (Keras's
    `_nodes_by_depth`: 0 at the outputs); raises Keras's "Graph disconnected" error for missing inputs."""
    order, seen, depth = [], set(), {}

    def visit(node):  # post-order: a node after all the nodes it reads
        if id(node) in seen:
            return
        seen.add(id(node))
        for parent in node.parent_nodes:
            visit(parent)
        order.append(node)

    for kt in outputs:
        visit(kt.node)
    for node in reversed(order):  # consumers first: depth = 1 + deepest consumer
        d = depth.setdefault(id(node), 0)
        for parent in node.parent_nodes:
            depth[id(parent)] = max(depth.get(id(parent), 0), d + 1)
    input_ids = {id(kt) for kt in inputs}
    available = set(input_ids)
    done_layers = []
    for node in order:
        if isinstance(node.layer, InputLayer):  # reported at the layer that reads it, as Keras does
            continue
        for kt in node.keras_inputs:
            if id(kt) not in available:
                raise ValueError(f"Graph disconnected: cannot obtain value for tensor {kt} at layer "
                                 f"\"{node.layer.name}\". The following previous layers were accessed without "
                                 f"issue: {done_layers}")
        available.update(id(kt) for kt in node.flat_outputs)
        done_layers.append(node.layer.name)
    ranked = sorted(range(len(order)), key=lambda i: (-depth[id(order[i])], i))
    nodes = [order[i] for i in ranked]
    by_depth = {}
    for node in nodes:
        by_depth.setdefault(depth[id(node)], []).append(node)
    return nodes, by_depth


def _shape_tuple(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    if hasattr(shape, "rank"):
        return None if shape.rank is None else tuple(shape.as_list())
    return tuple(shape)


def _check_symbolic(structure, what):
    for x in nest.flatten(structure):
        if not isinstance(x, KerasTensor):
            text = x.numpy() if isinstance(x, Tensor) and not x._is_symbolic else x
            if what == "Input":
                raise ValueError("Found unexpected instance while processing input tensors for keras functional "
                                 "model. Expecting KerasTensor which is from tf.keras.Input() or output from keras "
                                 f"layer call(). Got: {text}")
            raise ValueError(f"{what} tensors of a Functional model must be the output of a TensorFlow `Layer` "
                             f"(thus holding past layer metadata). Found: {text}")


class Functional(Model):
    """tf.keras.Model(inputs, outputs): runs the recorded layer calls in order on real tensors."""

    _untracked_attributes = Model._untracked_attributes | {
        "_nested_inputs", "_nested_outputs", "_flat_inputs", "_flat_outputs", "_run_nodes", "_nodes_by_depth",
        "_functional_layers"}

    @property
    def _tracked_layers(self):
        """The layers a checkpoint names layer-N / layer_with_weights-N (Keras 2: `model.layers`)."""
        return self._functional_layers

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        _check_symbolic(inputs, "Input")
        _check_symbolic(outputs, "Output")
        super().__init__(name=name or backend.auto_name("model"), trainable=trainable, **kwargs)
        self._nested_inputs = inputs
        self._nested_outputs = outputs
        self._flat_inputs = nest.flatten(inputs)
        self._flat_outputs = nest.flatten(outputs)
        nodes, by_depth = map_graph(self._flat_inputs, self._flat_outputs)
        self._run_nodes = [n for n in nodes if not isinstance(n.layer, InputLayer)]
        self._nodes_by_depth = by_depth
        layers = [kt._keras_history[0] for kt in self._flat_inputs]
        for node in nodes:
            if all(node.layer is not l for l in layers):
                layers.append(node.layer)
        self._functional_layers = layers
        self._is_graph_network = True
        self.built = True

    @property
    def layers(self):
        return list(self._functional_layers)

    @property
    def inputs(self):
        return list(self._flat_inputs)

    @property
    def outputs(self):
        return list(self._flat_outputs)

    @property
    def input_names(self):
        return [kt._keras_history[0].name for kt in self._flat_inputs]

    @property
    def output_names(self):
        return [kt._keras_history[0].name for kt in self._flat_outputs]

    def _shapes(self, structure):
        shapes = [tuple(kt.shape.as_list()) for kt in nest.flatten(structure)]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def input_shape(self):
        return self._shapes(self._nested_inputs)

    @property
    def output_shape(self):
        return self._shapes(self._nested_outputs)

    def _flatten_call_inputs(self, inputs):
        if isinstance(inputs, dict) and not isinstance(self._nested_inputs, dict):
            names = self.input_names
            if set(inputs) >= set(names):
                return [inputs[n] for n in names]
        if len(self._flat_inputs) == 1 and not isinstance(inputs, (list, tuple, dict)):
            return [inputs]
        flat = nest.flatten(inputs)
        if len(flat) != len(self._flat_inputs):
            raise ValueError(f"Layer \"{self.name}\" expects {len(self._flat_inputs)} input(s), but it received "
                             f"{len(flat)} input tensors. Inputs received: {flat}")
        return flat

    def _assert_input_compatibility(self, inputs):
        """Keras 2's check of the model's Inputs: an input of the Input's rank must match its known dims."""
        if self._flat_inputs is None or self.__dict__.get("_inferred_input_shape", False):
            return
        for i, (kt, x) in enumerate(zip(self._flat_inputs, self._flatten_call_inputs(inputs))):
            shape, want = _shape_tuple(x), kt.shape
            if shape is None or want.rank is None or len(shape) != want.rank:
                continue  # another rank: the layers that read it say what they expect
            if any(w is not None and s is not None and w != s for w, s in zip(want.as_list(), shape)):
                raise ValueError(f'Input {i} of layer "{self.name}" is incompatible with the layer: expected '
                                 f"shape={tuple(want.as_list())}, found shape={shape}")

    def call(self, inputs, training=None, mask=None):
        values = {}
        for kt, x in zip(self._flat_inputs, self._flatten_call_inputs(inputs)):
            if isinstance(x, Tensor) and x.dtype != kt.dtype:  # conform to the Input's dtype, as Keras 2
                x = math_ops.cast(x, kt.dtype)
            shape = _shape_tuple(x)
            if shape is not None and kt.shape.rank is not None and len(shape) == kt.shape.rank + 1 \
                    and shape[-1] == 1:  # and squeeze a trailing axis of 1 (Keras 2's allow_last_axis_squeeze)
                x = array_ops.squeeze(x, [-1])
            values[id(kt)] = x

        def value_of(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x
        for node in self._run_nodes:
            args = nest.map_structure(value_of, list(node.call_args))
            kwargs = nest.map_structure(value_of, node.call_kwargs)
            out = node.layer(*args, **kwargs)
            for kt, value in zip(node.flat_outputs, nest.flatten(out)):
                values[id(kt)] = value
        return nest.map_structure(lambda kt: values[id(kt)], self._nested_outputs)


Model._functional_class = Functional
Functional.__module__ = "keras"
