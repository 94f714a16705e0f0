"""tf.keras.datasets.mnist: 60,000 training and 10,000 test images of handwritten digits."""
import os as _os

import numpy as _np

from eagerflow.keras._data_utils import get_file as _get_file

_ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"

__all__ = ["load_data"]


def load_data(path="mnist.npz", cache_dir=None):
    """`(x_train, y_train), (x_test, y_test)` as uint8 NumPy arrays from `mnist.npz` in the Keras
    cache (downloaded there when missing). The file is read as data only (no pickled objects)."""
    if cache_dir:
        cache_dir = _os.path.expanduser(cache_dir)
        _os.makedirs(cache_dir, exist_ok=True)
    path = _get_file(path, origin=_ORIGIN, cache_dir=cache_dir)
    with _np.load(path, allow_pickle=False) as f:
        x_train, y_train = f["x_train"], f["y_train"]
        x_test, y_test = f["x_test"], f["y_test"]
        return (x_train, y_train), (x_test, y_test)
