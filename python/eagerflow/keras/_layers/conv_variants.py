"""keras.layers DepthwiseConv2D, SeparableConv2D and Conv2DTranspose (channels last), with Keras 2's
weight shapes: depthwise_kernel (kh, kw, in, multiplier), pointwise_kernel (1, 1, in * multiplier,
filters), the transpose's kernel (kh, kw, filters, in)."""
import numpy as np

from eagerflow.keras import _activations as activations, _initializers as initializers
from eagerflow.keras._layers.conv import Conv2D, _pair
from eagerflow.ops import array_ops, conv_ops, nn_impl


def _positive(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ValueError(f"Invalid value for argument `{name}`. Expected a strictly positive value. "
                         f"Received {name}={value}.")
    return int(value)


class DepthwiseConv2D(Conv2D):
    """Each input channel convolved with its own `depth_multiplier` filters: in * multiplier outputs."""

    def __init__(self, kernel_size, strides=(1, 1), padding="valid", depth_multiplier=1, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, bias_constraint=None, **kwargs):
        super(Conv2D, self).__init__(activity_regularizer=activity_regularizer, **kwargs)
        self._conv_init(kernel_size, strides, padding, data_format, dilation_rate, activation, use_bias,
                        bias_initializer, bias_constraint)
        self.depth_multiplier = int(depth_multiplier)
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.depthwise_constraint = depthwise_constraint
        self.depthwise_regularizer, self.bias_regularizer = depthwise_regularizer, bias_regularizer

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(name="depthwise_kernel",
                                                shape=self.kernel_size + (channels, self.depth_multiplier),
                                                initializer=self.depthwise_initializer,
                                                constraint=self.depthwise_constraint)
        self._make_bias(channels * self.depth_multiplier)

    def _make_bias(self, size):
        self.bias = (self.add_weight(name="bias", shape=(size,), initializer=self.bias_initializer,
                                     constraint=self.bias_constraint) if self.use_bias else None)
        self.built = True

    def _depthwise(self, inputs):
        return conv_ops.depthwise_conv2d(inputs, self.depthwise_kernel, [1, *self.strides, 1], self.padding.upper(),
                                         dilations=list(self.dilation_rate))

    def _finish(self, x):
        if self.bias is not None:
            x = nn_impl.bias_add(x, self.bias)
        return self.activation(x)

    def call(self, inputs, training=None):
        return self._finish(self._depthwise(inputs))

    def _out_channels(self, input_shape):
        return input_shape[-1] * self.depth_multiplier

    def compute_output_shape(self, input_shape):
        return (input_shape[0], *self._spatial_output(input_shape), self._out_channels(input_shape))

    def _base_config(self):
        return {"name": self.name, "trainable": self.trainable, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "groups": 1,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}

    def get_config(self):
        return {**self._base_config(), "depth_multiplier": self.depth_multiplier}


class SeparableConv2D(DepthwiseConv2D):
    """A depthwise convolution, then a 1x1 convolution mixing its channels into `filters`."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1),
                 depth_multiplier=1, activation=None, use_bias=True, depthwise_initializer="glorot_uniform",
                 pointwise_initializer="glorot_uniform", bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(kernel_size, strides, padding, depth_multiplier, data_format, dilation_rate, activation,
                         use_bias, depthwise_initializer, bias_initializer, activity_regularizer=activity_regularizer,
                         depthwise_regularizer=depthwise_regularizer, bias_regularizer=bias_regularizer,
                         depthwise_constraint=depthwise_constraint, bias_constraint=bias_constraint, **kwargs)
        self.pointwise_regularizer = pointwise_regularizer
        self.filters = _positive(filters, "filters")
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_constraint = pointwise_constraint

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(name="depthwise_kernel",
                                                shape=self.kernel_size + (channels, self.depth_multiplier),
                                                initializer=self.depthwise_initializer,
                                                constraint=self.depthwise_constraint)
        self.pointwise_kernel = self.add_weight(name="pointwise_kernel",
                                                shape=(1, 1, channels * self.depth_multiplier, self.filters),
                                                initializer=self.pointwise_initializer,
                                                constraint=self.pointwise_constraint)
        self._make_bias(self.filters)

    def call(self, inputs, training=None):
        x = self._depthwise(inputs)
        return self._finish(conv_ops.conv2d(x, self.pointwise_kernel, 1, "VALID"))

    def _out_channels(self, input_shape):
        return self.filters

    def get_config(self):
        return {**self._base_config(), "filters": self.filters, "depth_multiplier": self.depth_multiplier}


def _deconv_length(n, k, padding, output_padding, stride, dilation):
    """Keras's deconv_output_length."""
    if n is None:
        return None
    k = k + (k - 1) * (dilation - 1)
    if output_padding is None:
        return n * stride + max(k - stride, 0) if padding == "valid" else n * stride
    pad = k // 2 if padding == "same" else 0
    return (n - 1) * stride + k - 2 * pad + output_padding


class Conv2DTranspose(Conv2D):
    """The transpose of Conv2D (its gradient with respect to the input): kernel (kh, kw, filters, in)."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", output_padding=None, data_format=None,
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides, padding, data_format, dilation_rate, 1, activation, use_bias,
                         kernel_initializer, bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, **kwargs)
        self.output_padding = None if output_padding is None else _pair(output_padding, "output_padding")
        if self.output_padding is not None:
            for stride, pad in zip(self.strides, self.output_padding):
                if pad >= stride:
                    raise ValueError(f"Strides must be greater than output padding. Received strides="
                                     f"{self.strides}, output_padding={self.output_padding}.")

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(name="kernel", shape=self.kernel_size + (self.filters, channels),
                                      initializer=self.kernel_initializer, constraint=self.kernel_constraint)
        self.bias = (self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                     constraint=self.bias_constraint) if self.use_bias else None)
        self.built = True

    def _spatial(self, h, w):
        pads = self.output_padding or (None, None)
        return [_deconv_length(n, k, self.padding, p, s, d)
                for n, k, p, s, d in zip((h, w), self.kernel_size, pads, self.strides, self.dilation_rate)]

    def call(self, inputs, training=None):
        static = inputs.shape
        shape = array_ops.shape(inputs)
        dims = [static[i] if static[i] is not None else shape[i] for i in range(3)]
        out_h, out_w = self._spatial(dims[1], dims[2])
        out = [dims[0], out_h, out_w, self.filters]
        # A constant output_shape when the input's shape is static, so graphs infer the output's.
        output_shape = out if all(isinstance(d, int) for d in out) else array_ops.stack(out)
        x = conv_ops.conv2d_transpose(inputs, self.kernel, output_shape, list(self.strides), self.padding.upper(),
                                      dilations=list(self.dilation_rate))
        if output_shape is not out and isinstance(out_h, int) and isinstance(out_w, int):
            x = array_ops.reshape(x, [-1, out_h, out_w, self.filters])  # the static dims a batch-only stack hides
        if self.bias is not None:
            x = nn_impl.bias_add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        h, w = self._spatial(input_shape[1], input_shape[2])
        return (input_shape[0], h, w, self.filters)

    def get_config(self):
        return {**super().get_config(), "groups": 1, "output_padding": self.output_padding}


DepthwiseConv2D.__module__ = SeparableConv2D.__module__ = Conv2DTranspose.__module__ = "keras.layers"
