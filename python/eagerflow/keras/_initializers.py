"""tf.keras.initializers: callables (shape, dtype=None) -> Tensor used by Layer.add_weight."""
import math
import warnings

from eagerflow.framework import dtypes
from eagerflow.keras._random_generator import RandomGenerator
from eagerflow.module.module import camel_to_snake
from eagerflow.ops import creation_ops


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


class _RandomInitializer(Initializer):
    """Keras 2's seeded initializers: stateless ops with one seed, so every call returns the same
    values (an unseeded one draws its seed once and warns when called again)."""

    def _init_random(self, seed):
        self.seed = seed
        self._random_generator = RandomGenerator(seed)

    def _warn_reuse(self):
        if getattr(self, "_used", False):
            if getattr(self, "seed", None) is None:
                warnings.warn(f"The initializer {self.__class__.__name__} is unseeded and being called multiple "
                              "times, which will return identical values each time (even if the initializer is "
                              "unseeded). Please update your code to provide a seed to the initializer, or avoid "
                              "using the same initializer instance more than once.")
        else:
            self._used = True


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


class RandomUniform(_RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        self._init_random(seed)

    def __call__(self, shape, dtype=None):
        self._warn_reuse()
        return self._random_generator.random_uniform(list(shape), self.minval, self.maxval, _dtype(dtype))

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class RandomNormal(_RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        self._init_random(seed)

    def __call__(self, shape, dtype=None):
        self._warn_reuse()
        return self._random_generator.random_normal(list(shape), self.mean, self.stddev, _dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class TruncatedNormal(_RandomInitializer):
    """Normal values more than two standard deviations from the mean are redrawn."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        self._init_random(seed)

    def __call__(self, shape, dtype=None):
        self._warn_reuse()
        return self._random_generator.truncated_normal(list(shape), self.mean, self.stddev, _dtype(dtype))

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class VarianceScaling(_RandomInitializer):
    """Draws with variance scale / n, n the fan in, fan out or their mean: a truncated normal (stddev
    corrected for the truncation), an untruncated normal, or a uniform in [-sqrt(3 scale / n), ...]."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive float. Received: scale={scale}.")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Invalid `mode` argument: {mode}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in {"uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError(f"Invalid `distribution` argument: {distribution}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self._init_random(seed)

    def __call__(self, shape, dtype=None):
        self._warn_reuse()
        fan_in, fan_out = _fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, n)
        dtype = _dtype(dtype)
        if self.distribution == "truncated_normal":
            stddev = math.sqrt(scale) / 0.87962566103423978
            return self._random_generator.truncated_normal(list(shape), 0.0, stddev, dtype)
        if self.distribution == "untruncated_normal":
            return self._random_generator.random_normal(list(shape), 0.0, math.sqrt(scale), dtype)
        limit = math.sqrt(3.0 * scale)
        return self._random_generator.random_uniform(list(shape), -limit, limit, dtype)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution, "seed": self.seed}


def _variance_scaling(name, scale, mode, distribution, doc):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def get_config(self):
        return {"seed": self.seed}
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config, "__doc__": doc,
                                           "__module__": "keras.initializers"})


GlorotUniform = _variance_scaling("GlorotUniform", 1.0, "fan_avg", "uniform",
                                  "Uniform in [-limit, limit], limit = sqrt(6 / (fan_in + fan_out)).")
GlorotNormal = _variance_scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal",
                                 "Truncated normal with stddev sqrt(2 / (fan_in + fan_out)).")
HeNormal = _variance_scaling("HeNormal", 2.0, "fan_in", "truncated_normal",
                             "Truncated normal with stddev sqrt(2 / fan_in).")
HeUniform = _variance_scaling("HeUniform", 2.0, "fan_in", "uniform", "Uniform with limit sqrt(6 / fan_in).")
LecunNormal = _variance_scaling("LecunNormal", 1.0, "fan_in", "truncated_normal",
                                "Truncated normal with stddev sqrt(1 / fan_in).")
LecunUniform = _variance_scaling("LecunUniform", 1.0, "fan_in", "uniform", "Uniform with limit sqrt(3 / fan_in).")


class Identity(Initializer):
    """gain * the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None):
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return creation_ops.eye(shape[0], shape[1], dtype=_dtype(dtype)) * self.gain

    def get_config(self):
        return {"gain": self.gain}


_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_uniform": RandomUniform, "uniform": RandomUniform,
            "random_normal": RandomNormal, "normal": RandomNormal, "truncated_normal": TruncatedNormal,
            "variance_scaling": VarianceScaling, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_normal": HeNormal, "he_uniform": HeUniform, "lecun_normal": LecunNormal,
            "lecun_uniform": LecunUniform, "identity": Identity}
zeros, ones, constant = Zeros, Ones, Constant
random_uniform, random_normal, truncated_normal = RandomUniform, RandomNormal, TruncatedNormal
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, HeUniform
lecun_normal, lecun_uniform, variance_scaling, identity = LecunNormal, LecunUniform, VarianceScaling, Identity


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
