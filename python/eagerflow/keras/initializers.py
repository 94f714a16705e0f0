"""tf.keras.initializers: callables (shape, dtype=None) -> Tensor, by name for Layer.add_weight."""
from eagerflow.keras._initializers import (Constant, GlorotNormal, GlorotUniform, HeNormal, HeUniform, Identity,
                                           Initializer, LecunNormal, LecunUniform, Ones, RandomNormal, RandomUniform,
                                           TruncatedNormal, VarianceScaling, Zeros, constant, get, glorot_normal,
                                           glorot_uniform, he_normal, he_uniform, identity, lecun_normal,
                                           lecun_uniform, ones, random_normal, random_uniform, truncated_normal,
                                           variance_scaling, zeros)

__all__ = ["Constant", "GlorotNormal", "GlorotUniform", "HeNormal", "HeUniform", "Identity", "Initializer",
           "LecunNormal", "LecunUniform", "Ones", "RandomNormal", "RandomUniform", "TruncatedNormal",
           "VarianceScaling", "Zeros", "constant", "get", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform",
           "identity", "lecun_normal", "lecun_uniform", "ones", "random_normal", "random_uniform", "truncated_normal",
           "variance_scaling", "zeros"]
