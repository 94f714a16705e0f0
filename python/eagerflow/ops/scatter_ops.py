"""tf.tensor_scatter_nd_{update,add,sub,min,max}: a copy of `tensor` with `updates` combined in at
the index vectors of `indices` (TensorScatter* ops; updates to one place apply in order)."""
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute1
from eagerflow.ops.grad_support_ops import _index


def _scatter(op_name, doc):
    def fn(tensor, indices, updates, name=None):
        tensor = convert_to_tensor(tensor)
        return execute1(op_name, [tensor, _index(indices), convert_to_tensor(updates, tensor.dtype)])
    fn.__doc__ = doc
    return fn


tensor_scatter_nd_update = _scatter("TensorScatterUpdate", "`tensor` with `updates` written at `indices`.")
tensor_scatter_nd_add = _scatter("TensorScatterAdd", "`tensor` with `updates` added at `indices`.")
tensor_scatter_nd_sub = _scatter("TensorScatterSub", "`tensor` with `updates` subtracted at `indices`.")
tensor_scatter_nd_min = _scatter("TensorScatterMin", "`tensor` with the minimum of it and `updates` at `indices`.")
tensor_scatter_nd_max = _scatter("TensorScatterMax", "`tensor` with the maximum of it and `updates` at `indices`.")
