"""tf.keras: a minimal Keras 3 — Model (subclassing), Sequential, layers.Layer/Dense, optimizers SGD/Adam,
losses.MeanSquaredError, initializers and activations."""
from eagerflow.keras import activations, backend, callbacks, datasets, initializers, layers, losses, metrics, models, optimizers, utils
from eagerflow.keras._backend import Variable
from eagerflow.keras._layers.layer import Layer
from eagerflow.keras._models import Model, Sequential

__all__ = ["Layer", "Model", "Sequential", "Variable", "activations", "backend", "callbacks", "datasets", "initializers", "layers",
           "losses", "metrics", "models", "optimizers", "utils"]
