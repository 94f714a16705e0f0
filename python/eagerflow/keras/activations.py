"""tf.keras.activations: activation functions, by name for layers' `activation` argument."""
from eagerflow.keras._activations import (elu, exponential, get, linear, log_softmax, relu, relu6, selu, serialize,
                                          sigmoid, softmax, softplus, tanh)

__all__ = ["elu", "exponential", "get", "linear", "log_softmax", "relu", "relu6", "selu", "serialize", "sigmoid",
           "softmax", "softplus", "tanh"]
