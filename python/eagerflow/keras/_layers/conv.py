"""keras.layers.Conv2D: activation(conv2d(inputs, kernel) + bias), channels last."""
import numpy as np

from eagerflow.keras import _activations as activations, _initializers as initializers
from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import conv_ops, nn_impl


def _pair(value, name):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value), int(value))
    value = tuple(value)
    if len(value) != 2 or not all(isinstance(v, (int, np.integer)) for v in value):
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. Received: {name}={value}")
    return tuple(int(v) for v in value)


class Conv2D(Layer):
    """2-D convolution layer (NHWC): kernel (kh, kw, in_channels, filters) and bias made on the first call."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 groups=1, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        if isinstance(filters, bool) or not isinstance(filters, (int, np.integer)) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.filters = int(filters)
        self._conv_init(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                        bias_initializer, bias_constraint)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.kernel_constraint = kernel_constraint
        self.kernel_regularizer, self.bias_regularizer = kernel_regularizer, bias_regularizer

    def _conv_init(self, kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                   bias_initializer, bias_constraint):
        """The arguments every 2-D convolution layer shares (Conv2D, DepthwiseConv2D, Conv2DTranspose, ...)."""
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        padding = padding.lower() if isinstance(padding, str) else padding
        if padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or "
                             f"\"causal\", only for `Conv1D). Received: {padding}")
        self.padding = padding
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__} supports data_format='channels_last' only")
        self.data_format = "channels_last"
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.bias_initializer = initializers.get(bias_initializer)
        self.bias_constraint = bias_constraint

    _min_ndim = 4

    def _assert_input_compatibility(self, inputs):
        """Keras's InputSpec check: the rank, and the channels the weights were built for."""
        min_ndim = self._min_ndim
        shape = getattr(inputs, "shape", None)
        if shape is None:
            return
        if shape.rank is None:
            return
        if shape.rank < min_ndim:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                             f"min_ndim={min_ndim}, found ndim={shape.rank}. Full shape received: "
                             f"{tuple(shape.as_list())}")
        channels = getattr(self, "_input_channels", None)
        if channels is not None and shape[-1] is not None and shape[-1] != channels:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: expected axis -1 of '
                             f"input shape to have value {channels}, but received input with shape "
                             f"{tuple(shape.as_list())}")

    def _channels(self, input_shape):
        channels = input_shape[-1]
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape received is "
                             f"{input_shape}, where axis -1 (0-based) is the channel dimension, which found to be "
                             "`None`.")
        self._input_channels = channels
        return channels

    def build(self, input_shape):
        self._make_weights(input_shape, self.kernel_size)

    def _make_weights(self, input_shape, window):
        """kernel (window..., in_channels, filters) and bias."""
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(name="kernel", shape=tuple(window) + (channels, self.filters),
                                      initializer=self.kernel_initializer, constraint=self.kernel_constraint)
        self.bias = (self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                     constraint=self.bias_constraint) if self.use_bias else None)
        self.built = True

    def call(self, inputs, training=None):
        x = conv_ops.conv2d(inputs, self.kernel, list(self.strides), self.padding.upper(),
                            dilations=list(self.dilation_rate))
        if self.bias is not None:
            x = nn_impl.bias_add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *self._spatial_output(input_shape), self.filters)

    def _spatial_output(self, input_shape):
        def size(n, k, s, d):
            if n is None:
                return None
            eff = (k - 1) * d + 1
            return -(-n // s) if self.padding == "same" else (n - eff) // s + 1
        h = size(input_shape[1], self.kernel_size[0], self.strides[0], self.dilation_rate[0])
        w = size(input_shape[2], self.kernel_size[1], self.strides[1], self.dilation_rate[1])
        return h, w

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "filters": self.filters,
                "kernel_size": self.kernel_size, "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


Conv2D.__module__ = "keras.layers"


class Conv1D(Conv2D):
    _min_ndim = 3

    """1-D convolution layer (NWC): kernel (k, in_channels, filters); padding "valid", "same" or
    "causal" (left padding only, so an output never sees later inputs)."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, groups=1, activation=None, use_bias=True, **kwargs):
        causal = isinstance(padding, str) and padding.lower() == "causal"
        one = lambda v: (v,) if isinstance(v, (int, np.integer)) else tuple(v)  # noqa: E731
        super().__init__(filters, (1,) + one(kernel_size), strides=(1,) + one(strides),
                         padding="valid" if causal else padding, dilation_rate=(1,) + one(dilation_rate),
                         activation=activation, use_bias=use_bias, **kwargs)
        self.padding = "causal" if causal else self.padding

    def build(self, input_shape):
        self._make_weights(input_shape, self.kernel_size[1:])

    def call(self, inputs, training=None):
        from eagerflow.ops import array_ops
        x = inputs
        padding = self.padding.upper()
        if self.padding == "causal":
            left = (self.kernel_size[1] - 1) * self.dilation_rate[1]
            x = array_ops.pad(x, [[0, 0], [left, 0], [0, 0]])
            padding = "VALID"
        y = conv_ops.conv2d(array_ops.expand_dims(x, 1), array_ops.expand_dims(self.kernel, 0),
                            list(self.strides), padding, dilations=list(self.dilation_rate))
        y = array_ops.squeeze(y, [1])
        if self.bias is not None:
            y = nn_impl.bias_add(y, self.bias)
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        n = input_shape[1]
        if n is not None and self.padding == "causal":
            n = -(-n // self.strides[1])
            return (input_shape[0], n, self.filters)
        out = super().compute_output_shape((input_shape[0], 1, n, input_shape[2]))
        return (out[0], out[2], out[3])


Conv1D.__module__ = "keras.layers"
