"""Value -> Tensor conversion (tf.constant, tf.convert_to_tensor) with TF's dtype inference.

The C++ core converts tensors, Python scalars and NumPy arrays itself; everything else
(nested lists, Variables, objects with __array__) comes here through the registered fallback.
"""
import array
import numbers

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.building import init_scope
from eagerflow.framework.tensor_shape import TensorShape

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def _is_tensor(x):
    return isinstance(x, _core.Tensor)


# Python buffers convert as the sequences of their items, as in TF (bytearray(b"ab") -> [97, 98]).
_BUFFERS = (bytearray, memoryview, array.array)


def _buffer_items(value):
    try:
        return list(value)
    except NotImplementedError as e:  # a multi-dimensional memoryview
        raise ValueError(f"Cannot infer dtype of a memoryview object: NotImplementedError: {e}") from None


def _listify(value):
    """Nested lists with Python buffers replaced by lists of their items."""
    if isinstance(value, _BUFFERS):
        return _buffer_items(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (list, tuple) + _BUFFERS) for v in value):
        return [_listify(v) for v in value]
    return value


_SEQUENCES = (list, tuple) + _BUFFERS


def _leaves(value):
    """The leaves of a nested list (the list itself when it is flat: the common case, no copy)."""
    if isinstance(value, list) and not any(issubclass(t, _SEQUENCES) for t in set(map(type, value))):
        return value
    out = []
    _flatten_leaves(value, out)
    return out


def _flatten_leaves(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten_leaves(v, out)
    elif isinstance(value, _BUFFERS):
        out.extend(_buffer_items(value))
    else:
        out.append(value)


def _leaf_kind(x):
    """TF's kind of a sequence leaf: NumPy scalars count as the Python numbers they hold."""
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (bytes, str, np.bytes_, np.str_)):
        return "str"
    if isinstance(x, (numbers.Integral, np.integer)):
        if not isinstance(x, np.integer) and not _INT64_MIN <= x <= _INT64_MAX:
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        return "int"
    if isinstance(x, (numbers.Real, np.floating)):
        return "float"
    if isinstance(x, (numbers.Complex, np.complexfloating)):
        return "complex"
    raise _unsupported(x)


_ARRAY_KIND = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex", "S": "str", "U": "str", "O": "str"}


_TYPE_KIND = {bool: "bool", int: "int", float: "float", complex: "complex", str: "str", bytes: "str"}


def _python_sequence_to_numpy(value, wide=False):
    """Nested Python lists/tuples -> ndarray with TF's inference: the first leaf decides (ints ->
    int32, int64 where a value needs it, float32 once a float appears; a Python float -> float32;
    a NumPy float keeps its dtype), and later leaves must be compatible with it. `wide`: the
    values at full precision (float64, int64, ...), for a caller that casts to a requested dtype."""
    leaves = _leaves(value)
    kinds, first = set(), None
    for t in set(map(type, leaves)):  # per type, not per leaf: long lists convert fast
        kind = _TYPE_KIND.get(t)
        if kind is not None:
            kinds.add(kind)  # ints beyond int64 show as an object array below
        else:  # ints (range), arrays (dtype), NumPy scalars and other types: per leaf
            for x in leaves:
                if type(x) is t:
                    kinds.add(_ARRAY_KIND.get(x.dtype.kind, "str") if isinstance(x, np.ndarray) else _leaf_kind(x))
    for x in leaves:
        if not isinstance(x, np.ndarray):
            first = x
            break
        if x.size:
            first = x.flat[0]
            break
    first_kind = "float" if first is None else _leaf_kind(first)
    mixed = (("bool" in kinds or "str" in kinds) and len(kinds) > 1
             or "complex" in kinds and first_kind != "complex")
    if mixed:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if "str" in kinds:
        for x in leaves:
            if isinstance(x, str) and not _utf8_encodable(x):
                raise ValueError("Error converting unicode string while converting Python sequence to Tensor.")
    value = _listify(value)
    try:
        arr = np.array(value, dtype=object if "str" in kinds else None)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if arr.dtype == object and "str" not in kinds:
        if "int" in kinds:
            for x in leaves:
                if type(x) is int and not _INT64_MIN <= x <= _INT64_MAX:
                    raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    if "str" in kinds:
        if arr.shape != _nested_shape(value):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
        return arr
    if "bool" in kinds:
        return arr.astype(np.bool_)
    if wide:
        return arr
    if first_kind == "complex":
        return arr.astype(np.complex128)  # NumPy complex64 leaves too, as TF
    if first_kind == "float":
        return arr.astype(first.dtype if isinstance(first, np.floating) else np.float32)
    if "float" in kinds:
        return arr.astype(np.float32)
    if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
        return arr.astype(np.int32)
    return arr.astype(np.int64)


