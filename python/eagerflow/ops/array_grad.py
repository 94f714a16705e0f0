"""Gradients of the shape, slicing and data-movement ops (importing this module registers them).

A gather on axis 0 returns tf.IndexedSlices as TF's does; other gathers sum the gathered rows back
with UnsortedSegmentSum / ScatterNd."""
import numpy as np

from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.framework.indexed_slices import IndexedSlices
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute, execute1


@RegisterGradient("Reshape")
def _reshape_grad(op, grad):
    return [u.reshape_like(grad, op.inputs[0]), None]


@RegisterGradient("ExpandDims")
def _expand_dims_grad(op, grad):
    return [u.reshape_like(grad, op.inputs[0]), None]


@RegisterGradient("Squeeze")
def _squeeze_grad(op, grad):
    return [u.reshape_like(grad, op.inputs[0])]


@RegisterGradient("Transpose")
def _transpose_grad(op, grad):
    perm = op.inputs[1]
    p = u.static_value(perm)
    if p is not None:
        inv = u.const(np.argsort(p.reshape(-1)), perm.dtype)
    else:
        inv = execute1("InvertPermutation", [perm])
    return [execute1("Transpose", [grad, inv]), None]


def _axis_sizes(values, axis):
    """The sizes of `values` along `axis` (a static or dynamic axis tensor) as a 1-D int tensor."""
    a = u.static_value(axis)
    shapes = [u.static_shape(v) for v in values]
    if a is not None and all(s is not None for s in shapes):
        ax = u.normalize_axis(a, len(shapes[0]))
        if all(s[ax] is not None for s in shapes):
            return u.const([s[ax] for s in shapes], u.INT64 if axis.dtype == u.INT64 else u.INT32)
    out_type = u.INT64 if axis.dtype == u.INT64 else u.INT32
    r = u.const(u.rank(values[0]), axis.dtype)
    ax = execute1("FloorMod", [axis, r])
    return execute1("Pack", [execute1("GatherV2", [u.shape(v, out_type), ax, u.const(0)]) for v in values],
                    {"axis": 0})


@RegisterGradient("ConcatV2")
def _concat_grad(op, grad):
    values, axis = op.inputs[:-1], op.inputs[-1]
    if len(values) == 1:
        return [grad, None]
    sizes = _axis_sizes(values, axis)
    split_dim = axis if axis.dtype == u.INT32 else execute1("Cast", [axis], {"DstT": u.INT32})  # SplitV's is int32
    parts = execute("SplitV", [grad, sizes, split_dim], {"num_split": len(values)})
    return list(parts) + [None]


@RegisterGradient("Pack")
def _pack_grad(op, grad):
    n = len(op.inputs)
    return list(execute("Unpack", [grad], {"num": n, "axis": u.attr(op, "axis", 0)}))


@RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
    return [execute1("Pack", u.fill_none(grads, op.outputs), {"axis": u.attr(op, "axis", 0)})]


@RegisterGradient("Split")
def _split_grad(op, *grads):
    return [None, execute1("ConcatV2", u.fill_none(grads, op.outputs) + [op.inputs[0]])]


@RegisterGradient("SplitV")
def _splitv_grad(op, *grads):
    return [execute1("ConcatV2", u.fill_none(grads, op.outputs) + [op.inputs[2]]), None, None]


@RegisterGradient("Slice")
def _slice_grad(op, grad):
    x, begin = op.inputs[0], op.inputs[1]
    b, xs, ys = u.static_value(begin), u.static_shape(x), u.static_shape(op.outputs[0])
    if b is not None and u.fully_known(xs) and u.fully_known(ys):
        b = b.reshape(-1)
        pads = [[int(b[d]), xs[d] - int(b[d]) - ys[d]] for d in range(len(xs))]
        paddings = u.const(np.asarray(pads, np.int64).reshape(len(xs), 2), begin.dtype)
    else:
        after = execute1("Sub", [execute1("Sub", [u.shape(x, begin.dtype), begin]), u.shape(op.outputs[0], begin.dtype)])
        paddings = execute1("Pack", [begin, after], {"axis": 1})
    return [execute1("Pad", [grad, paddings]), None, None]


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, grad):
    x, begin, end, strides = op.inputs
    attrs = {m: u.attr(op, m, 0) for m in _MASKS}
    dx = execute1("StridedSliceGrad", [u.shape(x, begin.dtype), begin, end, strides, grad], attrs)
    return [dx, None, None, None]


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    attrs = {m: u.attr(op, m, 0) for m in _MASKS}
    return [None, None, None, None, execute1("StridedSlice", [grad] + list(op.inputs[1:4]), attrs)]


