"""The gradient of RaggedTensorToTensor (importing this module registers it): the same kernel run
on the values' positions tells which value (or the default, -1) each output cell holds."""
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute1

_INT64 = dtypes.int64


@RegisterGradient("RaggedTensorToTensor")
def _ragged_to_tensor_grad(op, grad):
    _, values, default = op.inputs[:3]
    partitions = list(op.inputs[3:])
    k = len(partitions)
    vshape = execute1("Shape", [values], {"out_type": _INT64})
    n = execute1("StridedSlice", [vshape, u.const([0]), u.const([1]), u.const([1])],
                 {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})
    outer = execute1("Slice", [execute1("Shape", [grad], {"out_type": _INT64}), u.const([0], _INT64),
                               u.const([k + 1], _INT64)])
    positions = execute1("Range", [u.const(0, _INT64), n, u.const(1, _INT64)])
    source = execute1("RaggedTensorToTensor", [outer, positions, u.const(-1, _INT64)] + partitions,
                      {"num_row_partition_tensors": k, "row_partition_types": ["ROW_SPLITS"] * k})
    source = execute1("Reshape", [source, u.const([-1], _INT64)])
    inner = execute1("Slice", [vshape, u.const([1], _INT64), u.const([-1], _INT64)])
    rows = execute1("Reshape", [grad, execute1("ConcatV2", [u.const([-1], _INT64), inner, u.const(0)])])
    values_grad = execute1("UnsortedSegmentSum", [rows, source, n])  # cells of the default (-1) drop out
    unfilled = execute1("Cast", [execute1("Equal", [source, u.const(-1, _INT64)])], {"DstT": grad.dtype})
    unfilled = execute1("Reshape", [unfilled, execute1("ConcatV2", [u.const([-1], _INT64),
                                                                    execute1("OnesLike", [inner]), u.const(0)])])
    default_rows = execute1("Sum", [execute1("Mul", [rows, unfilled]), u.const([0])], {"keep_dims": False})
    if u.rank(default) == 0:
        default_grad = execute1("Sum", [execute1("Reshape", [default_rows, u.const([-1])]), u.const([0])],
                                {"keep_dims": False})
    else:
        default_grad = execute1("Reshape", [default_rows, execute1("Shape", [default])])
    return [None, values_grad, default_grad] + [None] * k