def _utf8_encodable(text):
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:  # a lone surrogate
        return False


def _nested_shape(value):
    shape = []
    while isinstance(value, (list, tuple)):
        shape.append(len(value))
        if not value:
            break
        value = value[0]
    return tuple(shape)


def _to_numpy(value, wide=False):
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, _BUFFERS):
        value = _buffer_items(value)
    if isinstance(value, (list, tuple)):
        if len(value) == 0:
            return np.zeros((0,), np.float32)
        return _python_sequence_to_numpy(value, wide)
    if isinstance(value, complex):
        return np.asarray(value, np.complex128)
    if hasattr(value, "__array__") and not isinstance(value, type):
        return np.asarray(value)
    if isinstance(value, TensorShape):
        return _shape_to_numpy(value)
    raise _unsupported(value)


def _shape_to_numpy(shape):
    """A fully known TensorShape as its dims (int32 when they fit, as TF converts it)."""
    if not shape.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
    dims = shape.as_list()
    if any(d >= 2 ** 63 for d in dims):
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    return np.array(dims, np.int32 if all(d < 2 ** 31 for d in dims) else np.int64)


def _unsupported(value):
    """TF's error for a value of a type that has no tensor conversion (eager: ValueError; graph
    constants: TypeError, except for None)."""
    if _core.current_graph() is None:
        return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) "
                          f"to a Tensor.")
    if value is None:
        return ValueError("None values not supported.")
    return TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a supported "
                     f"type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


# TF's internal dtype names, used by its eager conversion messages.
_TYPE_STRING = {"float32": "float", "float64": "double", "float16": "half"}
# TF's eager converter takes Python bools as these dtypes only (graph constants take any number).
_BOOL_TARGETS = ("int32", "int64", "float16", "float32", "float64")
# TF's eager converter reads uint64 ints with PyLong_AsUnsignedLongLong and returns with its
# OverflowError still set, which Python reports as this SystemError.
_UINT64_OVERFLOW = "<class 'tensorflow.python.framework.ops.EagerTensor'> returned a result with an exception set"


def _cannot_convert(value, dtype, leaf=None):
    if _core.current_graph() is not None:  # graph constants (TF's make_tensor_proto) word it so
        leaf = value if leaf is None else leaf
        return TypeError(f"Expected {dtype.name}, but got {leaf} of type '{type(leaf).__name__}'.")
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {_TYPE_STRING.get(dtype.name, dtype.name)}")


def _python_leaf_fits(x, dtype):
    """Whether a Python leaf converts to `dtype` exactly (TF refuses floats for ints, numbers for bool)."""
    if isinstance(x, (np.generic, np.ndarray)):
        return True  # NumPy values cast, as in TF
    if isinstance(x, bool):
        return dtype.is_bool or dtype.is_numeric and (dtype.name in _BOOL_TARGETS or _core.current_graph() is not None)
    if isinstance(x, numbers.Integral):
        return dtype.is_numeric  # wrapped into integer dtypes (int8: 300 -> 44), as TF's converter does
    if isinstance(x, numbers.Real):
        return dtype.is_floating or dtype.is_complex
    if isinstance(x, numbers.Complex):
        return dtype.is_complex
    return dtype is dtypes.string and isinstance(x, (bytes, str))


def _check_uint64_ints(value):
    """TF's SystemError (chained to the OverflowError) for the first int outside [0, 2**64)."""
    for x in _leaves(value):
        if 0 <= x < 2 ** 64:
            continue
        try:
            raise OverflowError("can't convert negative int to unsigned" if x < 0 else "int too big to convert")
        except OverflowError as e:
            raise SystemError(_UINT64_OVERFLOW) from e


