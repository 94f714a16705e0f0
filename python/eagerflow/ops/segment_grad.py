"""Gradients of the segment reductions and the scatters, as TF's formulas: sums gather the output
gradient back, min/max share it evenly among the selected entries, prod divides the product (with
TF's cases for zeros), and the TensorScatter* ops split it between the tensor and the updates."""
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute1

def _gather(params, ids):
    return execute1("GatherV2", [params, ids, u.const(0)])


def _where(cond, x, y):
    return execute1("SelectV2", [cond, x, y])


def _cast(x, dtype):
    return execute1("Cast", [x], {"DstT": dtype})


def _ones_like(x):
    return execute1("OnesLike", [x])


@RegisterGradient("SegmentSum")
def _segment_sum_grad(op, grad):
    return [_gather(grad, op.inputs[1]), None]


@RegisterGradient("SegmentMean")
def _segment_mean_grad(op, grad):
    data, ids = op.inputs
    ones_shape = execute1("ConcatV2", [execute1("Shape", [ids]), _trailing_ones(data, ids), u.const(0)])
    ones = execute1("Fill", [ones_shape, u.scalar_like(1, grad)])
    scaled = execute1("RealDiv", [grad, execute1("SegmentSum", [ones, ids])])
    return [_gather(scaled, ids), None]


def _segment_min_or_max_grad(op, grad):
    data, ids = op.inputs
    is_selected = execute1("Equal", [data, _gather(op.outputs[0], ids)])
    num_selected = execute1("SegmentSum", [_cast(is_selected, grad.dtype), ids])
    gathered = _gather(execute1("RealDiv", [grad, num_selected]), ids)
    return [_where(is_selected, gathered, u.zeros_like(data)), None]


RegisterGradient("SegmentMin")(_segment_min_or_max_grad)
RegisterGradient("SegmentMax")(_segment_min_or_max_grad)


def _prod_grad(op, grad, segment_op, gather, gather_grad):
    """TF's three cases: no zero in a segment (prod / x), one zero (the product of the others at
    the zero, 0 elsewhere), two or more zeros (0)."""
    data = op.inputs[0]
    segment_args = list(op.inputs[1:])
    is_zero = execute1("Equal", [data, u.scalar_like(0, data)])
    num_zeros = execute1(segment_op.replace("Prod", "Sum"), [_cast(is_zero, u.INT32)] + segment_args)
    grad = _where(execute1("Greater", [num_zeros, u.const(1)]), u.zeros_like(grad), grad)
    non_zero_data = _where(is_zero, _ones_like(data), data)
    non_zero_prod = execute1(segment_op, [non_zero_data] + segment_args)
    prod_divided_by_el = execute1("RealDiv", [gather(op.outputs[0]), data if "Unsorted" in segment_op
                                              else non_zero_data])
    partial = _where(is_zero, gather(non_zero_prod), prod_divided_by_el)
    return execute1("Mul", [gather_grad(grad), partial])


@RegisterGradient("SegmentProd")
def _segment_prod_grad(op, grad):
    gather = lambda t: _gather(t, op.inputs[1])  # noqa: E731
    return [_prod_grad(op, grad, "SegmentProd", gather, gather), None]


def _trailing_ones(x, prefix):
    """[1] * (rank(x) - rank(prefix)), computed in the graph (ranks may be unknown while tracing)."""
    extra = execute1("Sub", [execute1("Rank", [x]), execute1("Rank", [prefix])])
    return execute1("Fill", [execute1("ExpandDims", [extra, u.const(0)]), u.const(1)])


