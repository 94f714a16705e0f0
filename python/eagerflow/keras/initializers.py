"""tf.keras.initializers: callables (shape, dtype=None) -> Tensor, by name for Layer.add_weight."""
from eagerflow.keras._initializers import (Constant, GlorotNormal, GlorotUniform, Initializer, Ones, RandomNormal,
                                           RandomUniform, Zeros, constant, get, glorot_normal, glorot_uniform, ones,
                                           random_normal, random_uniform, zeros)

__all__ = ["Constant", "GlorotNormal", "GlorotUniform", "Initializer", "Ones", "RandomNormal", "RandomUniform",
           "Zeros", "constant", "get", "glorot_normal", "glorot_uniform", "ones", "random_normal", "random_uniform",
           "zeros"]