def _cast_array(arr, dtype, value):
    """`arr` (converted from `value`) as `dtype`, for an explicit dtype= request: NumPy values cast
    as NumPy does (TF too); Python values must fit exactly."""
    numpy_value = isinstance(value, (np.ndarray, np.generic)) or hasattr(value, "__array__") and not isinstance(
        value, (list, tuple))
    if dtype is dtypes.string:
        if arr.size == 0 or arr.dtype.kind in "OSU":
            return arr.astype(object)
        if numpy_value:
            raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                             f"{type(arr.flat[0].item()).__name__}).")
        raise _cannot_convert(value, dtype, _first_misfit(value, dtype))
    target = np.dtype(dtype.as_numpy_dtype)
    if numpy_value:
        if arr.dtype.kind in "OSU" and target.kind == "b":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        with np.errstate(all="ignore"):
            return arr.astype(target)  # strings that do not parse raise NumPy's ValueError, as in TF
    if arr.dtype.kind in "OSU" or arr.size and (_first_misfit(value, dtype) is not _NO_MISFIT):
        raise _cannot_convert(value, dtype, _first_misfit(value, dtype))
    if arr.dtype == np.uint64 and dtype.is_integer:  # ints beyond int64 convert to uint64 only
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    with np.errstate(all="ignore"):
        return arr.astype(target)


_NO_MISFIT = object()


def _first_misfit(value, dtype):
    fits = {}  # by type, except ints (their range)
    for x in _leaves(value):
        t = type(x)
        ok = fits.get(t)
        if ok is None:
            ok = _python_leaf_fits(x, dtype)
            if t is not int:
                fits[t] = ok
        if not ok:
            return x
    return _NO_MISFIT


def _is_tensor_like(x):
    return isinstance(x, _core.Tensor) or hasattr(x, "_as_tensor")


_PLAIN_TYPES = {int, float, bool, complex, str, bytes, type(None), np.ndarray}


def _holds_tensor(value):
    """Whether a (nested) list or tuple holds a tensor or variable: TF converts those by packing.
    Looks at each element type once (long lists of numbers are the common case)."""
    for t in set(map(type, value)):
        if t in _PLAIN_TYPES or issubclass(t, np.generic):
            continue
        if issubclass(t, (list, tuple)):
            if any(_holds_tensor(v) for v in value if type(v) is t):
                return True
        elif issubclass(t, _core.Tensor) or hasattr(t, "_as_tensor"):
            return True
    return False


