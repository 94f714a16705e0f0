"""VariableSpec: the type of a tf.Variable argument of a tf.function (its structured signature
entry), as TF prints it."""
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape


class VariableSpec:
    """shape, dtype, trainable, and alias_id: which argument of the call it aliases (None outside one)."""

    __slots__ = ("shape", "dtype", "trainable", "alias_id")

    def __init__(self, shape, dtype=dtypes.float32, trainable=True, alias_id=None):
        self.shape = TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.trainable = trainable
        self.alias_id = alias_id

    def _key(self):
        return (self.shape.as_list() if self.shape.rank is not None else None, self.dtype, self.trainable,
                self.alias_id)

    def __eq__(self, other):
        return type(other) is VariableSpec and self._key() == other._key()

    def __hash__(self):
        return hash((VariableSpec, self.dtype, self.trainable, self.alias_id))

    def __repr__(self):
        shape = "<unknown>" if self.shape.rank is None else str(tuple(self.shape.as_list()))
        return (f"VariableSpec(shape={shape}, dtype={self.dtype!r}, trainable={self.trainable}, "
                f"alias_id={self.alias_id})")
