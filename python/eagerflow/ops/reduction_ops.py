"""Reductions (tf.reduce_*), arg-reductions and cumulative sums/products over C++ ops."""
import numbers

import numpy as np

from eagerflow import _core
from eagerflow.framework import convert, dtypes, errors
from eagerflow.framework import dispatch as _dispatch
from eagerflow.ops import _execute

_INT32 = dtypes.int32.as_datatype_enum
_ALL_AXES = {}  # rank -> int32 tensor [0, ..., rank-1] (tensors are immutable, so shared)


def _all_axes(rank):
    t = _ALL_AXES.get(rank)
    if t is None:  # an eager tensor (from_numpy never makes graph nodes), shared by every call
        t = _ALL_AXES[rank] = _core.from_numpy(np.arange(rank, dtype=np.int32))
    return t if _core.current_graph() is None else _core.graph_constant(t, "Const")


def _axes(x, axis):
    """The reduction_indices tensor: every dim for axis=None, else axis as int32 (or its own int dtype)."""
    if axis is None:
        return _all_axes(x.ndim)
    if isinstance(axis, (int, _core.Tensor)):
        return _execute.index_tensor(axis)
    if type(axis) in (list, tuple):
        t = _core.int_list_to_tensor(axis, _INT32)  # flat Python ints convert in C++; else the rules below
        if t is not None:
            return t
        if not _execute.list_beyond_int32(axis):
            return _execute.convert_to_tensor(axis, _INT32, True)
    # Lists, tuples, NumPy values: exactly, so a float axis is a TypeError as in TF; then as a
    # constant of the graph being built (inference sees its value).
    t = convert.convert_to_tensor(axis) if _execute.list_beyond_int32(axis) else convert.convert_to_tensor(
        axis, dtype=dtypes.int32)
    if t._is_symbolic or _core.current_graph() is None:
        return t
    return _execute.convert_to_tensor(t.numpy(), _INT32)


def _reduce(op, input_tensor, axis, keepdims, dtype=None, name=None):
    if dtype is not None and not isinstance(input_tensor, _core.Tensor):
        x = convert.convert_to_tensor(input_tensor, dtype=dtype)  # the op takes only `dtype`
    else:
        x = _execute.convert_to_tensor(input_tensor)
    return _execute.execute1(op, [x, _axes(x, axis)], {"keep_dims": bool(keepdims)}, name)


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum of elements across dimensions (all of them when axis is None)."""
    return _reduce("Sum", input_tensor, axis, keepdims, name=name)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean across dimensions; integer means truncate like TF's."""
    return _reduce("Mean", input_tensor, axis, keepdims, name=name)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product of elements across dimensions."""
    return _reduce("Prod", input_tensor, axis, keepdims, name=name)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Maximum across dimensions (NaN propagates; empty gives the dtype's lowest value / -inf)."""
    return _reduce("Max", input_tensor, axis, keepdims, name=name)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Minimum across dimensions (NaN propagates; empty gives the dtype's highest value / inf)."""
    return _reduce("Min", input_tensor, axis, keepdims, name=name)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical or across dimensions of a bool tensor."""
    return _reduce("Any", input_tensor, axis, keepdims, dtypes.bool, name=name)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical and across dimensions of a bool tensor."""
    return _reduce("All", input_tensor, axis, keepdims, dtypes.bool, name=name)


def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):  # noqa: A002 - TF's name
    """The number of nonzero (true, non-empty) elements across dimensions, as `dtype` (tf.math.count_nonzero)."""
    ex = _execute.execute1
    x = _execute.convert_to_tensor(input)
    zero = _execute.convert_to_tensor({dtypes.string: "", dtypes.bool: False}.get(x.dtype, 0), x._dtype_enum)
    counts = ex("Cast", [ex("NotEqual", [x, zero])], {"DstT": dtypes.int64})
    total = ex("Sum", [counts, _axes(counts, axis)], {"keep_dims": bool(keepdims)}, name)
    dtype = dtypes.as_dtype(dtype)
    return total if dtype == dtypes.int64 else ex("Cast", [total], {"DstT": dtype})


