"""tf.DType and the dtype constants (tf.float32, tf.int32, ...), numbered like TF's DataType enum.

NumPy has no bfloat16: TF's is ml_dtypes.bfloat16, used here when ml_dtypes is installed (an
optional dependency, `pip install eagerflow[bfloat16]`). Without it bfloat16 tensors convert to
float32 arrays (exactly: every bfloat16 is a float32) and `tf.bfloat16.as_numpy_dtype` is float32."""
import numpy as np

from eagerflow import _core

try:
    import ml_dtypes as _ml_dtypes
except ImportError:  # optional
    _ml_dtypes = None

_FLOATING = (1, 2, 14, 19)
_INTEGER = (3, 4, 5, 6, 9, 17, 22, 23)
_UNSIGNED = (4, 17, 22, 23)
_COMPLEX = (8, 18)
# bfloat16's largest finite value (0x7f7f), for when ml_dtypes is missing.
_BFLOAT16_MAX = 3.3895313892515355e38


class DType:
    """An element type of tensors, e.g. tf.float32."""

    __slots__ = ("_type_enum", "_name", "_np")

    def __init__(self, type_enum, name, np_type):
        self._type_enum = type_enum
        self._name = name
        self._np = np_type

    @property
    def name(self):
        return self._name

    @property
    def as_datatype_enum(self):
        return self._type_enum

    @property
    def as_numpy_dtype(self):
        return self._np

    @property
    def base_dtype(self):
        return self

    @property
    def real_dtype(self):
        return {8: float32, 18: float64}.get(self._type_enum, self)

    @property
    def is_floating(self):
        return self._type_enum in _FLOATING

    @property
    def is_integer(self):
        return self._type_enum in _INTEGER

    @property
    def is_unsigned(self):
        return self._type_enum in _UNSIGNED

    @property
    def is_complex(self):
        return self._type_enum in _COMPLEX

    @property
    def is_bool(self):
        return self._type_enum == 10

    @property
    def is_numeric(self):
        return self.is_floating or self.is_integer or self.is_complex

    @property
    def is_numpy_compatible(self):
        return True

    @property
    def size(self):
        if self._type_enum == 7:
            return 1
        return 2 if self._type_enum == 14 else int(np.dtype(self._np).itemsize)

    @property
    def min(self):
        if self._type_enum == 14:
            return -_BFLOAT16_MAX
        if self.is_floating:
            return float(np.finfo(self._np).min)
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        if self.is_bool:
            return False
        raise TypeError(f"Cannot find minimum value of {self} with type {self}.")

    @property
    def max(self):
        if self._type_enum == 14:
            return _BFLOAT16_MAX
        if self.is_floating:
            return float(np.finfo(self._np).max)
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        if self.is_bool:
            return True
        raise TypeError(f"Cannot find maximum value of {self} with type {self}.")

    def is_compatible_with(self, other):
        return self == as_dtype(other)

    def __eq__(self, other):
        if other is None:
            return False
        if isinstance(other, DType):
            return self._type_enum == other._type_enum
        try:
            return self._type_enum == as_dtype(other)._type_enum
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return self._type_enum

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: %r>" % self._name

    def __reduce__(self):
        return as_dtype, (self._name,)


float16 = DType(19, "float16", np.float16)
half = float16
float32 = DType(1, "float32", np.float32)
float64 = DType(2, "float64", np.float64)
double = float64
int8 = DType(6, "int8", np.int8)
uint8 = DType(4, "uint8", np.uint8)
int16 = DType(5, "int16", np.int16)
int32 = DType(3, "int32", np.int32)
int64 = DType(9, "int64", np.int64)
bool = DType(10, "bool", np.bool_)  # noqa: A001 - TF's name
complex64 = DType(8, "complex64", np.complex64)
complex128 = DType(18, "complex128", np.complex128)
uint16 = DType(17, "uint16", np.uint16)
uint32 = DType(22, "uint32", np.uint32)
uint64 = DType(23, "uint64", np.uint64)
bfloat16 = DType(14, "bfloat16", _ml_dtypes.bfloat16 if _ml_dtypes is not None else np.float32)
string = DType(7, "string", object)
resource = DType(20, "resource", object)  # variable handles
variant = DType(21, "variant", object)  # opaque values (TensorList: a TensorArray in graphs)

_ALL = [bfloat16, float16, float32, float64, int8, uint8, int16, uint16, int32, uint32, int64, uint64, bool, complex64,
        complex128, string, resource, variant]
_BY_ENUM = {d._type_enum: d for d in _ALL}
# The complex dtypes' enums: hot paths test a tensor's `_dtype_enum` against them (real operands skip conj).
COMPLEX_ENUMS = frozenset((complex64._type_enum, complex128._type_enum))
_BY_NAME = {d._name: d for d in _ALL}
_BY_NAME.update({"half": float16, "float": float32, "double": float64})

_core.set_dtype_objects(_BY_ENUM)


def as_dtype(type_value):
    """Converts a DType, its name or enum, a NumPy dtype or scalar type, `float`, `bool` or `object`,
    or an object with a `dtype`, to a DType (tf.as_dtype). TF looks names and types up by hash, so
    `int`, `str` and NumPy's dtype strings ("f4") are not DTypes, while `True` is enum 1."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, np.dtype):
        d = _BY_NP_TYPE.get(type_value.type)
        if d is not None:
            return d
    try:
        d = _ANY.get(type_value)
    except TypeError:  # unhashable
        d = None
    if d is not None:
        return d
    if hasattr(type_value, "dtype"):
        try:
            d = _BY_NP_TYPE.get(np.dtype(type_value.dtype).type)
        except (TypeError, ValueError):
            d = None
        if d is not None:
            return d
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a TensorFlow DType.")


_BY_NP_TYPE = {np.dtype(d._np).type: d for d in _ALL if d._np is not object and (d is not bfloat16 or _ml_dtypes)}
_BY_NP_TYPE.update({np.object_: string, np.bytes_: string, np.str_: string})
_ANY = {**_BY_ENUM, **_BY_NAME, **_BY_NP_TYPE,
        float: float32, type(True): bool, object: string}
