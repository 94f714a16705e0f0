"""keras.layers.BatchNormalization (moving statistics, training flag) and LayerNormalization."""
from eagerflow.framework import dtypes
from eagerflow.keras import _initializers as initializers
from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import array_ops, creation_ops, math_ops, nn_impl


def _axes(axis, rank):
    axis = [axis] if isinstance(axis, int) else list(axis)
    return sorted(a % rank for a in axis)


def _param_shape(shape, axes):
    return tuple(shape[a] for a in axes)


def _broadcastable(t, rank, axes):
    """A parameter of the normalized axes reshaped to broadcast over inputs of `rank`."""
    if axes == [rank - 1]:
        return t
    shape = [1] * rank
    for i, a in enumerate(axes):
        shape[a] = t.shape[i]
    return array_ops.reshape(t, shape)


# The fused kernel's data_format for (rank, normalized axis), as Keras 2 picks it.
_FUSED_FORMATS = {(4, 3): "NHWC", (4, 1): "NCHW", (5, 4): "NDHWC", (5, 1): "NCDHW"}


class BatchNormalization(Layer):
    """Normalizes with the batch's statistics when training (and moves the moving mean and variance
    towards them), with the moving statistics otherwise. 4-D and 5-D float32 inputs normalized over
    the channel axis run the FusedBatchNormV3 kernel, as Keras 2 does (`fused=None`); either way the
    moving variance moves towards the unbiased batch variance there."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 fused=None, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon, self.fused = axis, momentum, epsilon, fused
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.center, self.scale = center, scale
        self._init = {k: initializers.get(v) for k, v in (("beta", beta_initializer), ("gamma", gamma_initializer),
                                                            ("moving_mean", moving_mean_initializer),
                                                            ("moving_variance", moving_variance_initializer))}

    def build(self, input_shape):
        self._rank = len(input_shape)
        self._axes = _axes(self.axis, self._rank)
        if self.fused and self._rank not in (4, 5):
            raise ValueError(f"Batch normalization layers with `fused=True` only support 4D or 5D input tensors. "
                             f"Received tensor with shape: {tuple(input_shape)}")
        self._data_format = None
        if self.fused is not False and len(self._axes) == 1:
            self._data_format = _FUSED_FORMATS.get((self._rank, self._axes[0]))
        if self.fused and self._data_format is None:
            raise ValueError(f"Unsupported axis. The use of `fused=True` is only possible with `axis=1` or "
                             f"`axis={self._rank - 1}` for {self._rank}D input tensors. Received: "
                             f"axis={tuple(self._axes)}")
        shape = _param_shape(input_shape, self._axes)
        if any(d is None for d in shape):
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension but the layer "
                             f"received an input with shape {tuple(input_shape)}.")
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self._init["gamma"]) if self.scale \
            else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self._init["beta"]) if self.center \
            else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=shape, initializer=self._init["moving_mean"],
                                           trainable=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=shape,
                                               initializer=self._init["moving_variance"], trainable=False)
        self.built = True

    def _fused_call(self, inputs, training):
        gamma = self.gamma if self.scale else creation_ops.ones_like(self.moving_mean)
        beta = self.beta if self.center else creation_ops.zeros_like(self.moving_mean)
        if not training:
            return nn_impl.fused_batch_norm(inputs, gamma, beta, self.moving_mean, self.moving_variance,
                                            self.epsilon, self._data_format, is_training=False)[0]
        y, mean, variance = nn_impl.fused_batch_norm(inputs, gamma, beta, self.moving_mean, self.moving_variance,
                                                     self.epsilon, self._data_format, is_training=True,
                                                     exponential_avg_factor=1.0 - self.momentum)
        self.moving_mean.assign(mean)
        self.moving_variance.assign(variance)
        return y

    def call(self, inputs, training=None):
        if self._data_format is not None and inputs.dtype == dtypes.float32:
            return self._fused_call(inputs, training)
        rank, axes = self._rank, self._axes
        reduce = [a for a in range(rank) if a not in axes]
        b = lambda t: None if t is None else _broadcastable(t, rank, axes)  # noqa: E731
        if not training:
            return nn_impl.batch_normalization(inputs, b(self.moving_mean), b(self.moving_variance), b(self.beta),
                                               b(self.gamma), self.epsilon)
        mean, variance = nn_impl.moments(inputs, reduce)
        # The moving variance averages the unbiased batch variance where Keras runs the fused kernel
        # (4-D inputs normalized over the last axis), the biased one elsewhere.
        moving_var = variance
        if rank == 4 and axes == [3]:
            n = math_ops.cast(array_ops.size(inputs) // array_ops.size(mean), inputs.dtype)
            moving_var = variance * n / math_ops.maximum(n - 1.0, 1.0)
        decay = 1.0 - self.momentum
        self.moving_mean.assign_sub((self.moving_mean - mean) * decay)
        self.moving_variance.assign_sub((self.moving_variance - moving_var) * decay)
        return nn_impl.batch_normalization(inputs, b(mean), b(variance), b(self.beta), b(self.gamma), self.epsilon)

    def compute_output_shape(self, input_shape):
        return input_shape


class LayerNormalization(Layer):
    """Normalizes each sample over `axis` (default: the last), then scales and centers."""

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon, self.center, self.scale = axis, epsilon, center, scale
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self._beta_init = initializers.get(beta_initializer)
        self._gamma_init = initializers.get(gamma_initializer)

    def build(self, input_shape):
        self._rank = len(input_shape)
        self._axes = _axes(self.axis, self._rank)
        shape = _param_shape(input_shape, self._axes)
        self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self._gamma_init) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=shape, initializer=self._beta_init) if self.center else None
        self.built = True

    def call(self, inputs):
        x = inputs if inputs.dtype != dtypes.float16 else math_ops.cast(inputs, dtypes.float32)
        mean, variance = nn_impl.moments(x, self._axes, keepdims=True)
        b = lambda t: None if t is None else _broadcastable(t, self._rank, self._axes)  # noqa: E731
        y = nn_impl.batch_normalization(x, mean, variance, b(self.beta), b(self.gamma), self.epsilon)
        return y if y.dtype == inputs.dtype else math_ops.cast(y, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return input_shape


BatchNormalization.__module__ = LayerNormalization.__module__ = "keras.layers"