def _int64_ids(t):
    return t if t.dtype in (u.INT32, u.INT64) else execute1("Cast", [t], {"DstT": u.INT64})


@RegisterGradient("GatherV2")
def _gather_grad(op, grad):
    """Dense gradient: move the index dims in front, sum rows by index, move the axis back.

    params [B.., O.., N, I..] (batch dims B, outer O, gathered axis N, inner I), indices [B.., J..],
    grad [B.., O.., J.., I..]."""
    params, indices, axis_t = op.inputs
    a = u.static_value(axis_t)
    if a is None:
        raise ValueError("GatherV2 gradient needs a constant axis")
    pr, ir = u.rank(params), u.rank(indices)
    bd = int(u.attr(op, "batch_dims", 0))
    if bd < 0:
        bd += ir
    axis = u.normalize_axis(a.reshape(-1)[0], pr)
    if axis == 0 and bd == 0:
        # TF's sparse gradient: the gathered rows, flattened, at their indices.
        size = execute1("Reshape", [execute1("Size", [indices]), u.const([1])])
        pshape = u.shape(params, u.INT32)
        rows = execute1("Slice", [pshape, u.const([1]), u.const([-1])])
        values = u.reshape(grad, execute1("ConcatV2", [size, rows, u.const(0)]))
        return [IndexedSlices(values, u.reshape(indices, size), pshape), None, None]
    nb, no, nj = bd, axis - bd, ir - bd
    ni = pr - axis - 1
    # grad -> [B, J, O, I]
    perm = (list(range(nb)) + list(range(nb + no, nb + no + nj)) + list(range(nb, nb + no))
            + list(range(nb + no + nj, nb + no + nj + ni)))
    g = grad if perm == list(range(len(perm))) else execute1("Transpose", [grad, u.const(perm)])
    pshape = u.shape(params, u.INT64)
    gshape = u.shape(g, u.INT64)
    n = execute1("GatherV2", [pshape, u.const(axis), u.const(0)])
    bsize = execute1("Prod", [execute1("Slice", [pshape, u.const([0], u.INT64), u.const([nb], u.INT64)]),
                              u.const(0)], {"keep_dims": False})
    rest = execute1("Slice", [gshape, u.const([nb + nj], u.INT64), u.const([-1], u.INT64)])  # [O.., I..]
    g = u.reshape(g, execute1("ConcatV2", [u.const([-1], u.INT64), rest, u.const(0)]))
    ids = execute1("Cast", [indices], {"DstT": u.INT64})
    if nb:
        # Row b*N + idx for batch entry b.
        offsets = execute1("Mul", [execute1("Range", [u.const(0, u.INT64), bsize, u.const(1, u.INT64)]), n])
        ids = execute1("AddV2", [u.reshape(ids, execute1("Pack", [bsize, u.const(-1, u.INT64)], {"axis": 0})),
                                 u.reshape(offsets, u.const([-1, 1], u.INT64))])
    ids = u.reshape(ids, u.const([-1], u.INT64))
    nseg = execute1("Mul", [bsize, n])
    s = execute1("UnsortedSegmentSum", [g, ids, nseg])  # [B*N, O.., I..]
    bdims = execute1("Slice", [pshape, u.const([0], u.INT64), u.const([nb], u.INT64)])
    s = u.reshape(s, execute1("ConcatV2", [bdims, execute1("Reshape", [n, u.const([1], u.INT64)]), rest,
                                           u.const(0)]))  # [B, N, O, I]
    back = list(range(nb)) + list(range(nb + 1, nb + 1 + no)) + [nb] + list(range(nb + 1 + no, pr))
    if back != list(range(pr)):
        s = execute1("Transpose", [s, u.const(back)])
    return [s, None, None]


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    ids = _int64_ids(indices)
    return [execute1("ScatterNd", [ids, grad, u.shape(params, ids.dtype)]), None]


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return [None, execute1("GatherNd", [grad, op.inputs[0]]), None]


def _paddings_begin_size(paddings, x):
    """(begin, size) of the unpadded region for Slice."""
    p = u.static_value(paddings)
    xs = u.static_shape(x)
    if p is not None and u.fully_known(xs):
        return u.const(p[:, 0], paddings.dtype), u.const(xs, paddings.dtype)
    begin = u.reshape(execute1("Slice", [paddings, u.const([0, 0], paddings.dtype), u.const([-1, 1], paddings.dtype)]),
                      u.const([-1]))
    return begin, u.shape(x, paddings.dtype)


