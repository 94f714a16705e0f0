"""RaggedTensor <-> dense tensor: to_tensor pads rows by one gather from the values (with a default
row appended), from_tensor masks each row at its length."""
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor

_INT64 = dtypes.int64


def _i64(v):
    return convert_to_tensor(v, _INT64._type_enum)


def _dim(shape, i):
    if shape is None or shape.rank is None or i >= shape.rank:
        return None
    return shape.as_list()[i]


def to_tensor(rt, default_value=None, name=None, shape=None):
    """The dense tensor: rows padded with `default_value` (0) to the longest row, or to `shape`
    (the RaggedTensorToTensor kernel; strings take the composed path)."""
    dtype = rt.dtype
    if dtype == dtypes.string:
        return _to_tensor_composed(rt, default_value, shape)
    default = convert_to_tensor(0 if default_value is None else default_value, dtype._type_enum, True)
    shape = None if shape is None else TensorShape(shape)
    if shape is None or shape.rank is None:
        shape_t = _i64(-1)
    else:
        shape_t = _i64([-1 if d is None else d for d in shape.as_list()])
    splits = list(rt.nested_row_splits)
    return execute1("RaggedTensorToTensor", [shape_t, rt.flat_values, default] + splits,
                    {"num_row_partition_tensors": len(splits), "row_partition_types": ["ROW_SPLITS"] * len(splits)},
                    name)


def _to_tensor_composed(rt, default_value, shape):
    shape = None if shape is None else TensorShape(shape)
    values = rt.values
    if isinstance(values, RaggedTensor):
        inner = None if shape is None or shape.rank is None else TensorShape([None] + shape.as_list()[2:])
        values = _to_tensor_composed(values, default_value, inner)
    dtype = values.dtype
    if default_value is None:
        default = convert_to_tensor(b"" if dtype == dtypes.string else 0, dtype._type_enum, True)
    else:
        default = convert_to_tensor(default_value, dtype._type_enum, True)
    splits = rt.row_splits
    nrows = rt.nrows()
    lengths = rt.row_lengths()
    nvals = array_ops.shape(values, out_type=_INT64)[0]
    inner_shape = array_ops.shape(values, out_type=_INT64)[1:]
    rows_out = _i64(_dim(shape, 0)) if _dim(shape, 0) is not None else nrows
    width = _i64(_dim(shape, 1)) if _dim(shape, 1) is not None else \
        reduction_ops.reduce_max(array_ops.concat([_i64([0]), lengths], 0))
    # Row r beyond nrows reads the appended empty row; column c past a row's length the default row.
    r = array_ops.reshape(creation_ops.range(_i64(0), rows_out, _i64(1)), [-1, 1])
    c = array_ops.reshape(creation_ops.range(_i64(0), width, _i64(1)), [1, -1])
    r = math_ops.minimum(r, nrows)
    starts = array_ops.gather(array_ops.concat([splits[:-1], _i64([0])], 0), r)
    lens = array_ops.gather(array_ops.concat([lengths, _i64([0])], 0), r)
    index = array_ops.where(math_ops.less(c, lens), math_ops.add(starts, c), nvals)
    pad = array_ops.broadcast_to(default, array_ops.concat([_i64([1]), inner_shape], 0))
    return array_ops.gather(array_ops.concat([values, pad], 0), index)


def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None, row_splits_dtype=_INT64):
    """Rows of a dense tensor, cut at `lengths` or before trailing `padding` (else full rows)."""
    t = tensor if hasattr(tensor, "_shape_tuple") else convert_to_tensor(tensor)
    rank = t.shape.rank
    if not isinstance(ragged_rank, int) or ragged_rank < 1 or (rank is not None and ragged_rank >= rank):
        raise ValueError(f"ragged_rank must be greater than 0 and less than the rank of tensor; got "
                         f"ragged_rank={ragged_rank}, rank={rank}")
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if ragged_rank > 1:
        if lengths is not None or padding is not None:
            raise NotImplementedError("from_tensor supports lengths and padding for ragged_rank=1")
        dims = array_ops.shape(t, out_type=_INT64)
        flat = array_ops.reshape(t, array_ops.concat([_i64([-1]), dims[2:]], 0))
        inner = from_tensor(cls, flat, ragged_rank=ragged_rank - 1)
        return cls.from_uniform_row_length(inner, dims[1], nrows=dims[0])
    dims = array_ops.shape(t, out_type=_INT64)
    nrows, ncols = dims[0], dims[1]
    if lengths is not None:
        lengths = math_ops.minimum(math_ops.cast(convert_to_tensor(lengths), _INT64), ncols)
    elif padding is not None:
        pad = convert_to_tensor(padding, t.dtype._type_enum, True)
        kept = math_ops.logical_not(math_ops.equal(t, pad))
        if rank is not None and rank > 2:
            kept = reduction_ops.reduce_any(kept, axis=list(range(2, rank)))
        positions = math_ops.multiply(math_ops.cast(kept, _INT64), creation_ops.range(_i64(1), ncols + 1, _i64(1)))
        lengths = reduction_ops.reduce_max(array_ops.concat([creation_ops.zeros_like(positions[:, :1]), positions], 1),
                                           axis=1)
    else:
        lengths = creation_ops.fill(array_ops.reshape(nrows, [1]), ncols)
    mask = math_ops.less(array_ops.reshape(creation_ops.range(_i64(0), ncols, _i64(1)), [1, -1]),
                         array_ops.reshape(lengths, [-1, 1]))
    values = array_ops.boolean_mask(t, mask)
    return cls.from_row_lengths(values, lengths, validate=False)


RaggedTensor.to_tensor = to_tensor
RaggedTensor.from_tensor = classmethod(from_tensor)
