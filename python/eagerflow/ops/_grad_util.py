"""Helpers shared by the gradient modules: attrs with defaults, static values and shapes, and the
few op compositions (sum-to-shape, zeros) that several gradients need. Everything here runs ops
through the one dispatch path, so it works eagerly and while building graphs."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.ops._execute import convert_to_tensor, execute, execute1

Tensor = _core.Tensor
INT32 = dtypes.int32
INT64 = dtypes.int64
_INT32_ENUM = INT32.as_datatype_enum


def attr(op, name, default=None):
    """op.get_attr(name), or `default` when the op view does not carry the attr (a default value)."""
    try:
        v = op.get_attr(name)
    except (ValueError, KeyError, AttributeError, TypeError):
        return default
    return default if v is None else v


def needs(op, i):
    """Whether anything reads the gradient of op's input i: an eager tape names the inputs no source
    reaches in op.skip_input_indices (TF's hint), so gradient functions can leave them None."""
    skip = getattr(op, "skip_input_indices", None)
    return not skip or i not in skip


def static_value(t):
    """The value of `t` as a NumPy array when it is known now (eager, or a graph Const), else None.

    Only for index-like inputs (axes, perms, paddings): it decides how to build the gradient,
    never computes it."""
    if not getattr(t, "_is_symbolic", False):
        return t.numpy()
    try:
        op = t.op
        if op.type == "Const":
            return op.get_attr("value").numpy()
    except (AttributeError, ValueError):
        pass
    return None


def static_shape(t):
    """The static dims of `t` as a list (None for unknown dims), or None when the rank is unknown."""
    s = t.shape
    if s.rank is None:
        return None
    return s.as_list()


def fully_known(shape):
    return shape is not None and all(d is not None for d in shape)


def const(value, dtype=INT32):
    """A small constant tensor (an index vector or a scalar) of `dtype`."""
    if dtype is INT32 and type(value) is int and -2 ** 31 <= value < 2 ** 31 and _core.current_graph() is None:
        return convert_to_tensor(value, _INT32_ENUM)  # an eager axis: converted in C++, no NumPy array
    dtype = dtypes.as_dtype(dtype)
    return _core.from_numpy(np.asarray(value, dtype=dtype.as_numpy_dtype))


def scalar_like(value, x):
    """A scalar of x's dtype."""
    return convert_to_tensor(value, x._dtype_enum)


def shape(x, out_type=INT32):
    """x's shape as a 1-D int tensor: a constant when static, else a Shape op."""
    s = static_shape(x)
    if fully_known(s):
        return const(s, out_type)
    return execute1("Shape", [x], {"out_type": dtypes.as_dtype(out_type)})


def rank(x):
    """x's rank as a Python int (the gradients here need static ranks)."""
    s = static_shape(x)
    if s is None:
        raise ValueError("gradient needs a tensor of known rank, got %s" % (x,))
    return len(s)


def zeros_like(x):
    return execute1("ZerosLike", [x])


def fill_none(grads, outputs):
    """Replaces None output gradients (unused outputs) by zeros shaped like the outputs."""
    return [zeros_like(y) if g is None else g for g, y in zip(grads, outputs)]


def reshape(x, shape_tensor):
    return execute1("Reshape", [x, shape_tensor])


def reshape_like(g, x):
    """g reshaped to x's shape."""
    return reshape(g, shape(x))


def reduce_sum(x, axes, keep_dims=False):
    return execute1("Sum", [x, const(list(axes)) if not isinstance(axes, Tensor) else axes], {"keep_dims": keep_dims})


def sum_to_shape(g, x):
    """Sums the broadcast gradient `g` down to the shape of `x` (leading dims and size-1 dims)."""
    gs, xs = static_shape(g), static_shape(x)
    if gs is not None and xs is not None and fully_known(xs) and fully_known(gs):
        if gs == xs:
            return g
        lead = len(gs) - len(xs)
        axes = list(range(lead)) + [lead + i for i, d in enumerate(xs) if d == 1 and gs[lead + i] != 1]
        if axes:
            g = reduce_sum(g, axes, keep_dims=True)
        return reshape(g, const(xs))
    # Dynamic shapes: pad x's shape with leading ones and sum where it is 1 and g's is not.
    gr, xr = rank(g), rank(x)
    gshape, xshape = shape(g), shape(x)
    padded = execute1("ConcatV2", [const([1] * (gr - xr)), xshape, const(0)])
    mask = execute1("LogicalAnd", [execute1("Equal", [padded, const(1)]),
                                   execute1("NotEqual", [gshape, const(1)])])
    axes = reshape(execute1("Where", [mask]), const([-1]))
    g = execute1("Sum", [g, axes], {"keep_dims": True})
    return reshape(g, xshape)


def normalize_axis(axis, r):
    """A (possibly negative) static axis against rank r."""
    axis = int(axis)
    return axis + r if axis < 0 else axis
