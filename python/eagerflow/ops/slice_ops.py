"""Slicing: tf.strided_slice, tf.slice and Tensor.__getitem__ (NumPy-style indexing via StridedSlice)."""
import builtins
import contextlib
import numbers
import weakref

import numpy as np

from eagerflow import _core
from eagerflow.framework import convert as _convert
from eagerflow.framework import dtypes
from eagerflow.ops._execute import binary_inputs, convert_to_tensor, execute, execute1
from eagerflow.ops.array_ops import _int_tensor, boolean_mask

Tensor = _core.Tensor
_SLICE_TYPE_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                     "tf.int32/tf.int64 tensors are valid indices")
_INDEX_DTYPES = (3, 9, 5)  # int32, int64, int16
_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1
_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0, var=None, name=None):
    """tf.strided_slice: the StridedSlice op with TF's mask semantics. With `var` (a tf.Variable
    whose value `input_` is) the result has `assign(value)`, which writes the slice of the variable
    (ResourceStridedSliceAssign) and returns the variable."""
    if strides is None and isinstance(begin, (list, tuple)):
        strides = [1] * len(begin)
    begin = _int_tensor(begin)
    end = _int_tensor(end)
    if strides is None:
        strides = execute1("OnesLike", [begin])
    strides = _int_tensor(strides)
    masks = {"begin_mask": int(begin_mask), "end_mask": int(end_mask), "ellipsis_mask": int(ellipsis_mask),
             "new_axis_mask": int(new_axis_mask), "shrink_axis_mask": int(shrink_axis_mask)}
    result = execute1("StridedSlice", [convert_to_tensor(input_), begin, end, strides], masks)
    if var is not None:
        def assign(val, name=None):
            value = _convert.convert_to_tensor(val, dtype=var.dtype)
            execute("ResourceStridedSliceAssign", [var.handle, begin, end, strides, value], masks)
            return var._result(True)
        _assigners[id(result)] = (weakref.ref(result, lambda _, key=id(result): _assigners.pop(key, None)), assign)
    return result


# id(tensor) -> (weak reference, assign function) for the slices of variables (TF sets an `assign`
# attribute on such a tensor; tensors here have no instance dict).
_assigners = {}


def _missing_attribute(self, name):
    # Only reached when normal lookup fails, so other attributes cost nothing and dir() shows no
    # `assign` on ordinary tensors (as TF's).
    if name == "assign":
        entry = _assigners.get(id(self))
        if entry is not None and entry[0]() is self:
            return entry[1]
    return object.__getattribute__(self, name)  # raises the lookup's own AttributeError again


def slice(input_, begin, size, name=None):
    """tf.slice: `size[i]` elements from `begin[i]` in each dimension (-1: to the end)."""
    # Index has no default dtype in TF's op: begin/size take their own, a tensor's dtype fixing the
    # other's (an empty list alone is float32, which the op refuses, as in TF).
    begin, size = binary_inputs(begin, size)
    return execute1("Slice", [convert_to_tensor(input_), begin, size])


def _check_index(idx):
    if isinstance(idx, (numbers.Integral, np.integer)):
        return
    dtype = getattr(idx, "dtype", None)
    ok = dtype is not None
    if ok:
        try:
            ok = dtypes.as_dtype(dtype)._type_enum in _INDEX_DTYPES and len(getattr(idx, "shape", ())) == 0
        except TypeError:
            ok = False
    if not ok:
        raise TypeError(_SLICE_TYPE_ERROR + ", got {!r}".format(idx))


def _pack(values, graph=None):
    """Packs begin/end/strides entries (Python ints or scalar int tensors) into one index vector.

    While a graph is built the vector is a Const named "stack" (a Pack named so when an entry is a
    tensor, its constant entries "stack/<i>"), in the op's scope, as TF's slicing names them."""
    if not any(isinstance(v, Tensor) for v in values):
        ints = [int(v) for v in values]
        if any(v < _INT64_MIN or v > _INT64_MAX for v in ints):
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        big = any(v < _INT32_MIN or v > _INT32_MAX for v in ints)
        vector = _core.from_numpy(np.array(ints, np.int64 if big else np.int32))
        return vector if graph is None else _core.graph_constant(vector, "stack")
    wide = any(isinstance(v, Tensor) and v._dtype_enum == 9 for v in values)
    target = dtypes.int64 if wide else dtypes.int32
    name = None if graph is None else graph.peek_unique_name("stack")
    parts = []
    with _exact_scope(graph, name):
        for i, v in enumerate(values):
            if isinstance(v, Tensor):
                parts.append(v if v.dtype == target else execute1("Cast", [v], {"DstT": target}))
            elif graph is not None and _fits(int(v), target):
                parts.append(_core.graph_constant(_core.from_numpy(np.array(int(v), target.as_numpy_dtype)), str(i)))
            else:  # (out of range: the converter's error)
                parts.append(_core.convert_to_tensor(int(v), target._type_enum, True))
    return execute1("Pack", parts, {"axis": 0}, "stack")


