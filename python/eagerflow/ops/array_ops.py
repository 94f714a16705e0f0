"""Shape and data-movement ops: tf.reshape, transpose, concat, stack, split, gather, where, ..."""
import builtins
import numbers

import numpy as np

from eagerflow import _core
from eagerflow.framework import dispatch as _dispatch
from eagerflow.framework import dtypes
from eagerflow.framework.ops import ITERABLE_GRAPH_IDS, operator_not_allowed
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops import reduction_ops
from eagerflow.ops._execute import convert_to_tensor, execute, execute1, index_tensor

Tensor = _core.Tensor
_INT32 = dtypes.int32._type_enum


def _t(x, dtype_hint=None):
    return convert_to_tensor(x, dtype_hint) if dtype_hint is not None else convert_to_tensor(x)


def _shape_tensor(shape):
    """A shape-like argument (list, tuple, TensorShape, int, Tensor) as an int32/int64 tensor."""
    if isinstance(shape, Tensor):
        return shape
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    if isinstance(shape, (numbers.Integral, np.integer)):
        shape = [shape]
    if isinstance(shape, (list, tuple)) and len(shape) == 0:
        return _core.from_numpy(np.zeros((0,), np.int32))
    return index_tensor(shape)


def _int_tensor(x):
    """An axis/perm/multiples-like argument as an int tensor (int32 unless it is already int64)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple)) and len(x) == 0:
        return _core.from_numpy(np.zeros((0,), np.int32))
    return index_tensor(x)


def _convert_list(values):
    """Converts a list of op inputs sharing one dtype: the first tensor's dtype, else each its own."""
    return _core.convert_list(values)


def _cast(x, dtype):
    dtype = dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return execute1("Cast", [x], {"DstT": dtype})


def reshape(tensor, shape, name=None):
    """tf.reshape: same elements, new shape (one dim may be -1); no copy."""
    return execute1("Reshape", [_t(tensor), _shape_tensor(shape)], None, name)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    """tf.transpose: permutes dimensions (reverses them when perm is None)."""
    a = _t(a)
    if perm is None:
        perm = list(builtins.range(a.ndim - 1, -1, -1))
    out = execute1("Transpose", [a, _int_tensor(perm)], None, name or "transpose")
    if conjugate and a.dtype.is_complex:
        out = execute1("Conj", [out])
    return out


def expand_dims(input, axis, name=None):
    """tf.expand_dims: inserts a dimension of size 1 at `axis`."""
    return execute1("ExpandDims", [_t(input), _int_tensor(axis)])


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    """tf.squeeze: removes size-1 dimensions (all of them, or those in `axis`)."""
    if axis is None:
        axis = squeeze_dims
    if axis is None:
        axis = []
    elif isinstance(axis, (numbers.Integral, np.integer)):
        axis = [int(axis)]
    return execute1("Squeeze", [_t(input)], {"squeeze_dims": [int(a) for a in axis]})


