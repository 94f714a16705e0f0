"""tf.sequence_mask, tf.math.reciprocal_no_nan, tf.math.reduce_euclidean_norm and tf.linalg.normalize,
composed from other ops as TF composes them."""
from eagerflow.framework import dtypes
from eagerflow.ops import _execute, array_ops, math_ops, norm_ops, reduction_ops

_ex = _execute.execute1


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...]: a row per length, maxlen (default: the largest length) wide."""
    lengths = _execute.convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = _ex("Max", [lengths, reduction_ops._axes(lengths, None)], {"keep_dims": False})
        maxlen = _ex("Maximum", [_execute.convert_to_tensor(0, maxlen._dtype_enum), maxlen])
    else:
        maxlen = _execute.convert_to_tensor(maxlen)
    if maxlen.shape.rank is not None and maxlen.shape.rank != 0:
        raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} with "
                         f"shape '{maxlen.shape}' instead")
    zero, one = (_execute.convert_to_tensor(v, maxlen._dtype_enum) for v in (0, 1))
    row = _ex("Range", [zero, maxlen, one], {"Tidx": maxlen.dtype})
    col = _ex("Cast", [array_ops.expand_dims(lengths, -1)], {"DstT": maxlen.dtype})
    result = _ex("Less", [row, col], None, name)
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    return result if dtype is None or dtype == dtypes.bool else _ex("Cast", [result], {"DstT": dtype})


def reciprocal_no_nan(x, name=None):
    """1 / x, 0 where x is 0 (floating and complex x only)."""
    x = _execute.convert_to_tensor(x)
    return _ex("DivNoNan", [_execute.convert_to_tensor(1, x._dtype_enum), x], None, name)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x ** 2)) across dimensions; integers give the root truncated, in their own dtype."""
    x = _execute.convert_to_tensor(input_tensor)
    wide = x if x.dtype.is_floating or x.dtype.is_complex else math_ops.cast(x, dtypes.float64)
    if wide.dtype.is_complex:
        wide = math_ops.abs(wide)
    root = math_ops.sqrt(reduction_ops.reduce_sum(wide * wide, axis=axis, keepdims=keepdims))
    return root if root.dtype == x.dtype else math_ops.cast(root, x.dtype)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # pylint: disable=redefined-builtin
    """(tensor / its `ord` norm over `axis`, the norm with the reduced dims kept), as tf.linalg.normalize."""
    x = _execute.convert_to_tensor(tensor)
    norm = norm_ops.norm(x, ord=ord, axis=axis, keepdims=True)
    return math_ops.divide(x, norm, name=name), norm
