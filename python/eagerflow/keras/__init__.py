"""tf.keras (Keras 2 as TensorFlow packages it): layers, the functional, sequential and subclassing model
APIs with compile/fit, callbacks, losses, metrics, optimizers, regularizers, initializers and activations."""
from eagerflow.keras import (activations, backend, callbacks, datasets, initializers, layers, losses, metrics, models,
                             optimizers, regularizers, utils)
from eagerflow.keras._layers.input_layer import Input
from eagerflow.keras._engine.sequential import Sequential
from eagerflow.keras._layers.layer import Layer
from eagerflow.keras._engine.model import Model

__all__ = ["Input", "Layer", "Model", "Sequential", "activations", "backend", "callbacks", "datasets", "initializers",
           "layers", "losses", "metrics", "models", "optimizers", "regularizers", "utils"]
