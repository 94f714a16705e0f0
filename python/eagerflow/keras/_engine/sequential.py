"""tf.keras.Sequential: a stack of layers; a functional graph from the input shape once it is known."""
from eagerflow.keras import _backend as backend
from eagerflow.keras._engine.functional import Functional, map_graph
from eagerflow.keras._layers.input_layer import Input, InputLayer
from eagerflow.keras._layers.keras_tensor import KerasTensor
from eagerflow.keras._layers.layer import Layer, shape_of
from eagerflow.keras._engine.model import Model


class Sequential(Functional):
    """Calls its layers one after the other. With an input shape (the first layer's `input_shape`, an
    InputLayer, `build(shape)`, or the first call's data) it is a functional network of those calls, which
    gives it `inputs`, `outputs`, the output shapes of `summary()` and Functional's call (the Input's dtype,
    a trailing axis of 1 squeezed), as in Keras 2. A shape inferred from data is relaxed where later data
    differs (another batch size: the Input's batch dimension becomes None)."""

    _untracked_attributes = Functional._untracked_attributes | {"_stack", "_input_layer", "_created_nodes",
                                                                 "_inferred_input_shape"}

    @property
    def _tracked_layers(self):
        return self._stack

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name or backend.auto_name("sequential"))
        self._stack = []
        self._functional_layers = []
        self._input_layer = None
        self._flat_inputs = self._flat_outputs = None
        self._created_nodes = []  # the layer calls of this model's graph (dropped when it is rebuilt)
        self._inferred_input_shape = None
        self._is_graph_network = False
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, KerasTensor) and isinstance(layer._keras_history[0], InputLayer):
            layer = layer._keras_history[0]
        if not isinstance(layer, Layer):
            raise TypeError(f"The added layer must be an instance of class Layer. Received: layer={layer} of type "
                            f"{type(layer)}.")
        if any(layer is l for l in self._stack):
            raise ValueError(f"All layers added to a Sequential model should have unique names. Name "
                             f"\"{layer.name}\" is already the name of a layer in this model. Update the `name` "
                             f"argument to pass a unique name.")
        if isinstance(layer, InputLayer):
            if self._stack or self._input_layer is not None:
                raise ValueError("An InputLayer can only be the first layer of a Sequential model.")
            self._input_layer = layer
            self._build_graph(layer._input_tensor)
            return
        self._stack.append(layer)
        if self._flat_outputs is not None:
            output, created = _connect(self._nested_outputs, [layer])
            self._created_nodes += created
            self._set_graph(self._flat_inputs[0], output)
        elif len(self._stack) == 1 and getattr(layer, "_batch_input_shape", None) is not None:
            self._build_graph(Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype,
                                    name=layer.name + "_input"))
        else:
            self.built = False

    def pop(self):
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        if self._flat_inputs is not None:
            self._build_graph(self._flat_inputs[0])
        return layer

    @property
    def layers(self):
        return list(self._stack)

    def _build_graph(self, input_kt):
        """Calls the layers on `input_kt`; the calls of the previous graph are dropped only once this
        one is made (a layer that fails on it leaves the model as it was)."""
        output, created = _connect(input_kt, self._stack)
        _drop_nodes(self._created_nodes)
        self._created_nodes = created
        self._set_graph(input_kt, output)

    def _set_graph(self, input_kt, output):
        self._flat_inputs = [input_kt]
        self._nested_inputs = input_kt
        self._flat_outputs = [output]
        self._nested_outputs = output
        nodes, self._nodes_by_depth = map_graph(self._flat_inputs, self._flat_outputs)
        self._run_nodes = [n for n in nodes if not isinstance(n.layer, InputLayer)]
        self._functional_layers = [input_kt._keras_history[0]] + list(self._stack)
        self._is_graph_network = True
        self.built = True

    @property
    def inputs(self):
        return list(self._flat_inputs) if self._flat_inputs is not None else None

    @property
    def outputs(self):
        return list(self._flat_outputs) if self._flat_outputs is not None else None

    def build(self, input_shape=None):
        if self._flat_inputs is None:
            if input_shape is None:
                raise ValueError("You must provide an `input_shape` argument.")
            shape = tuple(input_shape.as_list() if hasattr(input_shape, "as_list") else input_shape)
            self._build_graph(Input(batch_shape=shape, name=(self._stack[0].name if self._stack else "input")
                                    + "_input"))
        self.built = True

    def __call__(self, *args, **kwargs):
        if self._stack and args and hasattr(args[0], "shape") and not isinstance(args[0], KerasTensor) and (
                self._flat_inputs is None or self._inferred_input_shape is not None):
            self._build_for_inferred_shape(shape_of(args[0]), _input_dtype(args[0]))
        return super().__call__(*args, **kwargs)

    def _build_for_inferred_shape(self, shape, dtype):
        """Keras 2's deferred build: the graph of the first call's shape, rebuilt with the dimensions that
        later calls change set to None (a call of another rank keeps the graph)."""
        old = self._inferred_input_shape
        new = shape if old is None else _relax(old, shape)
        if new is None or new == old:
            return
        from eagerflow.framework.ops import init_scope
        with init_scope():
            try:
                self._build_graph(Input(batch_shape=new, name=self._stack[0].name + "_input", dtype=dtype))
            except Exception:  # pylint: disable=broad-except
                if old is None:  # no graph: the layers run one by one and report the error themselves
                    return
                return  # the graph of the earlier shape stays; the call reports what does not fit
        self._inferred_input_shape = new

    def call(self, inputs, training=None, mask=None):
        if self._flat_outputs is not None:
            return super().call(inputs, training=training, mask=mask)
        x = inputs
        for layer in self._stack:
            x = layer(x)
        return x


def _connect(x, layers):
    """`layers` called one after the other from the KerasTensor `x`: the output and the nodes made."""
    created = []
    try:
        for layer in layers:
            before = len(layer._inbound_nodes)
            x = layer(x)
            created += layer._inbound_nodes[before:]
    except Exception:
        _drop_nodes(created)
        raise
    return x, created


def _drop_nodes(nodes):
    """Removes `nodes` from their layers; the layers' remaining nodes keep their outputs' history right."""
    dropped = {id(n) for n in nodes}
    for layer in {id(n.layer): n.layer for n in nodes}.values():
        layer._inbound_nodes[:] = [n for n in layer._inbound_nodes if id(n) not in dropped]
        for index, node in enumerate(layer._inbound_nodes):
            for i, kt in enumerate(node.flat_outputs):
                kt._keras_history = (layer, index, i)


def _relax(shape_1, shape_2):
    """The shape both fit (None where they differ), or None for shapes of different ranks."""
    if shape_1 is None or shape_2 is None or len(shape_1) != len(shape_2):
        return None
    return tuple(a if a == b else None for a, b in zip(shape_1, shape_2))


def _input_dtype(x):
    from eagerflow.framework import dtypes
    dtype = getattr(x, "dtype", None)
    try:
        dtype = dtypes.as_dtype(dtype)
    except Exception:  # pylint: disable=broad-except
        return "float32"
    return "float32" if dtype.is_floating else dtype


Sequential.__module__ = "keras"
