"""tf.sparse ops composed of dense ops on a SparseTensor's components (so they run eagerly, in graphs
and under a tape): concat, slice, reshape, transpose, expand_dims, retain, reduce_max, map_values."""
from eagerflow.framework import dtypes
from eagerflow.framework.sparse_tensor import SparseTensor
from eagerflow.framework import nest
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor, execute1
from eagerflow.ops.sparse_ops import _check_sparse, reorder

_INT64 = dtypes.int64


def _i64(x):
    return convert_to_tensor(x, _INT64._type_enum) if not hasattr(x, "_dtype_enum") else math_ops.cast(x, _INT64)


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors joined along `axis` (indices shifted by the sizes before them, row-major order)."""
    for i, sp in enumerate(sp_inputs):
        _check_sparse(sp, f"sp_inputs[{i}]")
    rank = sp_inputs[0].indices.shape[1]
    axis = axis + rank if axis < 0 else axis
    shapes = [sp.dense_shape for sp in sp_inputs]
    if expand_nonconcat_dims:
        out_shape = reduction_ops.reduce_max(array_ops.stack(shapes), axis=0)
    else:
        out_shape = shapes[0]
    sizes = array_ops.stack([s[axis] for s in shapes])
    total = reduction_ops.reduce_sum(sizes)
    out_shape = array_ops.concat([out_shape[:axis], array_ops.reshape(total, [1]), out_shape[axis + 1:]], 0)
    offsets = reduction_ops.cumsum(sizes, exclusive=True)
    one_hot = creation_ops.one_hot(axis, rank, dtype=_INT64)
    indices = array_ops.concat([sp.indices + offsets[i] * one_hot for i, sp in enumerate(sp_inputs)], 0)
    values = array_ops.concat([sp.values for sp in sp_inputs], 0)
    return reorder(SparseTensor(indices, values, out_shape))


def slice(sp_input, start, size, name=None):  # pylint: disable=redefined-builtin
    """The values of `sp_input` within [start, start + size) (clipped to its shape), re-based at `start`."""
    _check_sparse(sp_input, "sp_input")
    start, size = _i64(start), _i64(size)
    end = math_ops.minimum(start + size, sp_input.dense_shape)
    idx = sp_input.indices
    keep = reduction_ops.reduce_all(math_ops.logical_and(math_ops.greater_equal(idx, start), math_ops.less(idx, end)),
                                    axis=1)
    return SparseTensor(array_ops.boolean_mask(idx, keep) - start, array_ops.boolean_mask(sp_input.values, keep),
                        math_ops.maximum(end - start, 0))


def reshape(sp_input, shape, name=None):
    """`sp_input` with dense shape `shape` (one -1 inferred), its values in the same row-major places."""
    _check_sparse(sp_input, "sp_input")
    shape = _i64(shape)
    n = reduction_ops.reduce_prod(sp_input.dense_shape)
    known = reduction_ops.reduce_prod(array_ops.where(math_ops.equal(shape, -1), creation_ops.ones_like(shape), shape))
    shape = array_ops.where(math_ops.equal(shape, -1), creation_ops.zeros_like(shape) + n // known, shape)
    in_strides = reduction_ops.cumprod(sp_input.dense_shape, exclusive=True, reverse=True)
    flat = reduction_ops.reduce_sum(sp_input.indices * in_strides, axis=1, keepdims=True)
    out_strides = reduction_ops.cumprod(shape, exclusive=True, reverse=True)
    return SparseTensor(flat // out_strides % shape, sp_input.values, shape)


def transpose(sp_input, perm=None, name=None):
    """`sp_input` with its axes permuted (reversed when `perm` is None), in row-major order."""
    _check_sparse(sp_input, "sp_input")
    rank = sp_input.indices.shape[1]
    perm = list(range(rank))[::-1] if perm is None else perm
    indices = array_ops.gather(sp_input.indices, perm, axis=1)
    return reorder(SparseTensor(indices, sp_input.values, array_ops.gather(sp_input.dense_shape, perm)))


def expand_dims(sp_input, axis=None, name=None):
    """`sp_input` with a dimension of 1 inserted at `axis`."""
    _check_sparse(sp_input, "sp_input")
    rank = sp_input.indices.shape[1]
    axis = -1 if axis is None else axis
    axis = axis + rank + 1 if axis < 0 else axis
    idx = sp_input.indices
    zeros = creation_ops.zeros_like(idx[:, :1])
    indices = array_ops.concat([idx[:, :axis], zeros, idx[:, axis:]], 1)
    one = convert_to_tensor([1], _INT64._type_enum)
    shape = array_ops.concat([sp_input.dense_shape[:axis], one, sp_input.dense_shape[axis:]], 0)
    return SparseTensor(indices, sp_input.values, shape)


def retain(sp_input, to_retain):
    """The entries of `sp_input` where the boolean vector `to_retain` is True."""
    _check_sparse(sp_input, "sp_input")
    return SparseTensor(array_ops.boolean_mask(sp_input.indices, to_retain),
                        array_ops.boolean_mask(sp_input.values, to_retain), sp_input.dense_shape)


def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The max of the stored values over `axis` (implicit zeros are not values; an empty set gives 0)."""
    from eagerflow.ops.sparse_ops import from_dense
    _check_sparse(sp_input, "sp_input")
    rank = sp_input.indices.shape[1]
    axes = list(range(rank)) if axis is None else [a + rank if a < 0 else a for a in nest.flatten(axis)]
    kept = [a for a in range(rank) if a not in axes]
    kept_t = convert_to_tensor(kept, dtypes.int32._type_enum)
    out_dims = array_ops.gather(sp_input.dense_shape, kept_t)
    strides = reduction_ops.cumprod(out_dims, exclusive=True, reverse=True)
    segment = reduction_ops.reduce_sum(array_ops.gather(sp_input.indices, kept_t, axis=1) * strides, axis=1)
    count = reduction_ops.reduce_prod(out_dims)
    maxes = execute1("UnsortedSegmentMax", [sp_input.values, segment, count])
    seen = execute1("UnsortedSegmentMax", [creation_ops.ones_like(segment), segment, count])
    maxes = array_ops.where(math_ops.greater(seen, 0), maxes, creation_ops.zeros_like(maxes))
    if keepdims:
        out_dims = array_ops.where(convert_to_tensor([a in axes for a in range(rank)]),
                                   creation_ops.ones_like(sp_input.dense_shape), sp_input.dense_shape)
    out = array_ops.reshape(maxes, out_dims)
    return from_dense(out) if output_is_sparse else out


def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensors among the arguments (all at the same positions)."""
    sparse = [a for a in nest.flatten((args, kwargs), expand_composites=False) if isinstance(a, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    unwrap = lambda x: x.values if isinstance(x, SparseTensor) else x  # noqa: E731
    args = [unwrap(a) for a in args]
    kwargs = {k: unwrap(v) for k, v in kwargs.items()}
    return sparse[0].with_values(op(*args, **kwargs))
