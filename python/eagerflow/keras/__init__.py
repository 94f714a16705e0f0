"""tf.keras: a minimal Keras 3 — Model (subclassing), Sequential, layers.Layer/Dense, optimizers SGD/Adam,
losses.MeanSquaredError, initializers and activations."""
from eagerflow.keras import activations, initializers, layers, losses, optimizers
from eagerflow.keras.backend import Variable
from eagerflow.keras.layers import Layer
from eagerflow.keras.models import Model, Sequential
from eagerflow.keras import models