@RegisterGradient("Pad")
def _pad_grad(op, grad):
    begin, size = _paddings_begin_size(op.inputs[1], op.inputs[0])
    return [execute1("Slice", [grad, begin, size]), None]


@RegisterGradient("PadV2")
def _padv2_grad(op, grad):
    # Like TF, constant_values gets no gradient.
    begin, size = _paddings_begin_size(op.inputs[1], op.inputs[0])
    return [execute1("Slice", [grad, begin, size]), None, None]


@RegisterGradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    mode = u.attr(op, "mode", "REFLECT")
    return [execute1("MirrorPadGrad", [grad, op.inputs[1]], {"mode": mode}), None]


@RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    mode = u.attr(op, "mode", "REFLECT")
    return [execute1("MirrorPad", [grad, op.inputs[1]], {"mode": mode}), None]


@RegisterGradient("Roll")
def _roll_grad(op, grad):
    """The output gradient rolled back."""
    _, shift, axis = op.inputs
    return [execute1("Roll", [grad, execute1("Neg", [shift]), axis]), None, None]


@RegisterGradient("Tile")
def _tile_grad(op, grad):
    """grad viewed as [m0, s0, m1, s1, ...] summed over the multiples axes."""
    x, multiples = op.inputs
    r = u.rank(x)
    if r == 0:
        return [grad, None]
    xs, m = u.static_shape(x), u.static_value(multiples)
    if u.fully_known(xs) and m is not None:
        split = u.const([v for pair in zip(m.reshape(-1).tolist(), xs) for v in pair], u.INT64)
    else:
        split = u.reshape(execute1("Pack", [multiples, u.shape(x, multiples.dtype)], {"axis": 1}), u.const([-1]))
    g = u.reshape(grad, split)
    g = u.reduce_sum(g, range(0, 2 * r, 2))
    return [u.reshape_like(g, x), None]


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    return [u.sum_to_shape(grad, op.inputs[0]), None]


@RegisterGradient("ReverseV2")
def _reverse_grad(op, grad):
    return [execute1("ReverseV2", [grad, op.inputs[1]]), None]


@RegisterGradient("Fill")
def _fill_grad(op, grad):
    r = u.rank(grad)
    return [None, u.reduce_sum(grad, range(r))]


@RegisterGradient("SelectV2")
def _select_grad(op, grad):
    c, t, e = op.inputs
    zeros = u.zeros_like(grad)
    gt = execute1("SelectV2", [c, grad, zeros])
    ge = execute1("SelectV2", [c, zeros, grad])
    return [None, u.sum_to_shape(gt, t), u.sum_to_shape(ge, e)]


@RegisterGradient("Cumsum")
def _cumsum_grad(op, grad):
    attrs = {"exclusive": bool(u.attr(op, "exclusive", False)), "reverse": not u.attr(op, "reverse", False)}
    return [execute1("Cumsum", [grad, op.inputs[1]], attrs), None]


@RegisterGradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    msg = "Not a number (NaN) or infinity (Inf) values detected in gradient. " + str(u.attr(op, "message", ""))
    return [execute1("CheckNumerics", [grad], {"message": msg})]


@RegisterGradient("EnsureShape")
def _ensure_shape_grad(op, grad):
    return [grad]


# Integer-valued, boolean, string, random or shape-only outputs: no gradient flows through them.
for _t in ("Shape", "Size", "Rank", "OneHot", "ZerosLike", "OnesLike", "Where", "Range", "LinSpace", "ArgMax",
           "ArgMin", "InvertPermutation",
           "RandomShuffle", "RandomStandardNormal", "RandomUniform", "RandomUniformInt", "TruncatedNormal",
           "Multinomial", "StatelessMultinomial", "StatelessRandomUniformV2", "StatelessRandomNormalV2",
           "StatelessTruncatedNormalV2", "StatelessRandomUniformIntV2", "StatelessRandomUniformFullIntV2",
           "StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg", "StatelessRandomGetAlg",
           "RngReadAndSkip", "NonDeterministicInts",
           "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift",
           "StringFormat", "StringJoin", "StringLength", "StringSplit", "StringSplitV2", "StringUpper", "StringLower",
           "StringStrip", "Substr", "ReduceJoin", "StringToNumber", "AsString", "StringToHashBucketFast",
           "StringToHashBucketStrong", "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnicodeTranscode",
           "UnicodeScript",
           "RegexFullMatch", "StaticRegexFullMatch", "RegexReplace", "StaticRegexReplace",
           "Const", "Placeholder", "NoOp", "Assert", "PrintV2", "Timestamp"):
    no_gradient(_t)
