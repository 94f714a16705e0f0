"""tf.keras.utils: file downloads into the Keras cache, the progress bar."""
from eagerflow.keras._data_utils import get_file  # noqa: F401
from eagerflow.keras._utils.progbar import Progbar  # noqa: F401

__all__ = ["Progbar", "get_file"]
