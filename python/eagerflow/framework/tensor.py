"""Python-side methods of tf.Tensor (the class, its subclasses EagerTensor and SymbolicTensor, and its
hot operators are C++). Methods that
run ops are attached by the ops modules that define those ops (iteration: array_ops, indexing:
slice_ops, @: linalg_ops), as TF's math_ops and array_ops do."""
import numpy as np

from eagerflow import _core
from eagerflow.framework.tensor_shape import TensorShape

Tensor = _core.Tensor
Tensor.__module__ = "eagerflow"
Tensor.__qualname__ = "Tensor"
# Every tensor is one of TF's two concrete classes (the C++ wrapper picks one per tensor).
EagerTensor = _core.EagerTensor
SymbolicTensor = _core.SymbolicTensor
for _cls in (EagerTensor, SymbolicTensor):
    _cls.__module__ = "eagerflow.framework.tensor"


def _numpy_text(t, is_repr=False):
    a = t._numpy()
    if t._dtype_enum == _BFLOAT16 and a.dtype == np.float32:
        text = _bfloat16_text(a, is_repr)
    else:
        if a.ndim == 0:
            a = a[()]  # a NumPy scalar (or bytes), as TF's _numpy() returns
            if is_repr and not isinstance(a, bytes):
                a = a.item()
        text = repr(a) if is_repr else str(a)
    if "\n" in text:
        text = "\n" + text
    return text


_BFLOAT16 = 14


def _g6(v):
    return "%g" % v


def _bfloat16_text(a, is_repr):
    """bfloat16 values held as float32 (no ml_dtypes) printed as ml_dtypes prints bfloat16: each
    value with 6 significant digits (C++'s default), unpadded, and dtype=bfloat16."""
    if a.ndim == 0:
        return repr(a.item()) if is_repr else _g6(a[()])
    with np.printoptions(formatter={"float_kind": _g6}):
        text = repr(a) if is_repr else str(a)
    return text.replace("dtype=float32", "dtype=bfloat16")


def numpy(self):
    """The value as a NumPy array (a copy) or NumPy scalar; strings are bytes."""
    a = self._numpy()
    if a.ndim == 0:
        return a[()]
    return a.copy()


# Handles have no NumPy value: TF prints a description instead.
_OPAQUE = {20: "<ResourceHandle>", 21: "<TensorList>"}


def _str(self):
    if self._dtype_enum in _OPAQUE:
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_OPAQUE[self._dtype_enum], self.shape, self.dtype.name)
    return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_numpy_text(self), self.shape, self.dtype.name)


def _repr(self):
    if self._dtype_enum in _OPAQUE:
        return "<tf.Tensor: shape=%s, dtype=%s, value=%s>" % (self.shape, self.dtype.name, _OPAQUE[self._dtype_enum])
    return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (self.shape, self.dtype.name, _numpy_text(self, True))


def _format(self, spec):
    if self.ndim == 0:
        return format(self._numpy()[()], spec)
    return format(self._numpy(), spec)


def _array(self, dtype=None, copy=None):
    a = self._numpy()
    if dtype is not None and a.dtype != np.dtype(dtype):
        return a.astype(dtype)
    if copy:
        return a.copy()
    return a


def _len(self):
    if self.ndim == 0:
        raise TypeError("Scalar tensor has no `len()`")
    return self._shape_tuple[0]


def _bool(self):
    return bool(self._numpy())


def _scalar_value(self, conv):
    if self.ndim != 0 and self._num_elements() != 1 or self.ndim != 0:
        raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
    return conv(self._numpy()[()])


def _index(self):
    if not self.dtype.is_integer and not self.dtype.is_bool:
        raise TypeError(f"Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/"
                        f"tf.int64 tensors are valid indices, got {self!r}")
    return _scalar_value(self, int)


def _setitem(self, key, value):
    raise TypeError("'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment")


class _Reference:
    """tensor.ref(): a hashable wrapper comparing by identity (TF's Reference)."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    def __eq__(self, other):
        return isinstance(other, _Reference) and self._wrapped is other._wrapped

    def __hash__(self):
        return id(self._wrapped)

    def __repr__(self):
        return "<Reference wrapping %r>" % (self._wrapped,)


def _name(self):
    raise AttributeError("Tensor.name is undefined when eager execution is enabled.")


def _reduce(self):
    """Pickling: the value as a NumPy array, converted back on load (TF's EagerTensor.__reduce__)."""
    if self._dtype_enum in _OPAQUE:
        from eagerflow.framework.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"Cannot convert a Tensor of dtype {self.dtype.name} to a NumPy array.")
    from eagerflow.framework.convert import convert_to_tensor
    return convert_to_tensor, (self._numpy(),)


for _n, _f in {
    "numpy": numpy,
    "__str__": _str,
    "__repr__": _repr,
    "__format__": _format,
    "__array__": _array,
    "__len__": _len,
    "__bool__": _bool,
    "__nonzero__": _bool,
    "__int__": lambda self: _scalar_value(self, int),
    "__float__": lambda self: _scalar_value(self, float),
    "__complex__": lambda self: _scalar_value(self, complex),
    "__index__": _index,
    "__setitem__": _setitem,
    # Tensors are immutable: a copy, shallow or deep, is the tensor itself (as in TF).
    "__copy__": lambda self: self,
    "__deepcopy__": lambda self, memo: self,
    "__reduce__": _reduce,
    "ref": lambda self: _Reference(self),
    "experimental_ref": lambda self: _Reference(self),
    "get_shape": lambda self: TensorShape(self._shape_tuple),
}.items():
    setattr(Tensor, _n, _f)

def _new(cls, *args, **kwargs):
    # Tensors come from ops only: an instance made here, of a Python subclass too, would hold none
    # (C++ wraps its tensors without calling __new__).
    raise TypeError(f"{cls.__module__}.{cls.__qualname__}: No constructor defined!")


Tensor.__new__ = staticmethod(_new)
Tensor.shape = property(lambda self: TensorShape(self._shape_tuple))
Tensor.device = property(lambda self: _core.current_device())
Tensor.name = property(_name)
Tensor.is_packed = False
