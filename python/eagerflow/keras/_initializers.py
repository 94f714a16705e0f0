"""tf.keras.initializers: callables (shape, dtype=None) -> Tensor used by Layer.add_weight."""
import math

from eagerflow.framework import dtypes
from eagerflow.module.module import camel_to_snake
from eagerflow.ops import creation_ops, random_ops


def _dtype(dtype):
    return dtypes.as_dtype(dtype or "float32")


def _fans(shape):
    shape = tuple(shape)
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[:-2]:
        receptive *= d
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    def __call__(self, shape, dtype=None):
        raise NotImplementedError

    def get_config(self):
        return {}


class Zeros(Initializer):
    def __call__(self, shape, dtype=None):
        return creation_ops.zeros(list(shape), _dtype(dtype))


class Ones(Initializer):
    def __call__(self, shape, dtype=None):
        return creation_ops.ones(list(shape), _dtype(dtype))


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype=None):
        return creation_ops.fill(list(shape), creation_ops.ones([], _dtype(dtype)) * self.value)

    def get_config(self):
        return {"value": self.value}


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=None):
        return random_ops.uniform(list(shape), self.minval, self.maxval, dtype=_dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=None):
        return random_ops.normal(list(shape), self.mean, self.stddev, dtype=_dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class GlorotUniform(Initializer):
    """Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape)
        limit = math.sqrt(6.0 / max(1.0, fan_in + fan_out))
        return random_ops.uniform(list(shape), -limit, limit, dtype=_dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"seed": self.seed}


class GlorotNormal(Initializer):
    """Truncated normal with stddev sqrt(2 / (fan_in + fan_out)) (corrected for the truncation)."""

    def __init__(self, seed=None):
        self.seed = seed

    def __call__(self, shape, dtype=None):
        fan_in, fan_out = _fans(shape)
        stddev = math.sqrt(2.0 / max(1.0, fan_in + fan_out)) / 0.87962566103423978
        return random_ops.truncated_normal(list(shape), 0.0, stddev, dtype=_dtype(dtype), seed=self.seed)

    def get_config(self):
        return {"seed": self.seed}


_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_uniform": RandomUniform, "uniform": RandomUniform,
            "random_normal": RandomNormal, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal}
zeros, ones, constant = Zeros, Ones, Constant
random_uniform, random_normal = RandomUniform, RandomNormal
glorot_uniform, glorot_normal = GlorotUniform, GlorotNormal


def get(identifier):
    """An initializer from a name ("glorot_uniform"), a class name, an instance or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier) or _BY_NAME.get(camel_to_snake(identifier))
        if cls is not None:
            return cls()
    elif isinstance(identifier, type) and issubclass(identifier, Initializer):
        return identifier()
    elif callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")
