"""tf.nn.softmax / log_softmax (Softmax, LogSoftmax ops) and tf.clip_by_norm composed from ops."""
import collections.abc

from eagerflow.framework import errors
from eagerflow.framework.indexed_slices import IndexedSlices
from eagerflow.ops import _execute, reduction_ops

_INT32 = 3


def _softmax(op, logits, axis):
    x = _execute.convert_to_tensor(logits)
    if axis is None:
        return _execute.execute1(op, [x])
    rank = x.ndim
    if not -rank <= axis < rank:  # before int(): inf and nan are out of range too
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of dimensions "
            f"in the input. Received: dim={axis}")
    axis = int(axis) % rank
    if axis == rank - 1:
        return _execute.execute1(op, [x])
    # The ops work on the last axis: swap `axis` to the end and back.
    try:
        _execute.op_def("Transpose")
    except errors.NotFoundError:
        raise NotImplementedError("softmax over a non-last axis needs the Transpose op, which this build "
                                  "lacks") from None
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    p = _execute.convert_to_tensor(perm, _INT32)
    y = _execute.execute1(op, [_execute.execute1("Transpose", [x, p])])
    return _execute.execute1("Transpose", [y, p])


def softmax(logits, axis=None, name=None):
    """exp(logits) / sum(exp(logits)) along `axis` (default: the last)."""
    return _softmax("Softmax", logits, axis)


def log_softmax(logits, axis=None, name=None):
    """logits - log(sum(exp(logits))) along `axis` (default: the last)."""
    return _softmax("LogSoftmax", logits, axis)


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """Rescales `t` so its L2 norm over `axes` (all when None) is at most `clip_norm`."""
    t = _execute.convert_to_tensor(t)
    ex = _execute.execute1
    # A negative bound clips to zero, as TF does.
    if isinstance(clip_norm, (int, float)):
        clip_norm = _execute.convert_to_tensor(max(clip_norm, 0), t._dtype_enum)
    else:
        clip_norm = _execute.convert_to_tensor(clip_norm, t._dtype_enum)
        clip_norm = ex("Maximum", [clip_norm, ex("ZerosLike", [clip_norm])])
    ax = reduction_ops._axes(t, axes)
    l2sum = ex("Sum", [ex("Mul", [t, t]), ax], {"keep_dims": True})
    # sqrt only where the sum is positive: a zero `t` keeps a zero (not NaN) gradient.
    positive = ex("Greater", [l2sum, ex("ZerosLike", [l2sum])])
    safe = ex("SelectV2", [positive, l2sum, ex("OnesLike", [l2sum])])
    l2norm = ex("SelectV2", [positive, ex("Sqrt", [safe]), l2sum])
    return ex("RealDiv", [ex("Mul", [t, clip_norm]), ex("Maximum", [l2norm, clip_norm])])


def global_norm(t_list, name=None):
    """sqrt(sum of the squared L2 norms of the tensors in `t_list`), None entries skipped."""
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    ex = _execute.execute1
    squares = []
    for t in t_list:
        if t is None:
            continue
        t = t.values if isinstance(t, IndexedSlices) else _execute.convert_to_tensor(t)  # TF: the rows as given
        squares.append(ex("Sum", [ex("Mul", [t, t]), reduction_ops._axes(t, None)]))
    if not squares:
        return _execute.convert_to_tensor(0.0)
    from eagerflow.ops import math_ops
    return ex("Sqrt", [math_ops.add_n(squares)])


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor by clip_norm / max(global_norm, clip_norm); returns (tensors, global_norm).
    An infinite global norm gives NaN tensors, as in TF."""
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    t_list = list(t_list)
    norm = global_norm(t_list) if use_norm is None else _execute.convert_to_tensor(use_norm)
    ex = _execute.execute1
    clip = _execute.convert_to_tensor(clip_norm, norm._dtype_enum)
    one = ex("OnesLike", [norm])
    # clip * min(1 / norm, 1 / clip), plus (norm - norm): NaN for an infinite or NaN norm, 0 otherwise
    scale = ex("Mul", [clip, ex("Minimum", [ex("RealDiv", [one, norm]), ex("RealDiv", [one, clip])])])
    scale = ex("AddV2", [scale, ex("Sub", [norm, norm])])
    out = []
    for t in t_list:
        if t is None:
            out.append(None)
            continue
        if isinstance(t, IndexedSlices):  # scaled rows, still sparse
            s = scale if t.dtype == scale.dtype else ex("Cast", [scale], {"DstT": t.dtype})
            out.append(IndexedSlices(ex("Mul", [t.values, s]), t.indices, t.dense_shape))
            continue
        t = _execute.convert_to_tensor(t)
        s = scale if t._dtype_enum == scale._dtype_enum else ex("Cast", [scale], {"DstT": t.dtype})
        out.append(ex("Mul", [t, s]))
    return out, norm
