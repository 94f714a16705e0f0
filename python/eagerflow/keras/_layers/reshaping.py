"""keras.layers.Flatten, GlobalAveragePooling2D and GlobalMaxPooling2D: layers without weights that
reshape or reduce their inputs (channels last)."""
import numpy as np

from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import array_ops, reduction_ops


class Flatten(Layer):
    """Flattens every dim but the batch dim."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        shape = inputs.shape.as_list() if inputs.shape.rank is not None else None
        if shape is not None and all(d is not None for d in shape[1:]):
            return array_ops.reshape(inputs, [-1, int(np.prod(shape[1:], dtype=np.int64))])
        return array_ops.reshape(inputs, [array_ops.shape(inputs)[0], -1])

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        return (input_shape[0], None if any(d is None for d in rest) else int(np.prod(rest, dtype=np.int64)))


class _GlobalPooling(Layer):
    """A reduction over the spatial axes of channels-last inputs (`_axes`: 1 or 2 of them)."""
    _reduce = None
    _axes = (1, 2)

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.keepdims = keepdims

    def call(self, inputs):
        return type(self)._reduce(inputs, axis=list(self._axes), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        if self.keepdims:
            return tuple(1 if i in self._axes else d for i, d in enumerate(input_shape))
        return tuple(d for i, d in enumerate(input_shape) if i not in self._axes)


class _GlobalPooling2D(_GlobalPooling):
    pass


class GlobalAveragePooling2D(_GlobalPooling2D):
    """The mean over the spatial dims of NHWC inputs."""
    _reduce = reduction_ops.reduce_mean


class GlobalMaxPooling2D(_GlobalPooling2D):
    """The maximum over the spatial dims of NHWC inputs."""
    _reduce = reduction_ops.reduce_max


Flatten.__module__ = GlobalAveragePooling2D.__module__ = GlobalMaxPooling2D.__module__ = "keras.layers"


class _GlobalPooling1D(_GlobalPooling):
    _axes = (1,)


class GlobalAveragePooling1D(_GlobalPooling1D):
    """The mean over the steps of NWC inputs."""
    _reduce = reduction_ops.reduce_mean


class GlobalMaxPooling1D(_GlobalPooling1D):
    """The maximum over the steps of NWC inputs."""
    _reduce = reduction_ops.reduce_max


GlobalAveragePooling1D.__module__ = GlobalMaxPooling1D.__module__ = "keras.layers"
