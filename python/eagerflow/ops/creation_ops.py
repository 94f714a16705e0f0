"""Tensor creation: tf.fill, zeros, ones, zeros_like, ones_like, range, linspace, eye, one_hot."""
import builtins

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.array_ops import _cast, _shape_tensor, broadcast_to, concat, expand_dims, reshape, shape
from eagerflow.ops.slice_ops import slice as tf_slice

Tensor = _core.Tensor
# tf.range picks the widest of its arguments' dtypes in this order.
_RANGE_HIERARCHY = [dtypes.int32, dtypes.int64, dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64]


def _exact(value, dtype):
    """convert_to_tensor(value, dtype=dtype): TypeError/ValueError when the value does not fit."""
    from eagerflow.framework.convert import convert_to_tensor as exact_convert
    return exact_convert(value, dtype=dtype)


def _scalar(value, dtype):
    """A Python number as a `dtype` scalar: TF's exact conversion (TypeError where it does not fit)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        return _core.from_numpy(np.array(value, dtype=object))
    if dtype == dtypes.bool:
        value = builtins.bool(value)
    return _core.convert_to_tensor(value, dtype._type_enum, True)


def fill(dims, value, name=None, layout=None):
    """tf.fill: a tensor of shape `dims` with every element `value`."""
    return execute1("Fill", [_shape_tensor(dims), convert_to_tensor(value)], None, name)


def _constant_if_small(value, shape, dtype, name):
    """In a graph, TF's zeros/ones of a static shape with fewer than 1000 elements: one Const named
    after the call ("zeros", "ones"); None elsewhere (a Fill then)."""
    if _core.current_graph() is None or not isinstance(shape, (list, tuple)) or dtype in _NO_NUMPY_CONST:
        return None
    try:
        dims = [int(d) for d in shape]
    except (TypeError, ValueError):
        return None
    if any(d < 0 for d in dims) or np.prod(dims, dtype=np.int64) >= 1000:
        return None
    return _core.graph_constant(_core.from_numpy(np.full(dims, value, dtype.as_numpy_dtype)), name)


_NO_NUMPY_CONST = (dtypes.string, dtypes.bfloat16, dtypes.resource, dtypes.variant)


def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    """tf.zeros: all zeros ('' for strings, False for bools)."""
    dtype = dtypes.as_dtype(dtype)
    small = _constant_if_small(0, shape, dtype, name or "zeros")
    if small is not None:
        return small
    zero = _scalar(b"" if dtype == dtypes.string else 0, dtype)
    return execute1("Fill", [_shape_tensor(shape), zero], None, name or "zeros")


def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    """tf.ones: all ones."""
    dtype = dtypes.as_dtype(dtype)
    if dtype == dtypes.string:
        raise TypeError("Cannot convert 1 to EagerTensor of dtype string")
    small = _constant_if_small(1, shape, dtype, name or "ones")
    if small is not None:
        return small
    return execute1("Fill", [_shape_tensor(shape), _scalar(1, dtype)], None, name or "ones")


def zeros_like(input, dtype=None, name=None, layout=None):
    """tf.zeros_like: zeros with the shape (and dtype, unless given) of `input`."""
    input = convert_to_tensor(input)
    if dtype is None or dtypes.as_dtype(dtype) == input.dtype:
        return execute1("ZerosLike", [input])
    return zeros(shape(input), dtype)


def ones_like(input, dtype=None, name=None, layout=None):
    """tf.ones_like: ones with the shape (and dtype, unless given) of `input`."""
    input = convert_to_tensor(input)
    if dtype is None or dtypes.as_dtype(dtype) == input.dtype:
        return execute1("OnesLike", [input])
    return ones(shape(input), dtype)


def range(start, limit=None, delta=1, dtype=None, name="range"):
    """tf.range: like Python's range; ints give int32, any float gives float32 (or `dtype`)."""
    if limit is None:
        start, limit = 0, start
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    args = []
    for v in (start, limit, delta):
        if isinstance(v, Tensor):
            args.append(v)
        elif dtype is not None:
            args.append(_exact(v, dtype))
        else:
            args.append(convert_to_tensor(v))
    if dtype is None:
        for a in args:
            if a.dtype not in _RANGE_HIERARCHY:
                raise AssertionError()  # TF's bare assert over its dtype hierarchy
        dtype = max((a.dtype for a in args), key=_RANGE_HIERARCHY.index)
    return execute1("Range", [_cast(a, dtype) for a in args], None, name or "range")


