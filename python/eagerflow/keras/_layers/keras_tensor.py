"""KerasTensor: the symbolic value of the functional API: a TensorSpec plus the layer call (node) that
made it. Python operators on KerasTensors become layers of their own (op_lambda.py installs them)."""
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec


class KerasTensor:
    """A placeholder for the value a layer will produce once the model runs on data."""

    _is_keras_tensor = True

    def __init__(self, type_spec, name=None):
        self._type_spec = type_spec
        self._name = name
        self._keras_history = None  # (layer, node_index, tensor_index)

    @property
    def type_spec(self):
        return self._type_spec

    @property
    def shape(self):
        return self._type_spec.shape

    @property
    def dtype(self):
        return self._type_spec.dtype

    @property
    def name(self):
        return self._name

    @property
    def node(self):
        layer, node_index, _ = self._keras_history
        return layer._inbound_nodes[node_index]

    def _description(self):
        return f"created by layer '{self._keras_history[0].name}'" if self._keras_history else ""

    def __repr__(self):
        desc = f" ({self._description()})" if self._keras_history else ""
        return f"<KerasTensor: shape={self.shape} dtype={self.dtype.name}{desc}>"

    def __str__(self):
        return (f"KerasTensor(type_spec={self._type_spec!r}, name='{self._name}', "
                f"description=\"{self._description()}\")")

    def __len__(self):
        raise TypeError("Keras symbolic inputs/outputs do not implement `__len__`. You may be trying to pass "
                        "Keras symbolic inputs/outputs to a TF API that does not register dispatching, preventing "
                        "Keras from automatically converting the API call to a lambda layer in the Functional "
                        "Model. This error will also get raised if you try asserting a symbolic input/output "
                        "directly.")

    def __bool__(self):
        raise TypeError("Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the "
                        "following resolutions to the problem: If you are running in Graph mode, use Eager "
                        "execution mode or decorate this function with @tf.function. If you are using AutoGraph, "
                        "you can try decorating this function with @tf.function. If that does not work, then you "
                        "may be using an unsupported feature or your source code may not be visible to AutoGraph.")

    __hash__ = object.__hash__

    def __array__(self, *args, **kwargs):
        raise TypeError(f"You are passing {self}, an intermediate Keras symbolic input/output, to a TF API that "
                        "does not allow registering custom dispatchers, such as `tf.cond`, `tf.function`, gradient "
                        "tapes, or `tf.map_fn`. Keras Functional model construction only supports TF API calls "
                        "that *do* support dispatching, such as `tf.math.add` or `tf.reshape`. Other APIs cannot "
                        "be called directly on symbolic Kerasinputs/outputs. You can work around this limitation "
                        "by putting the operation in a custom Keras layer `call` and calling that layer on this "
                        "symbolic input/output.")


def keras_tensor_from(tensor, name=None):
    """The KerasTensor with the static shape and dtype of a graph tensor."""
    shape = TensorShape(tensor.shape)
    return KerasTensor(TensorSpec(shape, dtypes.as_dtype(tensor.dtype)), name=name)


KerasTensor.__module__ = "keras"
