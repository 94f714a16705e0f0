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


class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x**2)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _floatx(l1, "l1")
        self.l2 = _floatx(l2, "l2")

    def __call__(self, x):
        total = 0.0
        if self.l1:
            total = total + self.l1 * reduction_ops.reduce_sum(math_ops.abs(x))
        if self.l2:
            total = total + self.l2 * reduction_ops.reduce_sum(math_ops.square(x))
        return total

    def get_config(self):
        return {"l1": float(self.l1), "l2": float(self.l2)}


class L1(Regularizer):
    def __init__(self, l1=0.01, **kwargs):
        self.l1 = _floatx(kwargs.pop("l", l1), "l1")

    def __call__(self, x):
        return self.l1 * reduction_ops.reduce_sum(math_ops.abs(x))

    def get_config(self):
        return {"l1": float(self.l1)}


class L2(Regularizer):
    def __init__(self, l2=0.01, **kwargs):
        self.l2 = _floatx(kwargs.pop("l", l2), "l2")

    def __call__(self, x):
        return self.l2 * reduction_ops.reduce_sum(math_ops.square(x))

    def get_config(self):
        return {"l2": float(self.l2)}


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
