"""tf.keras.backend: name scopes (tf.name_scope, as in Keras 2)."""
from eagerflow.framework.ops import name_scope

__all__ = ["name_scope"]
