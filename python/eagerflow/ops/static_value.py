"""tf.get_static_value: a tensor's value as a NumPy array when it is known without running anything: an
eager tensor's, or a graph tensor's that a few ops compute from constants and static shapes (TF's set:
Const, Shape, Size, Rank, Range, Cast, Concat, Pack, Unpack, Split, Fill, Equal, NotEqual and the
identities), and captured eager tensors. Anything else in a graph is None, as in TF."""
import numpy as np

from eagerflow.framework import dtypes, errors
from eagerflow.framework.tensor import Tensor
from eagerflow.ops.array_extras import is_tensor


def get_static_value(tensor, partial=False):
    """The value of `tensor` if it is known statically, else None; a non-tensor is returned as it is.
    `partial`: a Pack of partly known values gives an array with None where a value is unknown."""
    if isinstance(tensor, Tensor) and not tensor._is_symbolic:
        try:
            return tensor.numpy()
        except errors.UnimplementedError:
            return None
    if not is_tensor(tensor):
        return tensor
    if not isinstance(tensor, Tensor):
        return None  # composite tensors
    return _value(tensor, partial)


def _static_dims(t):
    shape = t.shape
    return shape.as_list() if shape.is_fully_defined() else None


def _all(tensors):
    values = [_value(t, False) for t in tensors]
    return None if any(v is None for v in values) else values


def _value(t, partial):
    op = t.op
    kind = op.type
    inputs = list(op.inputs)
    if kind == "Const":
        return op.get_attr("value").numpy()
    if kind == "Shape":
        dims = _static_dims(inputs[0])
        return None if dims is None else np.array(dims, dtype=t.dtype.as_numpy_dtype)
    if kind == "Size":
        dims = _static_dims(inputs[0])
        return None if dims is None else np.array(np.prod(dims), dtype=np.int32)
    if kind == "Rank":
        rank = inputs[0].shape.rank
        return None if rank is None else np.array(rank, dtype=np.int32)
    if kind == "Range":
        v = _all(inputs)
        return None if v is None else np.arange(*v, dtype=t.dtype.as_numpy_dtype)
    if kind == "Cast":
        v = _value(inputs[0], False)
        return None if v is None else v.astype(dtypes.as_dtype(op.get_attr("DstT")).as_numpy_dtype)
    if kind in ("Concat", "ConcatV2"):
        axis, parts = (inputs[0], inputs[1:]) if kind == "Concat" else (inputs[-1], inputs[:-1])
        v = _all([axis] + parts)
        return None if v is None else np.concatenate(v[1:], axis=v[0])
    if kind == "Pack":
        if not inputs or op.get_attr("axis") != 0:
            return None
        values = [_value(x, partial) for x in inputs]
        if not partial and any(v is None for v in values):
            return None
        return np.array(values)
    if kind == "Unpack":
        if op.get_attr("axis") != 0:
            return None
        v = _value(inputs[0], partial)
        return None if v is None else v[t.value_index]
    if kind == "Split":
        axis, v = _value(inputs[0], False), _value(inputs[1], partial)
        return None if axis is None or v is None else np.split(v, op.get_attr("num_split"), axis)[t.value_index]
    if kind == "Fill":
        dims, v = _static_dims(t), _value(inputs[1], False)
        return None if dims is None or v is None else np.full(dims, v, dtype=v.dtype)
    if kind in ("Equal", "NotEqual"):
        v = _all(inputs[:2])
        return None if v is None else (np.equal if kind == "Equal" else np.not_equal)(*v)
    if kind in ("StopGradient", "Identity", "CheckNumericsV2", "DebugIdentityV2"):
        return _value(inputs[0], partial)
    if kind == "Placeholder":
        # An eager tensor the function captured. Ops on static shapes give eager tensors while tracing
        # (TF builds Consts for them), so a later op sees them as captures.
        for external, internal in getattr(op.graph, "captures", ()):
            if internal.op.name == op.name:
                return np.asarray(get_static_value(external))  # as a Const gives it
    return None
