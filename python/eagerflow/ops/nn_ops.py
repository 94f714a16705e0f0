"""tf.nn.softmax / log_softmax (Softmax, LogSoftmax ops) and tf.clip_by_norm composed from ops."""
from eagerflow.framework import errors
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
