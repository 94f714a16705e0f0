"""Value -> Tensor conversion (tf.constant, tf.convert_to_tensor) with TF's dtype inference.

The C++ core converts tensors, Python scalars and NumPy arrays itself; everything else
(nested lists, Variables, objects with __array__) comes here through the registered fallback.
"""
import numbers

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes

_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1


def _is_tensor(x):
    return isinstance(x, _core.Tensor)


def _flatten_leaves(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flatten_leaves(v, out)
    else:
        out.append(value)


def _python_sequence_to_numpy(value):
    """Nested Python lists/tuples -> ndarray with TF's inference (int -> int32, float -> float32)."""
    leaves = []
    _flatten_leaves(value, leaves)
    if any(_is_tensor(x) or hasattr(x, "_as_tensor") for x in leaves):
        # Lists holding tensors: TF packs them (tf.stack); go through NumPy values.
        value = _map_nested(value, lambda x: x.numpy() if hasattr(x, "numpy") else x)
        leaves = []
        _flatten_leaves(value, leaves)
    kinds = set()
    for x in leaves:
        if isinstance(x, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(x, (bytes, str)):
            kinds.add("str")
        elif isinstance(x, np.generic) or isinstance(x, np.ndarray):
            kinds.add("np")
        elif isinstance(x, numbers.Integral):
            kinds.add("int")
        elif isinstance(x, numbers.Real):
            kinds.add("float")
        elif isinstance(x, numbers.Complex):
            kinds.add("complex")
        else:
            raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                             f"({type(x)}) to a Tensor.")
    if "bool" in kinds and len(kinds) > 1 or "str" in kinds and len(kinds) > 1:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    try:
        arr = np.array(value, dtype=object if "str" in kinds else None)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if arr.dtype == object and "str" not in kinds:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    if "str" in kinds:
        if arr.shape != _nested_shape(value):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
        return arr
    if "np" in kinds:
        return arr
    if arr.dtype.kind in "iu":
        if arr.size == 0 or (arr.min() >= _INT32_MIN and arr.max() <= _INT32_MAX):
            return arr.astype(np.int32)
        return arr.astype(np.int64)
    if arr.dtype.kind == "f":
        return arr.astype(np.float32)
    if arr.dtype.kind == "c":
        return arr.astype(np.complex64)
    return arr


def _nested_shape(value):
    shape = []
    while isinstance(value, (list, tuple)):
        shape.append(len(value))
        if not value:
            break
        value = value[0]
    return tuple(shape)


def _map_nested(value, fn):
    if isinstance(value, (list, tuple)):
        return [_map_nested(v, fn) for v in value]
    return fn(value)


def _to_numpy(value):
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    if isinstance(value, (list, tuple)):
        if len(value) == 0:
            return np.zeros((0,), np.float32)
        return _python_sequence_to_numpy(value)
    if isinstance(value, complex):
        return np.asarray(value, np.complex64)
    if hasattr(value, "__array__") and not isinstance(value, type):
        return np.asarray(value)
    raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({type(value)}) to a Tensor.")


def _cast_array(arr, dtype, value):
    """Casts `arr` to `dtype` for an explicit dtype= request, refusing lossy Python values."""
    target = np.dtype(dtype.as_numpy_dtype) if dtype is not dtypes.string else None
    if dtype is dtypes.string:
        if arr.size == 0:
            return arr.astype(object)
        if arr.dtype.kind not in "OSU":
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype string")
        return arr
    if arr.dtype.kind in "OSU":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if not isinstance(value, (np.ndarray, np.generic)) and arr.dtype != target:
        # Python values must convert exactly (TF: tf.constant(1.5, dtype=tf.int32) is an error).
        with np.errstate(all="ignore"):
            converted = arr.astype(target)
            back = converted.astype(arr.dtype)
        # TF refuses Python floats for integer dtypes and numbers for bool, even when exact.
        lossy = arr.size > 0 and (arr.dtype.kind == "c" and target.kind != "c"
                 or target.kind in "iu" and (arr.dtype.kind in "fc" or not np.array_equal(back, arr))
                 or target.kind == "b" and arr.dtype.kind != "b")
        if lossy:
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
        return converted
    with np.errstate(all="ignore"):
        return arr.astype(target)


def _packable(value):
    """A non-empty list holding graph tensors, while a graph is built (eager conversions skip the scan)."""
    return (isinstance(value, (list, tuple)) and value and _core.current_graph() is not None
            and _holds_symbolic(value))


def _holds_symbolic(value):
    if isinstance(value, (list, tuple)):
        return any(_holds_symbolic(v) for v in value)
    return isinstance(value, _core.Tensor) and value._is_symbolic


def _first_tensor_dtype(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            d = _first_tensor_dtype(v)
            if d is not None:
                return d
        return None
    return value.dtype if isinstance(value, _core.Tensor) else None


def _autopack(value, dtype):
    """A list holding graph tensors (`[x, 1]` inside tf.function) becomes a Pack of its elements,
    as TF's auto-packing does; Python numbers take the first tensor's dtype."""
    dtype = dtype or _first_tensor_dtype(value)
    elems = [_autopack(v, dtype) if isinstance(v, (list, tuple)) else
             (v if isinstance(v, _core.Tensor) else convert_to_tensor(v, dtype=dtype)) for v in value]
    for e in elems:
        if e.dtype != dtype:
            raise TypeError(f"Tensors in list passed to 'values' of 'Pack' Op have types "
                            f"[{', '.join(x.dtype.name for x in elems)}] that don't all match.")
    return _core.execute1(_core.get_op("Pack"), elems, {"axis": 0})


def _fallback(value, dtype_hint_enum):
    """Called by the C++ converter for values it does not handle itself."""
    if hasattr(value, "_as_tensor"):
        return value._as_tensor()
    if _packable(value):
        return _autopack(value, dtypes.as_dtype(dtype_hint_enum) if dtype_hint_enum is not None and
                         _first_tensor_dtype(value) is None else None)
    arr = _to_numpy(value)
    if dtype_hint_enum is not None:
        hint = dtypes.as_dtype(dtype_hint_enum)
        if isinstance(value, (np.ndarray, np.generic)) and hint.is_numeric and arr.dtype.kind in "biufc":
            with np.errstate(all="ignore"):
                arr = arr.astype(hint.as_numpy_dtype)
        elif isinstance(value, (list, tuple)) and hint.is_numeric and arr.dtype.kind in "iub":
            try:
                arr = _cast_array(arr, hint, value)
            except TypeError:
                pass
    return _core.from_numpy(arr)


_core.set_convert_fallback(_fallback)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None, preferred_dtype=None):
    """tf.convert_to_tensor: returns `value` as a Tensor (a tensor itself is returned as is)."""
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


def _convert_exact(value, dtype):
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
    if _packable(value):
        return _autopack(value, dtype)
    if isinstance(value, (bool, int, float, complex, bytes, str)) and not isinstance(value, np.generic):
        arr = np.asarray(value, dtype=object if isinstance(value, (bytes, str)) else None)
    else:
        arr = _to_numpy(value)
    return _core.from_numpy(_cast_array(arr, dtype, value))


def constant(value, dtype=None, shape=None, name=None):
    """tf.constant: a tensor from a Python value, NumPy array or tensor (a Const node, named
    `name`, while a graph is being built)."""
    graph = _core.current_graph()
    if graph is None:
        return _constant(value, dtype, shape)
    if _is_tensor(value) and value._is_symbolic:
        if dtype is None or value.dtype == dtypes.as_dtype(dtype):
            return value
        return _core.execute1(_core.get_op("Cast"), [value], {"DstT": dtypes.as_dtype(dtype)}, "Cast")
    prev = _core.set_graph(None)  # compute the value eagerly, then add it as one named Const
    try:
        t = _constant(value, dtype, shape)
    finally:
        _core.set_graph(prev)
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
    if True:
        from eagerflow.framework.tensor_shape import TensorShape
        shape = TensorShape(shape).as_list()
        n = t._num_elements()
        want = 1
        for d in shape:
            want *= d
        if n == want:
            return _reshape(t, shape)
        if n == 1:
            return _fill(shape, t)
        raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {t.numpy()} (converted from "
                        f"{value!r}) has {n} elements, but got `shape` {tuple(shape)} with {want} elements).")
    return t


def _reshape(t, shape):
    arr = np.asarray(t._numpy()).reshape(shape)
    return _core.from_numpy(arr)


def _fill(shape, t):
    arr = np.broadcast_to(np.asarray(t._numpy()).reshape(()), shape)
    return _core.from_numpy(np.ascontiguousarray(arr))