def linspace(start, stop, num, name=None, axis=0):
    """tf.linspace: `num` evenly spaced values from start to stop inclusive (N-d start/stop too)."""
    start = convert_to_tensor(start)
    stop = stop if isinstance(stop, Tensor) else _exact(stop, start.dtype)
    if start.dtype.is_integer:
        # TF divides (stop - start) by the step count with truediv: float32 for 8/16-bit ints.
        wide = start.dtype in (dtypes.int32, dtypes.int64)
        start, stop = (_cast(t, dtypes.float64 if wide else dtypes.float32) for t in (start, stop))
    n = int(num)
    num_t = convert_to_tensor(n)  # int32, int64 where it does not fit, ValueError beyond int64
    if n < 0:  # TF builds linspace from range(1, num): same error
        one = convert_to_tensor(1, num_t._dtype_enum)
        execute1("Range", [one, num_t, one])
    if start.ndim == 0 and stop.ndim == 0:
        if n == 0:
            return zeros([0], start.dtype)
        return execute1("LinSpace", [start, stop, num_t])
    # N-d: start + i * (stop - start) / (num - 1) along a new axis, the last entry exactly stop.
    start_e, stop_e = expand_dims(start, axis), expand_dims(stop, axis)
    start_e, stop_e = broadcast_to(start_e, shape(start_e + stop_e)), broadcast_to(stop_e, shape(start_e + stop_e))
    delta = (stop_e - start_e) / _scalar(builtins.max(n - 1, 1), start.dtype)
    out_rank = start_e.ndim
    ax = axis + out_rank if axis < 0 else axis
    iota = _cast(range(n), start.dtype)
    iota = reshape(iota, [n if d == ax else 1 for d in builtins.range(out_rank)])
    res = start_e + iota * delta
    if n > 1:
        size = list(res._shape_tuple)
        size[ax] = n - 1
        res = concat([tf_slice(res, [0] * out_rank, size), stop_e], ax)
    return res


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """tf.eye: identity matrix (or batch of them); composed from one_hot like a diagonal."""
    dtype = dtypes.as_dtype(dtype)
    if num_columns is None:
        num_columns = num_rows
    if isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor):
        # TF takes min(num_rows, num_columns) first: that op's error for a dtype it refuses.
        rows_t = num_rows if isinstance(num_rows, Tensor) else _exact(num_rows, num_columns.dtype)
        cols_t = num_columns if isinstance(num_columns, Tensor) else _exact(num_columns, rows_t.dtype)
        execute1("Minimum", [rows_t, cols_t])
        if rows_t.dtype.is_integer and rows_t.dtype not in (dtypes.int32, dtypes.int64):
            num_rows = _cast(rows_t, dtypes.int32)  # Range takes int32/int64; TF's eye takes any int
        if cols_t.dtype.is_integer and cols_t.dtype != dtypes.int32:
            num_columns = _cast(cols_t, dtypes.int32)
    elif not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in (num_rows, num_columns)):
        raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                        f"num_rows={num_rows}, num_columns={num_columns}")
    rows = range(int(num_rows) if isinstance(num_rows, np.integer) else num_rows)  # NumPy ints: TF's values
    m = execute1("OneHot", [rows, _scalar(num_columns, dtypes.int32), _scalar(1, dtype), _scalar(0, dtype)],
                 {"axis": -1})
    if batch_shape is not None:
        m = broadcast_to(m, list(batch_shape) + [int(num_rows), int(num_columns)])
    return m


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """tf.one_hot: on_value at each index along a new axis (default last), off_value elsewhere."""
    indices = convert_to_tensor(indices)
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    on_exists, off_exists = on_value is not None, off_value is not None
    if on_exists:
        on_value = _exact(on_value, dtype) if dtype is not None else convert_to_tensor(on_value)
    if off_exists:
        off_value = _exact(off_value, dtype) if dtype is not None else convert_to_tensor(off_value)
    on_dtype = on_value.dtype if on_exists else None
    off_dtype = off_value.dtype if off_exists else None
    if on_exists or off_exists:
        if dtype is None:
            dtype = on_dtype if on_exists else off_dtype
    elif dtype is None:
        dtype = dtypes.float32
    if not on_exists:
        if dtype == dtypes.bool or dtype == dtypes.string:
            raise TypeError(f"Cannot convert 1 to EagerTensor of dtype {dtype.name}")
        on_value = _scalar(1, dtype)
    if not off_exists:
        if dtype == dtypes.bool or dtype == dtypes.string:
            raise TypeError(f"Cannot convert 0 to EagerTensor of dtype {dtype.name}")
        off_value = _scalar(0, dtype)
    if on_dtype is not None and off_dtype is not None and on_dtype != off_dtype:
        raise TypeError(f"dtype {on_dtype} of on_value does not match dtype {off_dtype} of off_value")
    depth = depth if isinstance(depth, Tensor) else _exact(depth, dtypes.int32)
    if depth.dtype != dtypes.int32:
        raise ValueError(f"Tensor conversion requested dtype int32 for Tensor with dtype {depth.dtype.name}: {depth!r}")
    return execute1("OneHot", [indices, depth, on_value, off_value], {"axis": -1 if axis is None else int(axis)},
                    name or "one_hot")
