"""keras.layers.MaxPooling2D and AveragePooling2D (channels last)."""
from eagerflow.keras._layers.conv import _pair
from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import conv_ops


class _Pooling2D(Layer):
    _pool = None

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        padding = padding.lower() if isinstance(padding, str) else padding
        if padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or "
                             f"\"causal\", only for `Conv1D). Received: {padding}")
        self.padding = padding
        if data_format not in (None, "channels_last"):
            raise NotImplementedError(f"{type(self).__name__} supports data_format='channels_last' only")
        self.data_format = "channels_last"

    def call(self, inputs):
        return type(self)._pool(inputs, list(self.pool_size), list(self.strides), self.padding.upper())

    def compute_output_shape(self, input_shape):
        def size(n, k, s):
            if n is None:
                return None
            return -(-n // s) if self.padding == "same" else (n - k) // s + 1
        return (input_shape[0], size(input_shape[1], self.pool_size[0], self.strides[0]),
                size(input_shape[2], self.pool_size[1], self.strides[1]), input_shape[3])


class MaxPooling2D(_Pooling2D):
    """The maximum of each pool_size window."""
    _pool = conv_ops.max_pool2d


class AveragePooling2D(_Pooling2D):
    """The mean of each pool_size window."""
    _pool = conv_ops.avg_pool2d


MaxPooling2D.__module__ = AveragePooling2D.__module__ = "keras.layers"


class _Pooling1D(_Pooling2D):
    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        one = lambda v: v if isinstance(v, int) else tuple(v)[0]  # noqa: E731
        super().__init__((1, one(pool_size)), None if strides is None else (1, one(strides)), padding, data_format,
                         **kwargs)

    def call(self, inputs):
        from eagerflow.ops import array_ops
        return array_ops.squeeze(super().call(array_ops.expand_dims(inputs, 1)), [1])

    def compute_output_shape(self, input_shape):
        out = super().compute_output_shape((input_shape[0], 1, input_shape[1], input_shape[2]))
        return (out[0], out[2], out[3])


class MaxPooling1D(_Pooling1D):
    """The maximum of each pool_size window along the steps."""
    _pool = conv_ops.max_pool2d


class AveragePooling1D(_Pooling1D):
    """The mean of each pool_size window along the steps."""
    _pool = conv_ops.avg_pool2d


MaxPooling1D.__module__ = AveragePooling1D.__module__ = "keras.layers"
