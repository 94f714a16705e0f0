"""tf.keras.backend: the scope that prefixes the paths of variables created inside."""
from eagerflow.keras._backend import name_scope

__all__ = ["name_scope"]
