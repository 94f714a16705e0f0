"""tf.keras.backend: name scopes (tf.name_scope, as in Keras 2) and clear_session."""
from eagerflow.framework.ops import name_scope
from eagerflow.keras._backend import clear_session

__all__ = ["clear_session", "name_scope"]
