"""tf.keras.models: Model (subclassing API only) and Sequential."""
from eagerflow.keras._models import Model, Sequential

__all__ = ["Model", "Sequential"]