def _require_floating(x, op_name):
    if not x.dtype.is_floating:
        type_name = {"float32": "float", "float64": "double", "float16": "half"}.get(x.dtype.name, x.dtype.name)
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {type_name} is not in the list of allowed values: half, float, "
            f"double\n\t; NodeDef: {{{{node {op_name}}}}} [Op:{op_name}]")


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) across dimensions, computed stably by shifting with the max."""
    x = _execute.convert_to_tensor(input_tensor)
    _require_floating(x, "IsFinite")
    ex = _execute.execute1
    ax = _axes(x, axis)
    m = ex("Max", [x, ax], {"keep_dims": True})
    # TF shifts by the max but uses 0 where the max is +-inf. Clamping the max into the finite
    # range gives the same results with existing ops: finite maxima are unchanged, an
    # infinite max still yields +-inf below, and NaN propagates through Minimum/Maximum.
    lo = _execute.convert_to_tensor(x.dtype.min, x._dtype_enum)
    hi = _execute.convert_to_tensor(x.dtype.max, x._dtype_enum)
    m = ex("Minimum", [ex("Maximum", [m, lo]), hi])
    s = ex("Sum", [ex("Exp", [ex("Sub", [x, m])]), ax], {"keep_dims": bool(keepdims)})
    if not keepdims:
        m = ex("Max", [m, ax], {"keep_dims": False})  # drops the size-1 reduced dims
    return ex("AddV2", [ex("Log", [s]), m])


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """Population variance across dimensions (floating or complex tensors; complex gives a real one)."""
    x = _execute.convert_to_tensor(input_tensor)
    ax = _axes(x, axis)
    mean = _execute.execute1("Mean", [x, ax], {"keep_dims": True})
    if x.dtype.is_integer:
        raise TypeError(f"Input must be either real or complex. Received integer type {x.dtype!r}.")
    if x.dtype.is_complex:  # |x - mean|^2, real
        sq = _execute.execute1("Square", [_execute.execute1("ComplexAbs", [_execute.execute1("Sub", [x, mean])])])
    else:
        sq = _execute.execute1("SquaredDifference", [x, mean])
    return _execute.execute1("Mean", [sq, ax], {"keep_dims": bool(keepdims)})


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """Population standard deviation across dimensions (real floating tensors)."""
    return _execute.execute1("Sqrt", [reduce_variance(input_tensor, axis, keepdims)])


def _arg(op, input, axis, output_type):
    if axis is None:
        axis = 0
    if type(axis) is not int and not (axis.dtype.is_integer if isinstance(axis, _core.Tensor) else
                                      isinstance(axis, (numbers.Integral, np.integer)) and not isinstance(axis, bool)):
        raise TypeError("axis must be int or Tensor with integer datatype")
    x = _execute.convert_to_tensor(input)
    return _execute.execute1(op, [x, _execute.convert_to_tensor(axis, _INT32)],
                             {"output_type": _execute.attr_dtype(output_type)})


def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the largest value along `axis` (0 when None); ties give the first index."""
    return _arg("ArgMax", input, axis, output_type)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    """Index of the smallest value along `axis` (0 when None); ties give the first index."""
    return _arg("ArgMin", input, axis, output_type)


def _scan(op, x, axis, exclusive, reverse):
    x = _execute.convert_to_tensor(x)
    return _execute.execute1(op, [x, _execute.convert_to_tensor(axis, _INT32)],
                             {"exclusive": _execute.bool_attr(exclusive, "exclusive"),
                              "reverse": _execute.bool_attr(reverse, "reverse")})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along `axis` (exclusive: shifted by one; reverse: from the end)."""
    return _scan("Cumsum", x, axis, exclusive, reverse)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along `axis`."""
    return _scan("Cumprod", x, axis, exclusive, reverse)


# Ragged tensors reach these through framework/dispatch.py.
for _name in ("reduce_sum", "reduce_mean", "reduce_prod", "reduce_max", "reduce_min", "reduce_any", "reduce_all"):
    globals()[_name] = _dispatch.add_dispatch_support(globals()[_name])
del _name