def _first_tensor_dtype(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            d = _first_tensor_dtype(v)
            if d is not None:
                return d
        return None
    return value.dtype if _is_tensor_like(value) else None


def _first_tensor(value):
    for v in value:
        t = _first_tensor(v) if isinstance(v, (list, tuple)) else v if _is_tensor_like(v) else None
        if t is not None:
            return t
    return None


def _cast_tensors(value, dtype):
    """Tensors in a nested list cast to a requested dtype (TF's _cast_nested_seqs_to_dtype)."""
    if isinstance(value, (list, tuple)):
        return [_cast_tensors(v, dtype) for v in value]
    if _is_tensor_like(value):
        t = value if isinstance(value, _core.Tensor) else value._as_tensor()
        return t if t.dtype == dtype else _core.cast(t, dtype._type_enum)
    return value


def _autopack(value, dtype=None):
    """A list holding tensors becomes a Pack of its elements (TF's auto-packing): the first tensor's
    dtype (or the requested one, to which tensors are cast) is the dtype of every element."""
    inferred = _first_tensor_dtype(value)
    if dtype is None:
        dtype = inferred
    elif dtype != inferred:
        value = _cast_tensors(value, dtype)
    return _pack(value, dtype)


def _pack(value, dtype):
    pack = _core.get_op("Pack")
    if _core.current_graph() is None and all(isinstance(v, _core.Tensor) for v in value):
        return _core.execute1(pack, list(value), {"axis": 0})  # TF's eager fast path: Pack checks
    elems = []
    for v in value:
        if _is_tensor_like(v):
            t = v if isinstance(v, _core.Tensor) else v._as_tensor()
            if t.dtype != dtype:
                raise TypeError(f"Cannot convert a list containing a tensor of dtype {t.dtype} to {dtype} "
                                f"(Tensor is: {t!r})")
            elems.append(t)
        elif isinstance(v, (list, tuple)) and _holds_tensor(v):
            elems.append(_pack(v, dtype))
        else:
            elems.append(_convert_exact(v, dtype))
    return _core.execute1(pack, elems, {"axis": 0})


def _convert_default(value):
    """`value` with TF's own dtype inference (no dtype requested)."""
    if isinstance(value, (list, tuple)) and _holds_tensor(value):
        return _autopack(value)
    return _core.from_numpy(_to_numpy(value))


def _fallback(value, dtype_enum, exact):
    """Called by the C++ converter for values it does not handle itself (lists, NumPy scalars,
    arrays to cast, objects with __array__, variables); `dtype_enum` is exact or a hint."""
    _refuse_composite(value)
    if hasattr(value, "_as_tensor"):
        return value._as_tensor()  # a variable keeps its dtype: the op reports a mismatch
    if dtype_enum is None:
        return _convert_default(value)
    dtype = dtypes.as_dtype(dtype_enum)
    if exact:
        return _convert_exact(value, dtype)
    try:  # a hint: TF tries the dtype, then the value's own
        return _convert_exact(value, dtype)
    except (TypeError, ValueError):
        return _convert_default(value)


_core.set_convert_fallback(_fallback)


def convert_to_tensor_v2(value, dtype=None, dtype_hint=None, name=None, preferred_dtype=None):
    """tf.convert_to_tensor: in a graph the value's Const is named "Const" at once, as TF names a
    value converted outside an op (op wrappers' own conversions are named after the input that
    reads them: `Reshape/shape`)."""
    t = convert_to_tensor(value, dtype, dtype_hint, name, preferred_dtype)
    if _core.current_graph() is not None:
        _core.settle_constants()
    return t


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None, preferred_dtype=None):
    """Returns `value` as a Tensor (a tensor itself is returned as is); TF's dtype rules."""
    if dtype_hint is None:
        dtype_hint = preferred_dtype
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        t = _convert_exact(value, dtype)
        return t
    if dtype_hint is not None:
        hint = dtypes.as_dtype(dtype_hint)
        try:
            return _core.convert_to_tensor(value, hint._type_enum)
        except (TypeError, ValueError):
            pass
    return _core.convert_to_tensor(value)


_PYTHON_SCALARS = (bool, int, float, complex, bytes, str)


def _refuse_composite(value):
    """TF's error for a RaggedTensor given as a tensor, raised before any message prints the value
    (the ragged dispatch catches it on every call)."""
    text = getattr(type(value), "_conversion_error", None)
    if text is not None:
        raise ValueError(text)


def _convert_exact(value, dtype):
    _refuse_composite(value)
    if isinstance(value, TensorShape):
        if dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Cannot convert TensorShape {value} to dtype {dtype}. Allowed dtypes are tf.int32 and "
                            "tf.int64.")
        value = _shape_to_numpy(value).astype(dtype.as_numpy_dtype)
    if _is_tensor(value):
        if value.dtype != dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{value.dtype.name}: {value!r}")
        return value
    if hasattr(value, "_as_tensor"):
        t = value._as_tensor()
        if t.dtype != dtype:
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
                             f"{t.dtype.name}: {t!r}")
        return t
    if type(value) in _PYTHON_SCALARS:
        return _core.convert_to_tensor(value, dtype._type_enum, True)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc" and (dtype.is_numeric or
                                                                                         dtype.is_bool):
        with np.errstate(all="ignore"):  # NumPy numbers cast, as in TF
            return _from_numpy_as(np.asarray(value).astype(dtype.as_numpy_dtype, copy=False), dtype)
    if isinstance(value, (list, tuple)) and _holds_tensor(value):
        return _autopack(value, dtype)
    if dtype is dtypes.uint64 and isinstance(value, (list, tuple)) and all(type(x) is int for x in _leaves(value)):
        if _core.current_graph() is None:
            _check_uint64_ints(value)
        try:  # ints up to 2**64 - 1, beyond int64 (NumPy would make them float64)
            return _core.from_numpy(np.array(value, dtype=np.uint64))
        except (OverflowError, ValueError):
            pass  # ragged lists raise TF's error below
    if isinstance(value, _PYTHON_SCALARS) and not isinstance(value, np.generic):
        arr = np.asarray(value, dtype=object if isinstance(value, (bytes, str)) else None)
    else:
        try:
            arr = _to_numpy(value, wide=True)  # cast once, from the values' full precision
        except TypeError as e:  # graph constants name the requested dtype
            if not str(e).startswith("Failed to convert elements"):
                raise
            raise _cannot_convert(value, dtype, _first_misfit(value, dtype)) from None
    return _from_numpy_as(_cast_array(arr, dtype, value), dtype)


