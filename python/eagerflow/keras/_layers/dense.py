"""keras.layers.Dense: activation(inputs @ kernel + bias)."""
import numpy as np

from eagerflow.keras import _activations as activations, _initializers as initializers
from eagerflow.keras._layers.layer import Layer, shape_of
from eagerflow.keras._utils.serialization import serialize_keras_object
from eagerflow.ops import array_ops, linalg_ops, math_ops, nn_impl


class Dense(Layer):
    """tf.keras.layers.Dense: activation(inputs @ kernel + bias); kernel and bias made on the first call."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 quantization_config=None, **kwargs):
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self._input_dim = None

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self._input_dim = input_dim
        self.kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = (self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                     regularizer=self.bias_regularizer, constraint=self.bias_constraint)
                     if self.use_bias else None)
        self.built = True

    def _assert_input_compatibility(self, inputs):
        """Keras's InputSpec check (min_ndim=2, the last axis the kernel was built for)."""
        shape = shape_of(inputs)
        if shape is not None and len(shape) < 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected min_ndim=2, '
                             f"found ndim={len(shape)}. Full shape received: {shape}")
        if shape is not None and shape[-1] not in (None, self._input_dim):
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected axis -1 of '
                             f"input shape to have value {self._input_dim}, but received input with shape {shape}")

    def call(self, inputs, training=None):
        if inputs.dtype != self.kernel.dtype:  # integer inputs too (Keras 2 casts to the compute dtype)
            inputs = math_ops.cast(inputs, self.kernel.dtype)
        shape = shape_of(inputs)
        if shape is not None and len(shape) == 2:
            x = linalg_ops.matmul(inputs, self.kernel)
        else:  # contract the last axis: flatten the leading ones, multiply, restore them
            lead = array_ops.shape(inputs)[:-1]
            x = linalg_ops.matmul(array_ops.reshape(inputs, [-1, self._input_dim]), self.kernel)
            x = array_ops.reshape(x, array_ops.concat([lead, [self.units]], 0))
        if self.bias is not None:
            x = nn_impl.bias_add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": serialize_keras_object(self.kernel_initializer, "keras.initializers"),
                "bias_initializer": serialize_keras_object(self.bias_initializer, "keras.initializers"),
                "kernel_regularizer": serialize_keras_object(self.kernel_regularizer, "keras.regularizers"),
                "bias_regularizer": serialize_keras_object(self.bias_regularizer, "keras.regularizers"),
                "activity_regularizer": serialize_keras_object(self._activity_regularizer, "keras.regularizers"),
                "kernel_constraint": serialize_keras_object(self.kernel_constraint, "keras.constraints"),
                "bias_constraint": serialize_keras_object(self.bias_constraint, "keras.constraints")}


Dense.__module__ = "keras.layers"
