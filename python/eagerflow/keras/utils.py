"""tf.keras.utils: file downloads into the Keras cache, the progress bar, NumPy data helpers."""
from eagerflow.keras._data_utils import get_file  # noqa: F401
from eagerflow.keras._utils.numerical import normalize, pad_sequences, set_random_seed, to_categorical  # noqa: F401
from eagerflow.keras._utils.progbar import Progbar  # noqa: F401

__all__ = ["Progbar", "get_file", "normalize", "pad_sequences", "set_random_seed", "to_categorical"]
