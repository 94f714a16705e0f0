"""tf.keras.models: Model and Sequential."""
from eagerflow.keras._engine.sequential import Sequential
from eagerflow.keras._engine.model import Model

__all__ = ["Model", "Sequential"]
