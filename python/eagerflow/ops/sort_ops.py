"""tf.sort, tf.argsort (TF's composition over TopKV2: descending directly, ascending on negated
values, a non-last axis transposed to the end) and tf.searchsorted (LowerBound / UpperBound)."""
import numpy as np

from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute, execute1
from eagerflow.ops import array_ops


def _constant_axis(axis):
    t = convert_to_tensor(axis)
    value = None
    if not t._is_symbolic:
        value = t.numpy()
    elif t.op.type == "Const":
        value = t.op.get_attr("value").numpy()
    if value is None or np.ndim(value) != 0:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={t}.")
    return int(value)


def _descending_sort(values, axis, return_argsort):
    static_rank = values.shape.rank
    static_k = values.shape[axis] if static_rank is not None and -static_rank <= axis < static_rank else None
    # A known length is a constant k (TF's shape inference folds shape(values)[axis] into one);
    # otherwise the slice raises TF's error for a bad axis.
    k = convert_to_tensor(np.int32(static_k)) if static_k is not None else array_ops.shape(values)[axis]
    if axis == -1 or axis + 1 == static_rank:
        transposition = None
        top_k_input = values
    else:
        if static_rank is None:  # swap axis and rank - 1 in range(rank), in the graph (TF's way)
            rank = execute1("Rank", [values])
            last = execute1("Sub", [rank, convert_to_tensor(np.int32(1))])
            at = execute1("AddV2", [rank, convert_to_tensor(np.int32(axis))]) if axis < 0 else convert_to_tensor(
                np.int32(axis))
            transposition = execute1("TensorScatterUpdate", [
                execute1("Range", [convert_to_tensor(np.int32(0)), rank, convert_to_tensor(np.int32(1))]),
                execute1("Reshape", [execute1("Pack", [at, last], {"axis": 0}), convert_to_tensor(np.int32([2, 1]))]),
                execute1("Pack", [last, at], {"axis": 0})])
        else:
            axis += static_rank if axis < 0 else 0
            perm = list(range(static_rank))
            perm[axis], perm[-1] = perm[-1], perm[axis]
            transposition = convert_to_tensor(np.int32(perm))
        top_k_input = execute1("Transpose", [values, transposition])
    out_values, indices = execute("TopKV2", [top_k_input, k], {"sorted": True})
    result = indices if return_argsort else out_values
    if transposition is not None:  # a swap of two axes is its own inverse
        result = execute1("Transpose", [result, transposition])
    return result


def _ascending_sort(values, axis, return_argsort):
    dtype = values.dtype
    if dtype.is_unsigned:
        offset = convert_to_tensor(dtype.max, dtype)
        result = _descending_sort(execute1("Sub", [offset, values]), axis, return_argsort)
        return result if return_argsort else execute1("Sub", [offset, result])
    if dtype.is_integer:  # -x - 1 (bitwise not): no overflow at the type's minimum
        one = convert_to_tensor(1, dtype)
        flip = lambda x: execute1("Sub", [execute1("Neg", [x]), one])  # noqa: E731
        result = _descending_sort(flip(values), axis, return_argsort)
        return result if return_argsort else flip(result)
    result = _descending_sort(execute1("Neg", [values]), axis, return_argsort)
    return result if return_argsort else execute1("Neg", [result])


_SORT_IMPL = {"ASCENDING": _ascending_sort, "DESCENDING": _descending_sort}


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in _SORT_IMPL:
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    axis = _constant_axis(axis)
    values = convert_to_tensor(values)
    return _SORT_IMPL[direction](values, axis, return_argsort)


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """tf.sort: `values` sorted along `axis` (NaN sorts as the largest value)."""
    return _sort_or_argsort(values, axis, direction, False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """tf.argsort: the int32 indices that sort `values` along `axis` (always stable, as TF's)."""
    del stable  # TopKV2 breaks ties by the lower index
    return _sort_or_argsort(values, axis, direction, True)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """tf.searchsorted: for each of `values` (by row of the innermost dim), its insertion index
    in the matching row of `sorted_sequence`."""
    sorted_sequence = convert_to_tensor(sorted_sequence)
    values = convert_to_tensor(values)
    sorted_2d, values_2d = _as_rows(sorted_sequence), _as_rows(values)
    if side == "right":
        op = "UpperBound"
    elif side == "left":
        op = "LowerBound"
    else:
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = '{side}'.")
    out = execute1(op, [sorted_2d, values_2d], {"out_type": dtypes.as_dtype(out_type)})
    if values_2d is values:
        return out
    return execute1("Reshape", [out, array_ops.shape(values)])


def _as_rows(x):
    """x as [-1, innermost] (TF's reshape; skipped where x is 2-D already, which keeps its static
    dims in graphs)."""
    if x.shape.rank == 2:
        return x
    shape = x.shape
    if shape.rank is not None and shape.rank > 0 and all(d is not None for d in shape.as_list()):
        return execute1("Reshape", [x, convert_to_tensor(np.int32([-1, shape.as_list()[-1]]))])
    minus_one = convert_to_tensor(np.int32(-1))
    size = array_ops.shape(x)[-1]
    return execute1("Reshape", [x, execute1("Pack", [minus_one, size], {"axis": 0})])