def concat(values, axis, name="concat"):
    """tf.concat: joins tensors along an existing axis."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    values = _convert_list(values)
    if len(values) == 1:
        # TF checks the axis even when there is nothing to join: an int32 scalar.
        from eagerflow.framework.convert import convert_to_tensor as convert_exact
        axis = convert_exact(axis, dtype=dtypes.int32)
        if axis.shape.rank not in (None, 0):
            raise ValueError(f"Shape {axis.shape} must have rank 0")
        return identity(values[0])
    return execute1("ConcatV2", values + [_int_tensor(axis)], None, name or "concat")


def stack(values, axis=0, name="stack"):
    """tf.stack: joins same-shaped tensors along a new axis."""
    if axis == 0 and not any(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in values):
        return convert_to_tensor(values)  # nested Python values: TF's constant inference
    values = _convert_list(values)
    rank = values[0].ndim + 1
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    return execute1("Pack", values, {"axis": int(axis)}, name or "stack")


def unstack(value, num=None, axis=0, name="unstack"):
    """tf.unstack: splits a tensor along `axis` into a list of tensors of one rank less."""
    value = _t(value)
    rank = value.ndim
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    if num is None:
        num = value._shape_tuple[axis]
    return execute("Unpack", [value], {"num": int(num), "axis": int(axis)})


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """tf.split: into `n` equal pieces (int) or pieces of the given sizes (list; one may be -1)."""
    value = _t(value)
    n = num_or_size_splits
    if isinstance(n, (numbers.Integral, np.integer)) or (isinstance(n, Tensor) and n.ndim == 0):
        return execute("Split", [_t(int(axis) if not isinstance(axis, Tensor) else axis, _INT32), value],
                       {"num_split": int(n)}, name or "split")
    sizes = _int_tensor(n)
    if num is None:
        if sizes.ndim != 1:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
        num = sizes._shape_tuple[0]
    return execute("SplitV", [value, sizes, _int_tensor(axis)], {"num_split": int(num)}, name or "split")


def tile(input, multiples, name=None):
    """tf.tile: repeats the tensor `multiples[i]` times along dimension i."""
    return execute1("Tile", [_t(input), _int_tensor(multiples)])


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """tf.pad: CONSTANT (with constant_values), REFLECT or SYMMETRIC padding."""
    from eagerflow.framework.convert import convert_to_tensor as exact_convert
    tensor = _t(tensor)
    paddings = _int_tensor(paddings)
    mode = mode.upper() if isinstance(mode, str) else mode
    if mode == "CONSTANT":
        if (not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0
                and not isinstance(constant_values, (str, bytes)) and constant_values == 0):
            return execute1("Pad", [tensor, paddings])
        return execute1("PadV2", [tensor, paddings, exact_convert(constant_values, dtype=tensor.dtype)])
    if mode in ("REFLECT", "SYMMETRIC"):
        return execute1("MirrorPad", [tensor, paddings], {"mode": mode})
    raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                     f"Received `mode` = {mode}")


def reverse(tensor, axis, name=None):
    """tf.reverse: reverses the given axes."""
    return execute1("ReverseV2", [_t(tensor), _int_tensor(axis)])


def broadcast_to(input, shape, name=None):
    """tf.broadcast_to: broadcasts to an explicit shape."""
    return execute1("BroadcastTo", [_t(input), _shape_tensor(shape)])


def identity(input, name=None):
    """tf.identity: a tensor with the same value."""
    return execute1("Identity", [_t(input)], None, name)


def shape(input, out_type=None, name=None):
    """tf.shape: the dynamic shape as an int32 (or out_type) tensor."""
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return execute1("Shape", [_t(input)], {"out_type": out_type})


def size(input, out_type=None, name=None):
    """tf.size: number of elements as an int32 (or out_type) scalar."""
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    x = _t(input)
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and (None not in dims or 0 in dims):
        # A known size is a constant of out_type, as TF folds it (any numeric out_type then).
        from eagerflow.framework.convert import convert_to_tensor as convert_exact
        n = 0 if 0 in dims else int(np.prod(dims, dtype=np.int64))
        return convert_exact(np.array(n).astype(out_type.as_numpy_dtype), dtype=out_type)
    return execute1("Size", [x], {"out_type": out_type})


def rank(input, name=None):
    """tf.rank: number of dimensions as an int32 scalar."""
    return execute1("Rank", [_t(input)])


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """tf.gather: slices of `params` along `axis` at `indices` (batch_dims leading dims matched)."""
    if axis is None:
        axis = batch_dims
    if not isinstance(axis, Tensor) and axis == 0 or isinstance(axis, Tensor) and int(axis) == 0:
        batch_dims = 0  # TF drops batch_dims when axis is 0 (it takes its plain-gather path)
    params = _t(params)
    indices = _t(indices)
    return execute1("GatherV2", [params, indices, _int_tensor(axis)], {"batch_dims": int(batch_dims)})


def gather_nd(params, indices, batch_dims=0, name=None):
    """tf.gather_nd: slices of `params` addressed by the index vectors in the last dim of `indices`."""
    params = _t(params)
    indices = _t(indices)
    if batch_dims == 0:
        return execute1("GatherNd", [params, indices])
    return _batch_gather_nd(params, indices, int(batch_dims))


def _batch_gather_nd(params, indices, batch_dims):
    # Flatten the batch dims and prepend each element's batch number to its index vector.
    pshape, ishape = list(params._shape_tuple), list(indices._shape_tuple)
    batch = pshape[:batch_dims]
    nb = int(np.prod(batch, dtype=np.int64))
    params2 = reshape(params, [nb] + pshape[batch_dims:])
    inner = ishape[batch_dims:]
    indices2 = reshape(indices, [nb] + inner)
    ids = execute1("Range", [_t(0, indices.dtype._type_enum), _t(nb, indices.dtype._type_enum),
                             _t(1, indices.dtype._type_enum)])
    ids = reshape(ids, [nb] + [1] * len(inner))
    ids = broadcast_to(ids, [nb] + inner[:-1] + [1])
    out = execute1("GatherNd", [params2, concat([ids, indices2], -1)])
    return reshape(out, batch + list(out._shape_tuple[1:]))


def where(condition, x=None, y=None, name=None):
    """tf.where: coordinates of true elements (one argument) or an elementwise choice."""
    if x is None and y is None:
        return execute1("Where", [_t(condition)])
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    # x fixes the dtype and y must convert to it exactly (TF: tf.where(True, 1, 2.5) is a TypeError).
    from eagerflow.framework.convert import convert_to_tensor as exact_convert
    if isinstance(y, Tensor) and not isinstance(x, Tensor):
        x = exact_convert(x, dtype=y.dtype)
    else:
        x = _t(x)
        if not isinstance(y, Tensor):
            y = exact_convert(y, dtype=x.dtype)
    return execute1("SelectV2", [_t(condition, dtypes.bool._type_enum), x, y])


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """tf.boolean_mask: the elements (or slices along `axis`) where `mask` is true."""
    tensor = _t(tensor)
    mask = _t(mask, dtypes.bool._type_enum)
    ndims_mask = mask.ndim
    if ndims_mask == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    if axis < 0:
        axis += tensor.ndim
    tshape = list(tensor._shape_tuple)
    covered = TensorShape(tshape[axis:axis + ndims_mask])
    if not covered.is_compatible_with(mask.shape):
        raise ValueError(f"Shapes {covered} and {mask.shape} are incompatible")
    if None in tshape:  # unknown dims (a graph): the merged shape from the runtime shape
        dyn = shape(tensor)
        merged = reduction_ops.reduce_prod(dyn[axis:axis + ndims_mask], keepdims=True)
        tensor = reshape(tensor, concat([dyn[:axis], merged, dyn[axis + ndims_mask:]], 0))
    else:
        leading = int(np.prod(tshape[axis:axis + ndims_mask], dtype=np.int64))
        tensor = reshape(tensor, tshape[:axis] + [leading] + tshape[axis + ndims_mask:])
    mask = reshape(mask, [-1])
    indices = squeeze(where(mask), axis=[1])
    return gather(tensor, indices, axis=axis)



def _tensor_iter(self):
    """Tensor.__iter__: the tensor unstacked along its first dimension (one Unpack op). A graph
    tensor is not iterable in Python (AutoGraph turns `for` over one into a while loop), as in TF."""
    shape = self._shape_tuple
    if self._is_symbolic:
        if self._graph.id not in ITERABLE_GRAPH_IDS:
            raise operator_not_allowed("Iterating over a symbolic `tf.Tensor`")
        if shape is None or len(shape) == 0 or shape[0] is None:
            raise TypeError("Cannot iterate over a scalar tensor." if shape == () else
                            "Cannot iterate over a tensor with unknown shape." if shape is None else
                            "Cannot iterate over a tensor with unknown first dimension.")
    elif self.ndim == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    return iter(unstack(self, num=shape[0]))


Tensor.__iter__ = _tensor_iter


# Ragged and sparse values reach these through framework/dispatch.py.
concat = _dispatch.add_dispatch_support(concat)
stack = _dispatch.add_dispatch_support(stack)
tile = _dispatch.add_dispatch_support(tile)