def _from_numpy_as(arr, dtype):
    """The tensor of `arr`, an array of `dtype`'s NumPy type: for bfloat16 without ml_dtypes that
    type is float32, and the tensor is cast."""
    t = _core.from_numpy(arr)
    return t if t.dtype == dtype else _core.cast(t, dtype._type_enum)


def constant(value, dtype=None, shape=None, name=None):
    """tf.constant: a tensor from a Python value, NumPy array or tensor (a Const node, named
    `name`, while a graph is being built)."""
    graph = _core.current_graph()
    if isinstance(value, (list, tuple)) and _holds_tensor(value):
        # TF builds constants from Python values only (convert_to_tensor packs such lists).
        if graph is not None:
            raise TypeError("Expected any non-tensor type, but got a tensor instead.")
        first = _first_tensor(value)
        raise ValueError("TypeError: Scalar tensor has no `len()`" if isinstance(first, _core.Tensor) else
                         f"TypeError: object of type '{type(first).__name__}' has no len()")
    if graph is None:
        return _constant(value, dtype, shape)
    if _is_tensor(value) and value._is_symbolic:
        if dtype is None or value.dtype == dtypes.as_dtype(dtype):
            return value
        return _core.execute1(_core.get_op("Cast"), [value], {"DstT": dtypes.as_dtype(dtype)}, "Cast")
    if type(value) is int and dtype is not None and dtypes.as_dtype(dtype).is_integer:
        # TF's make_tensor_proto wraps ints of [-2**63, 2**64) into every integer dtype.
        if not _INT64_MIN <= value < 2 ** 64:
            raise OverflowError("Python int too large to convert to C long")
        value = np.uint64(value % 2 ** 64)
    with init_scope():  # compute the value eagerly, then add it as one named Const
        t = _constant(value, dtype, shape)
    return _core.graph_constant(t, name or "Const")


def _constant(value, dtype, shape):
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
        if _is_tensor(value) or hasattr(value, "_as_tensor"):
            t = value if _is_tensor(value) else value._as_tensor()
            t = _core.cast(t, dtype._type_enum) if t.dtype != dtype else t
        else:
            t = _convert_exact(value, dtype)
    else:
        t = value._as_tensor() if hasattr(value, "_as_tensor") else _core.convert_to_tensor(value)
    if shape is not None:
        t = _reshape_to(t, shape, value)
    return t


def _reshape_to(t, shape, value):
    shape = _constant_shape(shape)
    n = t._num_elements()
    want = 1
    for d in shape:
        want *= d
    dims = _core.from_numpy(np.array(shape, np.int64))
    if n == want:
        return _core.execute1(_core.get_op("Reshape"), [t, dims], None)
    if n == 1:  # the Fill op: an impossible size is its ResourceExhaustedError, not a NumPy error
        scalar = _core.execute1(_core.get_op("Reshape"), [t, _core.from_numpy(np.zeros([0], np.int64))], None)
        return _core.execute1(_core.get_op("Fill"), [dims, scalar], None)
    raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {t.numpy()} (converted from "
                    f"{value!r}) has {n} elements, but got `shape` {tuple(shape)} with {want} elements).")


def _constant_shape(shape):
    """tf.constant's `shape` as a list of ints, with TF's errors for None, negative and huge dims."""
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    try:
        dims = list(shape)
    except TypeError:
        dims = [shape]
    out = []
    for d in dims:
        if d is None:
            raise _unsupported(d)
        if not hasattr(d, "__index__"):
            TensorShape([d])  # TF's TypeError for a non-integer dimension
        v = d.__index__()
        if v < 0:
            raise ValueError(f"Dimension {v} must be >= 0")
        if v > _INT64_MAX:
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        out.append(v)
    return out
