"""tf.repeat, tf.meshgrid, tf.is_tensor, tf.broadcast_static_shape and tf.broadcast_dynamic_shape, composed from ops as TF composes
them."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops import _execute, array_ops, creation_ops, math_ops, reduction_ops


def is_tensor(x):
    """Whether `x` is a tf.Tensor, a tf.Variable or another tensor-like TF type (not an ndarray)."""
    from eagerflow.ops.variables import Variable
    return isinstance(x, (Tensor, Variable)) or getattr(x, "_is_tensor_like", False)


def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two TensorShapes (unknown dims stay unknown where the other is not 1)."""
    x, y = TensorShape(shape_x), TensorShape(shape_y)
    if x.rank is None or y.rank is None:
        return TensorShape(None)
    a, b = x.as_list()[::-1], y.as_list()[::-1]
    out = []
    for i in range(max(len(a), len(b))):
        da = a[i] if i < len(a) else 1
        db = b[i] if i < len(b) else 1
        if da == 1:
            out.append(db)
        elif db == 1 or db is None and da is not None or da == db:
            out.append(da)
        elif da is None:
            out.append(db)
        else:
            raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                             f"pair they are either equal or one of them is 1. Received: {x} and {y}.")
    return TensorShape(out[::-1])


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shape vectors, computed at run time (the BroadcastArgs op)."""
    return _execute.execute("BroadcastArgs", [convert_to_tensor(shape_x), convert_to_tensor(shape_y)])[0]


def repeat(input, repeats, axis=None, name=None):  # pylint: disable=redefined-builtin
    """Repeats each element of `input` along `axis` (flattened when None) `repeats` times (a scalar, or
    one count per element): tiled to the largest count, then masked, as TF does."""
    x = convert_to_tensor(input)
    if axis is None:
        x = array_ops.reshape(x, [-1])
        axis = 0
    rank = x.shape.rank
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    axis %= rank
    repeats = convert_to_tensor(repeats, dtype=dtypes.int32)
    if repeats.shape.rank == 0:
        tiled = array_ops.tile(array_ops.expand_dims(x, axis + 1),
                               [1] * (axis + 1) + [repeats] + [1] * (rank - axis - 1))
        if tiled.shape.is_fully_defined():  # eagerly always: merge the axis with its copies statically
            dims = tiled.shape.as_list()
            return array_ops.reshape(tiled, dims[:axis] + [dims[axis] * dims[axis + 1]] + dims[axis + 2:])
        lead = array_ops.shape(x)
        new_shape = array_ops.concat([lead[:axis], [lead[axis] * repeats], lead[axis + 1:]], 0)
        return array_ops.reshape(tiled, new_shape)
    most = reduction_ops.reduce_max(repeats)
    tiled = array_ops.tile(array_ops.expand_dims(x, axis + 1), [1] * (axis + 1) + [most] + [1] * (rank - axis - 1))
    mask = math_ops.less(creation_ops.range(most)[None, :], repeats[:, None])
    return array_ops.boolean_mask(tiled, mask, axis=axis)


def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D tensors: "xy" (Cartesian, the default: the first two outputs are
    transposed) or "ij" (matrix) indexing."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = next(iter(kwargs))
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    ts = [array_ops.reshape(convert_to_tensor(a), [-1]) for a in args]
    n = len(ts)
    if n == 0:
        return []
    pos = list(range(n))  # the output dimension each input runs along
    if indexing == "xy" and n > 1:
        pos[0], pos[1] = 1, 0
    sizes = [array_ops.size(t) for t in ts]
    out_shape = array_ops.stack([sizes[pos.index(d)] for d in range(n)])
    out = []
    for i, t in enumerate(ts):
        shape = [1] * n
        shape[pos[i]] = -1
        out.append(array_ops.broadcast_to(array_ops.reshape(t, shape), out_shape))
    return out