def _fits(value, dtype):
    return (_INT32_MIN <= value <= _INT32_MAX) if dtype == dtypes.int32 else (_INT64_MIN <= value <= _INT64_MAX)


@contextlib.contextmanager
def _exact_scope(graph, scope):
    """Ops made inside are named under `scope` (a full name scope, not made unique again)."""
    if graph is None:
        yield
        return
    old = graph.name_scope
    graph.name_scope = scope
    try:
        yield
    finally:
        graph.name_scope = old


def _pack_indices(begin, end, strides, graph):
    """StridedSlice's begin, end and strides vectors (int64 all three when one needs it)."""
    # In a graph the op is "strided_slice" and its index vectors are Consts in that scope, so shape
    # inference sees their values (an eager tensor would be captured as a placeholder instead).
    with _exact_scope(graph, None if graph is None else graph.peek_unique_name("strided_slice")):
        if not begin:
            empty = _core.from_numpy(np.zeros((0,), np.int32))
            return [empty if graph is None else _core.graph_constant(empty, "stack") for _ in range(3)]
        packed = [_pack(begin, graph), _pack(end, graph), _pack(strides, graph)]
        if any(p.dtype == dtypes.int64 for p in packed):
            packed = [p if p.dtype == dtypes.int64 else execute1("Cast", [p], {"DstT": dtypes.int64}) for p in packed]
        return packed


# Eager slices by Python ints reuse their index vectors (immutable tensors): x[:, 0] in a loop
# packs three vectors once, not per call (two thirds of a small slice's cost).
_EAGER_PACKED = {}
_EAGER_PACKED_MAX = 512


def _packed_indices(begin, end, strides, graph):
    if graph is not None or any(isinstance(v, Tensor) for v in (*begin, *end, *strides)):
        return _pack_indices(begin, end, strides, graph)
    key = tuple(map(int, (*begin, *end, *strides)))  # ints of any kind (0-d arrays too); equal lengths
    packed = _EAGER_PACKED.get(key)
    if packed is None:
        packed = _pack_indices(begin, end, strides, None)
        if len(_EAGER_PACKED) >= _EAGER_PACKED_MAX:
            _EAGER_PACKED.clear()
        _EAGER_PACKED[key] = packed
    return packed


def _slice_helper(tensor, slice_spec, var=None):
    """Tensor.__getitem__: ints (shrink), slices with steps, Ellipsis, tf.newaxis and scalar int
    tensors become one StridedSlice; a boolean mask becomes tf.boolean_mask. `var`: see
    strided_slice."""
    if (isinstance(slice_spec, bool) or (isinstance(slice_spec, Tensor) and slice_spec.dtype == dtypes.bool)
            or (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool)):
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, builtins.slice):
            if s.start is not None:
                _check_index(s.start)
                begin.append(s.start)
            else:
                begin.append(0)
                begin_mask |= bit
            if s.stop is not None:
                _check_index(s.stop)
                end.append(s.stop)
            else:
                end.append(0)
                end_mask |= bit
            if s.step is not None:
                _check_index(s.step)
                strides.append(s.step)
            else:
                strides.append(1)
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= bit
        elif s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= bit
        else:
            _check_index(s)
            begin.append(s)
            # x[-1] is begin -1, end 0: the kernel recomputes the end of a shrunk axis.
            end.append(s + 1 if isinstance(s, Tensor) else int(s) + 1)
            strides.append(1)
            shrink_axis_mask |= bit
    tensor = convert_to_tensor(tensor)
    graph = _core.current_graph()
    packed = _packed_indices(begin, end, strides, graph)
    if var is not None:
        return strided_slice(tensor, *packed, begin_mask=begin_mask, end_mask=end_mask, ellipsis_mask=ellipsis_mask,
                             new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask, var=var)
    return execute1("StridedSlice", [tensor] + packed, {
        "begin_mask": begin_mask, "end_mask": end_mask, "ellipsis_mask": ellipsis_mask,
        "new_axis_mask": new_axis_mask, "shrink_axis_mask": shrink_axis_mask}, None if graph is None else "strided_slice")


def _getitem(self, key):
    # pybind11 iterates a sequence after a failed len() without clearing the error, so this can run
    # with an exception pending; the import statement settles it before a builtin call would turn it
    # into SystemError (_core.execute given a scalar tensor as its input list).
    from eagerflow.ops import slice_ops
    return slice_ops._slice_helper(self, key)


Tensor.__getitem__ = _getitem
Tensor.__getattr__ = _missing_attribute
