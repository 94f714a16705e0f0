"""tf.ragged.constant (nested Python lists -> RaggedTensor) and tf.ragged.range."""
import builtins

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import constant as _constant
from eagerflow.ops import array_ops, creation_ops, math_ops
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.ragged.ragged_getitem import ranges
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor

_INT64 = dtypes.int64


def _is_list(x):
    return isinstance(x, (list, tuple)) or (hasattr(x, "ndim") and getattr(x, "ndim", 0) > 0
                                            and not isinstance(x, _core.Tensor))


def _depth(x):
    """The nesting depth of the scalars in x (ValueError if they differ); None for no scalars."""
    if not _is_list(x):
        return 0
    depths = {d for d in (_depth(v) for v in x) if d is not None}
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return depths.pop() + 1 if depths else None


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None, row_splits_dtype=_INT64):
    """A RaggedTensor of nested Python lists: rows of any length, `ragged_rank` ragged dimensions
    (the nesting depth - 1 - len(inner_shape) by default), uniform `inner_shape` below them."""
    depth = _depth(pylist)
    if depth == 0 or (depth is None and not _is_list(pylist)):
        if ragged_rank:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
        return _constant(pylist, dtype=dtype)
    inner = () if inner_shape is None else tuple(inner_shape)
    if ragged_rank is None:
        ragged_rank = 1 if depth is None else max(0, depth - 1 - len(inner))
    if depth is not None and ragged_rank >= depth:
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    if ragged_rank == 0:
        return _constant(pylist, dtype=dtype)
    nested_lengths = []
    level = list(pylist)
    for _ in builtins.range(ragged_rank):
        lengths, nxt = [], []
        for row in level:
            if not _is_list(row):
                raise ValueError(f"pylist has scalar values at depth {len(nested_lengths)}, but ragged_rank="
                                 f"{ragged_rank} requires scalar value to have depth >= {ragged_rank + 1}")
            lengths.append(len(row))
            nxt.extend(row)
        nested_lengths.append(lengths)
        level = nxt
    if level:
        flat = _constant(level, dtype=dtype)
        if inner_shape is not None:
            flat = array_ops.reshape(flat, [-1] + list(inner))
    else:
        flat = creation_ops.zeros([0] + list(inner), dtype or dtypes.float32)
    lengths = [convert_to_tensor(ls, _INT64._type_enum) for ls in nested_lengths]
    rt = RaggedTensor.from_nested_row_lengths(flat, lengths, validate=False)
    if dtypes.as_dtype(row_splits_dtype) != _INT64:
        rt = rt.with_row_splits_dtype(row_splits_dtype)
    return rt


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=_INT64):  # noqa: A001
    """Row i is tf.range(starts[i], limits[i], deltas[i]) (scalars broadcast; one argument: limits)."""
    if limits is None:
        starts, limits = 0, starts
    ts = [convert_to_tensor(v) if not isinstance(v, _core.Tensor) else v for v in (starts, limits, deltas)]
    if dtype is not None:
        ts = [math_ops.cast(t, dtype) for t in ts]
    else:
        target = next((t.dtype for t in ts if t.dtype.is_floating), ts[0].dtype)
        if any(t.dtype == dtypes.int64 for t in ts) and not target.is_floating:
            target = dtypes.int64
        ts = [math_ops.cast(t, target) for t in ts]
    starts, limits, deltas = ts
    n = math_ops.maximum(math_ops.maximum(array_ops.size(starts), array_ops.size(limits)), array_ops.size(deltas))
    shape = array_ops.reshape(n, [1])
    starts, limits, deltas = (array_ops.broadcast_to(array_ops.reshape(t, [-1]), shape) for t in ts)
    counts = math_ops.negative(math_ops.floordiv(math_ops.subtract(starts, limits), deltas))
    lengths = math_ops.cast(math_ops.maximum(counts, creation_ops.zeros_like(counts)), _INT64)
    positions, splits = ranges(creation_ops.zeros_like(lengths), lengths)
    rows = RaggedTensor.from_row_splits(positions, splits, validate=False).value_rowids()
    values = math_ops.add(array_ops.gather(starts, rows),
                          math_ops.multiply(math_ops.cast(positions, starts.dtype), array_ops.gather(deltas, rows)))
    rt = RaggedTensor.from_row_splits(values, splits, validate=False)
    return rt if dtypes.as_dtype(row_splits_dtype) == _INT64 else rt.with_row_splits_dtype(row_splits_dtype)


def boolean_mask(data, mask, name=None):
    """The elements of `data` where `mask` is true, row by row (tf.ragged.boolean_mask): a mask of
    the data's first dims keeps, per row, only the selected items; a 1-D mask selects rows."""
    from eagerflow.ops.ragged.ragged_getitem import gather_rows
    if not isinstance(mask, RaggedTensor):
        mask = mask if isinstance(mask, _core.Tensor) else convert_to_tensor(mask, dtypes.bool._type_enum)
    if not isinstance(data, RaggedTensor):
        data = data if isinstance(data, _core.Tensor) else convert_to_tensor(data)
        if mask.shape.rank == 1:
            return array_ops.boolean_mask(data, mask)
        data = RaggedTensor.from_tensor(data)
    if isinstance(mask, _core.Tensor) and mask.shape.rank == 1:
        rows = array_ops.reshape(array_ops.where(mask), [-1])
        return gather_rows(data, rows)
    if not isinstance(mask, RaggedTensor):
        mask = RaggedTensor.from_tensor(mask)
    if data.ragged_rank != 1 or mask.ragged_rank != 1 or mask.flat_values.shape.rank != 1:
        raise NotImplementedError("tf.ragged.boolean_mask supports masks of ragged_rank 1")
    values = array_ops.boolean_mask(data.values, mask.values)
    lengths = execute1("UnsortedSegmentSum", [math_ops.cast(mask.values, _INT64), mask.value_rowids(), mask.nrows()])
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)
