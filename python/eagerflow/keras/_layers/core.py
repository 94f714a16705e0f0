"""keras.layers Dropout, Activation, Embedding, Reshape and Lambda."""
import numbers

import numpy as np

from eagerflow.keras import _activations as activations, _initializers as initializers
from eagerflow.keras._layers.layer import Layer
from eagerflow.ops import array_ops, math_ops, nn_dropout
from eagerflow.framework import dtypes


class Dropout(Layer):
    """Zeros inputs with probability `rate` when training (scaling the rest); identity otherwise."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        if not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value between 0 and 1.")
        super().__init__(**kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return array_ops.identity(inputs)
        return nn_dropout.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self._next_seed())

    def _next_seed(self):
        # Keras 2's legacy RNG: the op seed is the layer's seed, one more on each call.
        seed = getattr(self, "_legacy_seed", self.seed)
        if seed is not None:
            self._legacy_seed = seed + 1
        return seed

    def compute_output_shape(self, input_shape):
        return input_shape


class Activation(Layer):
    """Applies an activation function (a name or a callable)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape


class Embedding(Layer):
    """Rows of a trainable (input_dim, output_dim) table looked up by integer indices."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, Received input_dim = {input_dim} "
                             f"and output_dim = {output_dim}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = embeddings_regularizer
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero = mask_zero
        self.autocast = False  # indices stay integers

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(name="embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = math_ops.cast(inputs, dtypes.int32)
        return array_ops.gather(self.embeddings, inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)


class Reshape(Layer):
    """Reshapes every sample to `target_shape` (the batch dim is kept; one dim may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return array_ops.reshape(inputs, [-1 if inputs.shape[0] is None else inputs.shape[0]] +
                                 list(self.target_shape))

    def compute_output_shape(self, input_shape):
        shape = list(self.target_shape)
        if -1 in shape and all(d is not None for d in input_shape[1:]):
            known = int(np.prod([d for d in shape if d != -1]))
            shape[shape.index(-1)] = int(np.prod(input_shape[1:])) // known
        return (input_shape[0],) + tuple(shape)


class Lambda(Layer):
    """Wraps a function of the inputs as a layer."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = arguments or {}

    def call(self, inputs):
        return self.function(inputs, **self.arguments)


for _cls in (Dropout, Activation, Embedding, Reshape, Lambda):
    _cls.__module__ = "keras.layers"
