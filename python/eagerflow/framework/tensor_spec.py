"""tf.TensorSpec: the dtype and (partially known) shape a tensor argument must have."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape


class TensorSpec:
    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        if not isinstance(tensor, _core.Tensor):
            raise ValueError(f"`tensor` should be a tf.Tensor, but got type {type(tensor)}.")
        return cls(tensor.shape, tensor.dtype, name)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    def is_compatible_with(self, spec_or_tensor):
        """Whether a TensorSpec or tensor fits this spec (any other value does not, as in TF)."""
        if not isinstance(spec_or_tensor, (TensorSpec, _core.Tensor)):
            return False
        return self._dtype == spec_or_tensor.dtype and self._shape.is_compatible_with(spec_or_tensor.shape)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._dtype == other._dtype and self._shape == other._shape
                and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (self._shape, self._dtype, self._name)