def _gather_drop_negatives(params, ids, zero_clipped=None, is_positive=None):
    """params gathered at max(ids, 0), zero where an id is negative (a dropped row)."""
    if zero_clipped is None:
        zero_clipped = execute1("Maximum", [ids, u.zeros_like(ids)])
    gathered = _gather(params, zero_clipped)
    if is_positive is None:
        is_positive = execute1("GreaterEqual", [ids, u.zeros_like(ids)])
        shape = execute1("ConcatV2", [execute1("Shape", [is_positive]), _trailing_ones(gathered, is_positive), u.const(0)])
        is_positive = u.reshape(is_positive, shape)
        true = execute1("Fill", [execute1("Shape", [gathered]), u.const(True, dtypes.bool)])
        is_positive = execute1("LogicalAnd", [is_positive, true])
    return _where(is_positive, gathered, u.zeros_like(gathered)), zero_clipped, is_positive


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    return [_gather_drop_negatives(grad, op.inputs[1])[0], None, None]


def _unsorted_segment_min_or_max_grad(op, grad):
    data, ids, num = op.inputs
    gathered_outputs, zero_clipped, is_positive = _gather_drop_negatives(op.outputs[0], ids)
    is_selected = execute1("LogicalAnd", [execute1("Equal", [data, gathered_outputs]), is_positive])
    num_selected = execute1("UnsortedSegmentSum", [_cast(is_selected, grad.dtype), ids, num])
    weighted = execute1("RealDiv", [grad, num_selected])
    gathered, _, _ = _gather_drop_negatives(weighted, None, zero_clipped, is_positive)
    return [_where(is_selected, gathered, u.zeros_like(gathered)), None, None]


RegisterGradient("UnsortedSegmentMin")(_unsorted_segment_min_or_max_grad)
RegisterGradient("UnsortedSegmentMax")(_unsorted_segment_min_or_max_grad)


@RegisterGradient("UnsortedSegmentProd")
def _unsorted_segment_prod_grad(op, grad):
    clipped = execute1("Maximum", [op.inputs[1], u.zeros_like(op.inputs[1])])
    return [_prod_grad(op, grad, "UnsortedSegmentProd", lambda t: _gather(t, clipped),
                       lambda g: _gather_drop_negatives(g, op.inputs[1], clipped)[0]), None, None]


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    indices = op.inputs[1]
    updates_grad = execute1("GatherNd", [grad, indices])
    tensor_grad = execute1("TensorScatterUpdate", [grad, indices, u.zeros_like(op.inputs[2])])
    return [tensor_grad, None, updates_grad]


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    return [grad, None, execute1("GatherNd", [grad, op.inputs[1]])]


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    return [grad, None, execute1("Neg", [execute1("GatherNd", [grad, op.inputs[1]])])]


def _tensor_scatter_min_or_max_grad(op, grad):
    x, indices, y = op.inputs
    output = op.outputs[0]
    x_indicators = _cast(execute1("Equal", [x, output]), grad.dtype)
    y_output = execute1("GatherNd", [output, indices])
    y_indicators = _cast(execute1("Equal", [y, y_output]), grad.dtype)
    ys_indicators = execute1("ScatterNd", [indices, y_indicators, u.shape(x, indices.dtype)])
    indicators = execute1("AddV2", [x_indicators, ys_indicators])  # every element >= 1
    x_grad = execute1("RealDiv", [execute1("Mul", [grad, x_indicators]), indicators])
    y_grad = execute1("Mul", [execute1("GatherNd", [execute1("RealDiv", [grad, indicators]), indices]), y_indicators])
    return [x_grad, None, y_grad]


RegisterGradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)
RegisterGradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)


@RegisterGradient("TensorStridedSliceUpdate")
def _tensor_strided_slice_update_grad(op, grad):
    _, begin, end, strides, value = op.inputs
    masks = {k: u.attr(op, k, 0) for k in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                           "shrink_axis_mask")}
    dy = execute1("StridedSlice", [grad, begin, end, strides], masks)
    dx = execute1("TensorStridedSliceUpdate", [grad, begin, end, strides, u.zeros_like(dy)], masks)
    return [dx, None, None, None, u.sum_to_shape(dy, value)]
