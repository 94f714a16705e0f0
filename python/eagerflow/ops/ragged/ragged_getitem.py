"""RaggedTensor indexing: a row (rt[i]), a range of rows (rt[a:b:c]), and per-row slices of the
ragged dimension (rt[:, a:b]); an integer index into a ragged dimension is TF's ValueError."""
import numbers

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor, row_ids

_INT64 = dtypes.int64


def _i64(v):
    return convert_to_tensor(v, _INT64._type_enum)


def _is_index(k):
    return isinstance(k, numbers.Integral) and not isinstance(k, bool) or (
        isinstance(k, _core.Tensor) and k.dtype.is_integer and k.shape.rank == 0)


def ranges(starts, lengths):
    """The concatenated ranges [starts[i], starts[i] + lengths[i]) (int64)."""
    splits = array_ops.concat([_i64([0]), reduction_ops.cumsum(lengths)], 0)
    total = splits[-1]
    rows = row_ids(splits, total)
    offsets = math_ops.subtract(creation_ops.range(_i64(0), total, _i64(1)), array_ops.gather(splits, rows))
    return math_ops.add(array_ops.gather(starts, rows), offsets), splits


def gather_rows(rt, rows):
    """The rows `rows` (a 1-D int64 tensor) of rt, as a RaggedTensor."""
    starts = array_ops.gather(rt.row_splits[:-1], rows)
    lengths = array_ops.gather(rt.row_lengths(), rows)
    positions, splits = ranges(starts, lengths)
    values = gather_rows(rt.values, positions) if isinstance(rt.values, RaggedTensor) else \
        array_ops.gather(rt.values, positions)
    return RaggedTensor._wrap(values, splits)


def _row(rt, i):
    if isinstance(i, numbers.Integral):
        n = rt._static_nrows()
        if n is not None and not -n <= i < n:
            raise IndexError(f"Row key {i} out of bounds")
        if i < 0:
            i = i + (n if n is not None else rt.nrows())
    i = math_ops.cast(i, _INT64) if isinstance(i, _core.Tensor) else _i64(i)
    start = rt.row_splits[i]
    limit = rt.row_splits[i + 1]
    values = rt.values
    if isinstance(values, RaggedTensor):
        return gather_rows(values, creation_ops.range(start, limit, _i64(1)))
    return values[start:limit]


def _slice_columns(rt, key):
    """Each row sliced by `key` (a slice with step 1): Python's clamping, per row."""
    if key.step not in (None, 1):
        raise ValueError("Slicing a ragged dimension with a step other than 1 is not supported.")
    lengths = rt.row_lengths()
    zero = creation_ops.zeros_like(lengths)

    def bound(v, default):
        if v is None:
            return default
        v = _i64(v) if not isinstance(v, _core.Tensor) else math_ops.cast(v, _INT64)
        v = array_ops.where(math_ops.less(v, 0), math_ops.add(lengths, v), v + zero)
        return math_ops.minimum(math_ops.maximum(v, zero), lengths)

    start = bound(key.start, zero)
    stop = bound(key.stop, lengths)
    new_lengths = math_ops.maximum(math_ops.subtract(stop, start), zero)
    positions, splits = ranges(math_ops.add(rt.row_splits[:-1], start), new_lengths)
    values = gather_rows(rt.values, positions) if isinstance(rt.values, RaggedTensor) else \
        array_ops.gather(rt.values, positions)
    return RaggedTensor._wrap(values, splits)


def getitem(rt, key):
    key = key if isinstance(key, tuple) else (key,)
    if not key:
        return rt
    first, rest = key[0], key[1:]
    if _is_index(first):
        row = _row(rt, first)
        return row[rest] if rest else row
    if not isinstance(first, slice):
        raise TypeError(f"Ragged __getitem__ expects an int, a slice or a tuple of them; got {first!r}")
    if first != slice(None):
        nrows = rt.nrows()
        rows = creation_ops.range(_i64(0), nrows, _i64(1))[first]
        rt = gather_rows(rt, rows)
    if not rest:
        return rt
    second, more = rest[0], rest[1:]
    if _is_index(second):
        raise ValueError("Cannot index into an inner ragged dimension.")
    if not isinstance(second, slice):
        raise TypeError(f"Ragged __getitem__ expects an int, a slice or a tuple of them; got {second!r}")
    if second != slice(None):
        rt = _slice_columns(rt, second)
    if not more:
        return rt
    values = rt.values
    inner = values[(slice(None),) + more] if isinstance(values, RaggedTensor) else values[(slice(None),) + more]
    return RaggedTensor._wrap(inner, rt.row_splits)


RaggedTensor.__getitem__ = getitem
