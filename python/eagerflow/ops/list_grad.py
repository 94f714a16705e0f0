"""Gradients of the TensorList ops (importing this module registers them).

A list's gradient is a list of the same length whose elements are the elements' gradients; an
unset element stands for a zero gradient (readers materialize it as zeros), so a None list
gradient becomes a reserved list of the input's length. Scatter/gather gradients set elements, as
TF's do (duplicate indices are not summed)."""
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops import _grad_util as u
from eagerflow.ops._execute import execute, execute1

for _op in ("TensorListLength", "TensorListElementShape", "TensorListReserve", "EmptyTensorList"):
    no_gradient(_op)


def _dtype(op):
    return op.get_attr("element_dtype")


def _length(handle):
    return execute1("TensorListLength", [handle])


def _unknown_shape():
    return u.const(-1)


def _row_shape(t):
    """t's shape without its first dim, as an element_shape input."""
    return execute1("Slice", [u.shape(t), u.const([1]), u.const([-1])])


def _zeros_list(handle, dtype):
    """A list as long as `handle` with every element unset (all-zero gradients)."""
    return execute1("TensorListReserve", [_unknown_shape(), _length(handle)],
                    {"element_dtype": dtype, "shape_type": u.INT32})


def _list_grad(dlist, handle, dtype):
    return _zeros_list(handle, dtype) if dlist is None else dlist


@RegisterGradient("TensorListStack")
def _stack_grad(op, dy):
    return [execute1("TensorListFromTensor", [dy, _unknown_shape()], {"element_dtype": _dtype(op), "shape_type": u.INT32}),
            None]


@RegisterGradient("TensorListFromTensor")
def _from_tensor_grad(op, dlist):
    t = op.inputs[0]
    if dlist is None:
        return [u.zeros_like(t), None]
    dims = u.static_shape(t)
    n = dims[0] if dims and dims[0] is not None else -1
    return [execute1("TensorListStack", [dlist, _row_shape(t)], {"element_dtype": t.dtype, "num_elements": n}), None]


@RegisterGradient("TensorListGetItem")
def _get_item_grad(op, dy):
    handle, index = op.inputs[0], op.inputs[1]
    dtype = _dtype(op)
    return [execute1("TensorListSetItem", [_zeros_list(handle, dtype), index, dy], {"element_dtype": dtype}), None, None]


@RegisterGradient("TensorListSetItem")
def _set_item_grad(op, dlist):
    handle, index, item = op.inputs
    if dlist is None:
        return [None, None, u.zeros_like(item)]
    dtype = item.dtype
    ditem = execute1("TensorListGetItem", [dlist, index, u.shape(item)], {"element_dtype": dtype})
    dhandle = execute1("TensorListSetItem", [dlist, index, u.zeros_like(item)], {"element_dtype": dtype})
    if u.attr(op, "resize_if_index_out_of_bounds", False):
        dhandle = execute1("TensorListResize", [dhandle, _length(handle)])
    return [dhandle, None, ditem]


@RegisterGradient("TensorListPushBack")
def _push_back_grad(op, dlist):
    handle, item = op.inputs
    if dlist is None:
        return [None, u.zeros_like(item)]
    dhandle, ditem = execute("TensorListPopBack", [dlist, u.shape(item)], {"element_dtype": item.dtype})
    return [dhandle, ditem]


@RegisterGradient("TensorListPopBack")
def _pop_back_grad(op, dlist, ditem):
    dtype = _dtype(op)
    dlist = _list_grad(dlist, op.outputs[0], dtype)
    if ditem is None:
        ditem = u.zeros_like(op.outputs[1])
    return [execute1("TensorListPushBack", [dlist, ditem], {"element_dtype": dtype}), None]


@RegisterGradient("TensorListGather")
def _gather_grad(op, dy):
    handle, indices = op.inputs[0], op.inputs[1]
    dlist = execute1("TensorListScatterV2", [dy, indices, _row_shape(dy), _length(handle)],
                     {"element_dtype": _dtype(op), "shape_type": u.INT32})
    return [dlist, None, None]


@RegisterGradient("TensorListScatterV2")
def _scatter_v2_grad(op, dlist):
    t, indices = op.inputs[0], op.inputs[1]
    if dlist is None:
        return [u.zeros_like(t), None, None, None]
    return [execute1("TensorListGather", [dlist, indices, _row_shape(t)], {"element_dtype": t.dtype}), None, None, None]


@RegisterGradient("TensorListScatterIntoExistingList")
def _scatter_existing_grad(op, dlist):
    handle, t, indices = op.inputs
    if dlist is None:
        return [None, u.zeros_like(t), None]
    dt = execute1("TensorListGather", [dlist, indices, _row_shape(t)], {"element_dtype": t.dtype})
    dhandle = execute1("TensorListScatterIntoExistingList", [dlist, u.zeros_like(t), indices],
                       {"element_dtype": t.dtype})
    return [dhandle, dt, None]


@RegisterGradient("TensorListResize")
def _resize_grad(op, dlist):
    handle = op.inputs[0]
    if dlist is None:
        return [None, None]
    return [execute1("TensorListResize", [dlist, _length(handle)]), None]


@RegisterGradient("TensorListConcatV2")
def _concat_grad(op, dy, dlengths):
    lengths = op.outputs[1]
    if dy is None:
        dy = u.zeros_like(op.outputs[0])
    return [execute1("TensorListSplit", [dy, _unknown_shape(), lengths],
                     {"element_dtype": _dtype(op), "shape_type": u.INT32}), None, None]


@RegisterGradient("TensorListSplit")
def _split_grad(op, dlist):
    t, _, lengths = op.inputs
    if dlist is None:
        return [u.zeros_like(t), None, None]
    lengths = lengths if lengths.dtype == u.INT64 else execute1("Cast", [lengths], {"DstT": u.INT64})
    shape = execute1("ConcatV2", [u.const([-1]), _row_shape(t), u.const(0)])
    out = execute("TensorListConcatV2", [dlist, shape, lengths], {"element_dtype": t.dtype, "shape_type": u.INT32})
    return [out[0], None, None]

