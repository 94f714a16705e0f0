"""tf.train.load_checkpoint / list_variables / load_variable: the raw tensors of a checkpoint by key."""
import os

import numpy as np

from eagerflow.framework import dtypes
from eagerflow.train import _checkpoint
from eagerflow.train import _checkpoint_management as management


def _prefix(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = management.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {path}")
        return latest
    return path


class CheckpointReader:
    """What load_checkpoint returns: get_tensor, has_tensor and the key -> shape / dtype maps."""

    def __init__(self, prefix):
        self._reader = _checkpoint._bundle_reader(prefix)

    def get_tensor(self, tensor_str):
        value = _checkpoint.tensor_from_bundle(self._reader, tensor_str)
        return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value  # scalars as NumPy scalars

    def has_tensor(self, tensor_str):
        return tensor_str in self._reader

    def get_variable_to_shape_map(self):
        return {k: list(self._reader.entry(k)[1]) for k in self._reader.keys() if k}

    def get_variable_to_dtype_map(self):
        return {k: dtypes.as_dtype(self._reader.entry(k)[0]) for k in self._reader.keys() if k}


CheckpointReader.__module__ = "eagerflow.train"


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader of the checkpoint (or of the latest one in a directory)."""
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """(key, shape) of every tensor in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value of one checkpoint key (a trailing ':0' is ignored)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
