"""TF 2's core initializers (tf.zeros_initializer, ones, constant, random_uniform, random_normal): a
callable that builds a tensor of a shape and dtype, with TF's argument checks. A seeded random one
draws from the stateless ops with seed [seed, 0], as TF's do, so it gives TF's values; unseeded, from
the stateful ops."""
import numpy as np

from eagerflow.framework import dtypes
from eagerflow.framework.convert import constant
from eagerflow.ops import creation_ops, random_ops, stateless_random_ops

_PARTITION_SHAPE, _PARTITION_OFFSET = "partition_shape", "partition_offset"


class Initializer:
    """The base: `initializer(shape, dtype)` returns the tensor; get_config/from_config round-trip it."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config.pop("dtype", None)
        return cls(**config)

    def _shape(self, shape, kwargs, support_partition=True):
        """`shape`, or the partition's shape among TF's two partition keyword arguments."""
        for kwarg in kwargs:
            if kwarg not in (_PARTITION_SHAPE, _PARTITION_OFFSET):
                raise TypeError("Keyword argument should be one of "
                                f"{[_PARTITION_SHAPE, _PARTITION_OFFSET]}. Received: {kwarg}")
            if not support_partition:
                raise ValueError(f"{type(self).__name__} initializer doesn't support partition-related arguments")
        return kwargs.get(_PARTITION_SHAPE, shape)


def _numeric_or_bool(dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_numpy_compatible or dtype == dtypes.string:
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
    return dtype


class Zeros(Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        return creation_ops.zeros(shape, _numeric_or_bool(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        return creation_ops.ones(shape, _numeric_or_bool(dtype))


class Constant(Initializer):
    """`value` (a Python scalar, list, tuple or ndarray) as a constant of the shape asked for."""

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__}. Expected Python scalar, list "
                            "or tuple of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        self._shape(shape, kwargs, support_partition=self.support_partition)
        return constant(self.value, dtype=None if dtype is None else dtypes.as_dtype(dtype), shape=shape)

    def get_config(self):
        return {"value": self.value}


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received {dtype}.")
        if self.seed is not None:
            return stateless_random_ops.stateless_random_uniform(shape, [self.seed, 0], self.minval, self.maxval,
                                                                 dtype)
        return random_ops.uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = self._shape(shape, kwargs)
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
        if self.seed is not None:
            return stateless_random_ops.stateless_random_normal(shape, [self.seed, 0], self.mean, self.stddev, dtype)
        return random_ops.normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


# The names tf exports them under.
zeros_initializer, ones_initializer, constant_initializer = Zeros, Ones, Constant
random_uniform_initializer, random_normal_initializer = RandomUniform, RandomNormal
