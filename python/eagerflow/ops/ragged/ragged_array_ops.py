"""tf.tile on a RaggedTensor (TF's ragged dispatch), RaggedTensor.to_sparse / from_sparse and tf.ragged.stack,
composed of dense ops on the row partitions."""
from eagerflow.framework import dispatch, dtypes
from eagerflow.framework.sparse_tensor import SparseTensor
from eagerflow.ops import array_ops, creation_ops, math_ops
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.ragged.ragged_getitem import gather_rows, ranges
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor, row_ids

_INT64 = dtypes.int64


def _i64(v):
    return convert_to_tensor(v, _INT64._type_enum) if not hasattr(v, "_dtype_enum") else math_ops.cast(v, _INT64)


def _tile(input, multiples, name=None):  # pylint: disable=redefined-builtin
    """Each row of a ragged_rank-1 tensor repeated multiples[1] times in place, the rows multiples[0] times."""
    rt = input
    if not isinstance(rt, RaggedTensor):
        return NotImplemented
    if rt.ragged_rank != 1:
        raise NotImplementedError("tf.tile of a RaggedTensor with ragged_rank > 1")
    m = _i64(multiples)
    lengths = rt.row_lengths()
    starts = rt.row_splits[:-1]
    # Within each row: value positions start + (k mod length) for k < length * m[1].
    new_lengths = lengths * m[1]
    positions, splits = ranges(creation_ops.zeros_like(starts), new_lengths)
    rows = row_ids(splits, splits[-1])
    safe = math_ops.maximum(array_ops.gather(lengths, rows), _i64(1))
    src = array_ops.gather(starts, rows) + positions % safe
    values = array_ops.gather(rt.values, src)
    inner = m[2:]
    if rt.values.shape.rank and rt.values.shape.rank > 1:
        values = array_ops.tile(values, array_ops.concat([_i64([1]), inner], 0))
    row_tiled = RaggedTensor.from_row_lengths(values, new_lengths, validate=False)
    # Whole rows repeated: gather the rows 0..n-1 m[0] times.
    order = array_ops.reshape(array_ops.tile(array_ops.reshape(creation_ops.range(_i64(0), rt.nrows(), _i64(1)),
                                                                [1, -1]), array_ops.stack([m[0], _i64(1)])), [-1])
    return gather_rows(row_tiled, order)


def to_sparse(self, name=None):
    """The SparseTensor of this ragged tensor's values at [row, column, ...] (row-major)."""
    flat = self.flat_values
    n = array_ops.shape(flat, out_type=_INT64)[0]
    pos = creation_ops.range(_i64(0), n, _i64(1))
    cols = []
    splits_list = self.nested_row_splits
    for splits in reversed(splits_list):
        rows = array_ops.gather(row_ids(splits, splits[-1]), pos)
        cols.insert(0, pos - array_ops.gather(splits, rows))
        pos = rows
    cols.insert(0, pos)
    if flat.shape.rank and flat.shape.rank > 1:
        raise NotImplementedError("to_sparse of a RaggedTensor with multidimensional flat values")
    indices = array_ops.stack(cols, axis=1)
    dense_shape = self.bounding_shape(out_type=_INT64)
    return SparseTensor(indices, flat, dense_shape)


def from_sparse(cls, st_input, name=None, row_splits_dtype=_INT64):
    """The ragged_rank-1 tensor of a 2-D SparseTensor whose indices are in row-major order and each row's
    columns are 0, 1, 2, ... (the form to_sparse gives)."""
    if not isinstance(st_input, SparseTensor):
        raise TypeError(f"st_input must be a SparseTensor, got {type(st_input).__name__}")
    if st_input.indices.shape.as_list()[1:] not in ([2], [None]):
        raise ValueError("rank(st_input) must be 2.")
    nrows = st_input.dense_shape[0]
    rows = st_input.indices[:, 0]
    lengths = execute1("UnsortedSegmentSum", [creation_ops.ones_like(rows), rows, nrows])
    return cls.from_row_lengths(st_input.values, lengths, validate=False).with_row_splits_dtype(row_splits_dtype)


def stack(values, axis=0, name=None):
    """tf.ragged.stack: the tensors (ragged or dense) stacked along a new axis 0."""
    from eagerflow.ops.ragged.ragged_dispatch import _stack
    if axis != 0:
        raise NotImplementedError("tf.ragged.stack on an axis other than 0")
    if not any(isinstance(v, RaggedTensor) for v in values):
        return RaggedTensor.from_tensor(array_ops.stack(values))
    rts = [v if isinstance(v, RaggedTensor) else RaggedTensor.from_tensor(v) for v in values]
    return _stack(rts, axis)


dispatch.register(array_ops.tile, _tile)
RaggedTensor.to_sparse = to_sparse
RaggedTensor.from_sparse = classmethod(from_sparse)
