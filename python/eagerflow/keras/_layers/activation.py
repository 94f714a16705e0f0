"""keras.layers ReLU, LeakyReLU and Softmax: activation functions as layers (Keras 2's arguments)."""
import numpy as np

from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import math_ops, nn_activation_ops, nn_impl, nn_ops


class ReLU(Layer):
    """max(x, 0), or Keras 2's general form: capped at `max_value`, `negative_slope` * (x - threshold) below
    `threshold`."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: {max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be a negative value. Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError(f"threshold of a ReLU layer cannot be a negative value. Received: {threshold}")
        super().__init__(**kwargs)
        self.supports_masking = True
        # Keras 2 keeps the arguments as floatx arrays (as its configs show them).
        if max_value is not None:
            max_value = np.asarray(max_value, dtype="float32")
        self.max_value = max_value
        self.negative_slope = np.asarray(negative_slope, dtype="float32")
        self.threshold = np.asarray(threshold, dtype="float32")

    def call(self, inputs):
        if self.max_value is None and not self.negative_slope and not self.threshold:
            return nn_activation_ops.relu(inputs)
        x = inputs
        negative_part = nn_activation_ops.relu(-x + self.threshold) if self.negative_slope else None
        if self.threshold:
            x = x * math_ops.cast(math_ops.greater(x, self.threshold), x.dtype)
        else:
            x = nn_activation_ops.relu(x)
        if self.max_value is not None:
            x = math_ops.minimum(x, math_ops.cast(self.max_value, x.dtype))
        if negative_part is not None:
            x = x - self.negative_slope * negative_part
        return x

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}

    def compute_output_shape(self, input_shape):
        return input_shape


class LeakyReLU(Layer):
    """x where x >= 0, alpha * x below."""

    def __init__(self, alpha=0.3, **kwargs):
        if alpha is None:
            raise ValueError(f"The alpha value of a Leaky ReLU layer cannot be None, Expecting a float. Received: {alpha}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha = np.asarray(alpha, dtype="float32")

    def call(self, inputs):
        return nn_impl.leaky_relu(inputs, alpha=self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": float(self.alpha)}

    def compute_output_shape(self, input_shape):
        return input_shape


class Softmax(Layer):
    """softmax(x) along `axis`."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.axis = axis

    def call(self, inputs, mask=None):
        if inputs.shape.rank == 1:
            raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {inputs}")
        return nn_ops.softmax(inputs, axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}

    def compute_output_shape(self, input_shape):
        return input_shape
