"""tf.keras.regularizers: penalties on weights (add_weight's `regularizer`) or outputs (a layer's
`activity_regularizer`), collected in `layer.losses`."""
import numpy as np

from eagerflow.ops import math_ops, reduction_ops


def _floatx(value, name):
    value = np.float32(value)  # Keras 2 keeps the factors as float32
    if not np.isfinite(value):
        raise ValueError(f"Value for argument `{name}` must be a finite number, but received {name}={value!r}")
    return value


class Regularizer:
    """Base class: `regularizer(x)` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_config(self):
        raise NotImplementedError(f"{self} does not implement get_config()")


class _Penalty(Regularizer):
    """Sums `factor * reduce_sum(penalty(x))` over the factors of the subclass (l1: |x|, l2: x**2)."""

    _factors = ()

    def __call__(self, x):
        total = None
        for name in self._factors:
            factor = getattr(self, name)
            if factor or len(self._factors) == 1:  # L1L2 skips a zero factor; L1 and L2 always compute
                term = factor * reduction_ops.reduce_sum(_ELEMENTWISE[name](x))
                total = term if total is None else total + term
        return 0.0 if total is None else total

    def get_config(self):
        return {name: float(getattr(self, name)) for name in self._factors}


_ELEMENTWISE = {"l1": math_ops.abs, "l2": math_ops.square}


class L1L2(_Penalty):
    """l1 * sum(|x|) + l2 * sum(x**2)."""

    _factors = ("l1", "l2")

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _floatx(l1, "l1")
        self.l2 = _floatx(l2, "l2")


class L1(_Penalty):
    """l1 * sum(|x|)."""

    _factors = ("l1",)

    def __init__(self, l1=0.01, **kwargs):
        self.l1 = _floatx(kwargs.pop("l", l1), "l1")


class L2(_Penalty):
    """l2 * sum(x**2)."""

    _factors = ("l2",)

    def __init__(self, l2=0.01, **kwargs):
        self.l2 = _floatx(kwargs.pop("l", l2), "l2")


def l1_l2(l1=0.01, l2=0.01):
    return L1L2(l1=l1, l2=l2)


l1, l2 = L1, L2
_BY_NAME = {"l1": L1, "l2": L2, "l1_l2": l1_l2, "L1": L1, "L2": L2, "L1L2": L1L2}


def get(identifier):
    """A regularizer from None, a name ("l1", "l2", "l1_l2"), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Unknown regularizer: '{identifier}'. Please ensure you are using a "
                             "`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                             "https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                             "for details.")
        return _BY_NAME[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


for _cls in (Regularizer, L1L2, L1, L2):
    _cls.__module__ = "keras.regularizers"
