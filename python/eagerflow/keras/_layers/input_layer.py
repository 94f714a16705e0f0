"""tf.keras.Input and InputLayer: the entry points of a functional model."""
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.keras import _backend as backend
from eagerflow.keras._layers.keras_tensor import KerasTensor
from eagerflow.keras._layers.node import Node
from eagerflow.keras._layers.layer import Layer


class InputLayer(Layer):
    """Holds the KerasTensor a functional model starts from (its `output`)."""

    _untracked_attributes = Layer._untracked_attributes | {"_input_tensor"}

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=None, name=None,
                 ragged=None, type_spec=None, **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None) or kwargs.pop("batch_shape", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs.keys())}")
        if sparse or ragged:
            raise NotImplementedError("sparse and ragged Keras inputs are not supported by eagerflow yet.")
        if input_shape is not None and batch_input_shape is not None:
            raise ValueError("Only provide the input_shape OR batch_input_shape argument to InputLayer, not both "
                             "at the same time.")
        if name is None:
            name = backend.auto_name("input", zero_based=False)
        if type_spec is not None:
            batch_input_shape, dtype = tuple(type_spec.shape.as_list()), type_spec.dtype
        elif input_tensor is not None:
            batch_input_shape, dtype = tuple(input_tensor.shape.as_list()), input_tensor.dtype
        if batch_input_shape is None:
            if input_shape is None:
                raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note "
                                 "that `shape` does not include the batch dimension.")
            batch_input_shape = (batch_size,) + tuple(input_shape)
        dtype = dtypes.as_dtype(dtype or "float32")
        super().__init__(name=name, dtype=dtype)
        self.built = True
        self._batch_input_shape = tuple(None if d is None else int(d) for d in batch_input_shape)
        kt = KerasTensor(TensorSpec(TensorShape(self._batch_input_shape), dtype, name=name), name=name)
        Node(self, (), {}, [kt])
        self._input_tensor = kt

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype, "sparse": False,
                "ragged": False, "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=None, tensor=None, ragged=None, type_spec=None,
          **kwargs):
    """tf.keras.Input: a KerasTensor of shape (batch_size, *shape) to build a functional model from."""
    batch_shape = kwargs.pop("batch_shape", None) or kwargs.pop("batch_input_shape", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments to Input: {list(kwargs.keys())}")
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_shape` argument to Input, not both at the same time.")
    if shape is None and batch_shape is None and tensor is None and type_spec is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that "
                         "`shape` does not include the batch dimension.")
    if isinstance(shape, int):
        shape = (shape,)
    layer = InputLayer(input_shape=shape, batch_size=batch_size, dtype=dtype, name=name, sparse=sparse,
                       ragged=ragged, input_tensor=tensor, type_spec=type_spec, batch_input_shape=batch_shape)
    return layer._input_tensor


InputLayer.__module__ = "keras.layers"
