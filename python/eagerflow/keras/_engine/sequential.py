"""tf.keras.Sequential: a stack of layers; a functional graph from the input shape once it is known."""
from eagerflow.keras import _backend as backend
from eagerflow.keras._engine.functional import Functional, map_graph
from eagerflow.keras._layers.input_layer import Input, InputLayer
from eagerflow.keras._layers.keras_tensor import KerasTensor
from eagerflow.keras._layers.layer import Layer, shape_of
from eagerflow.keras._engine.model import Model


class Sequential(Functional):
    """Calls its layers one after the other. With an input shape (the first layer's `input_shape`, an
    InputLayer, `build(shape)`, or the first call's data) it also records them as a functional graph, which
    gives it `inputs`, `outputs` and the output shapes of `summary()` (Keras 2)."""

    _untracked_attributes = Functional._untracked_attributes | {"_stack", "_input_layer"}

    @property
    def _tracked_layers(self):
        return self._stack

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name or backend.auto_name("sequential"))
        self._stack = []
        self._functional_layers = []
        self._input_layer = None
        self._flat_inputs = self._flat_outputs = None
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
            self._extend_graph([layer])
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
        self._flat_inputs = [input_kt]
        self._nested_inputs = input_kt
        self._flat_outputs = [input_kt]
        self._nested_outputs = input_kt
        self._extend_graph(self._stack)

    def _extend_graph(self, layers):
        x = self._nested_outputs
        for layer in layers:
            x = layer(x)
        self._nested_outputs = x
        self._flat_outputs = [x]
        _, self._nodes_by_depth = map_graph(self._flat_inputs, self._flat_outputs)
        self._functional_layers = [self._flat_inputs[0]._keras_history[0]] + list(self._stack)
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
        if self._flat_inputs is None and self._stack and args and hasattr(args[0], "shape") \
                and not isinstance(args[0], KerasTensor):
            # the first call's data fixes the input shape (Keras 2's deferred build)
            from eagerflow.framework.ops import init_scope
            self._inferred_input_shape = True  # from data: later calls may differ (Keras 2 relaxes it)
            with init_scope():
                self._build_graph(Input(batch_shape=shape_of(args[0]), name=self._stack[0].name + "_input",
                                        dtype=_input_dtype(args[0])))
        return super().__call__(*args, **kwargs)

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._stack:
            x = layer(x)
        return x


def _input_dtype(x):
    from eagerflow.framework import dtypes
    dtype = getattr(x, "dtype", None)
    try:
        dtype = dtypes.as_dtype(dtype)
    except Exception:  # pylint: disable=broad-except
        return "float32"
    return "float32" if dtype.is_floating else dtype


Sequential.__module__ = "keras"
