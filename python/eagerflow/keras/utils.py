"""tf.keras.utils: file downloads into the Keras cache."""
from eagerflow.keras._data_utils import get_file  # noqa: F401

__all__ = ["get_file"]
