"""tf.TensorArray over the TensorList ops: its state is one variant `flow` tensor, in eager code,
in tf.function graphs and as a graph loop variable alike (TF2's TensorList-backed TensorArray).

Eagerly TF's TensorArray is shared mutable state (`ta.write` returns a new object that sees the same
writes, and the old one sees them too): eager wrappers share one `_State`. In graphs every write
returns a TensorArray with a new flow tensor and leaves the old one as it was. Checks that TF's eager
TensorArray makes in Python (index ranges, dtypes, clear_after_read) are made here with its messages;
in graphs the kernels report them when the graph runs, as TF's TensorList kernels do.
"""
import weakref

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes as _dtypes
from eagerflow.framework import errors
from eagerflow.framework.tensor_shape import TensorShape, as_shape
from eagerflow.ops._execute import execute, execute1, convert_to_tensor
from eagerflow.framework.trace import TraceType

Tensor = _core.Tensor


def _eager():
    return _core.current_graph() is None


def _shape_tensor(shape):
    """An element_shape input: -1 for an unknown rank, else a vector with -1 for unknown dims."""
    if shape.rank is None:
        return convert_to_tensor(-1, _dtypes.int32._type_enum)
    dims = [-1 if d is None else d for d in shape.as_list()]
    if any(d >= 2 ** 63 for d in dims):
        raise ValueError(f"Can't convert Python sequence with out-of-range integer to Tensor: {dims}")
    wide = any(d >= 2 ** 31 for d in dims)  # int64 element shapes, as TF builds them for big dims
    return convert_to_tensor(np.array(dims, np.int64 if wide else np.int32))


def _int32(x):
    """An index argument: tensors as they are, Python values exactly int32 (TypeError otherwise)."""
    if isinstance(x, Tensor):
        return x
    from eagerflow.framework.convert import convert_to_tensor as convert_exact
    return convert_exact(x, dtype=_dtypes.int32)


def _shape_str(shape):
    """TensorShape as TF's TensorArray messages print it: (2,), (), <unknown>."""
    return str(shape) if shape.rank is None else str(tuple(shape.as_list()))


class _State:
    """What a TensorArray is: the flow plus the static facts Python tracks about it."""
    __slots__ = ("flow", "element_shape", "size", "written", "cleared")

    def __init__(self, flow, element_shape, size, written=None):
        self.flow = flow
        self.element_shape = element_shape
        self.size = size            # Python int when known statically (always eagerly)
        self.written = written      # eager: indices written (reads of others give zeros or fail)
        self.cleared = set()        # eager clear_after_read: indices already read


class _Meta:
    """__tf_flatten__ metadata. Element shapes may be refined inside a loop body, so they ride
    along without taking part in structure comparisons."""
    __slots__ = ("dtype", "dynamic_size", "clear_after_read", "infer_shape", "element_shape", "size")

    def __init__(self, dtype, dynamic_size, clear_after_read, infer_shape, element_shape, size):
        self.dtype = dtype
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        self.infer_shape = infer_shape
        self.element_shape = element_shape
        self.size = size

    def _key(self):
        return (self.dtype, self.dynamic_size, self.infer_shape)

    def __eq__(self, other):
        return isinstance(other, _Meta) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "TensorArraySpec(dtype=%r, element_shape=%r, dynamic_size=%r)" % (
            self.dtype, self.element_shape, self.dynamic_size)


class _TensorArrayType(TraceType):
    """The tf.function argument type of a TensorArray: its flow by identity (a weak reference).
    The trace sees the array itself (its flow is captured), so an array changed since (an eager
    write) must not reuse it: it retraces. TF instead feeds the flow as a placeholder; that needs a
    composite TraceType in function/trace_type.py."""

    def __init__(self, ta):
        flow = ta._state.flow
        self._ref = weakref.ref(flow)
        self._key = (id(flow), ta._dtype, ta._dynamic_size)

    def __eq__(self, other):
        return (type(other) is _TensorArrayType and self._key == other._key and self._ref() is not None
                and self._ref() is other._ref())

    def __hash__(self):
        return hash(self._key)

    def is_subtype_of(self, other):
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(self == o for o in others) else None


class TensorArray:
    """Class wrapping dynamic-sized, per-time-step, write-once Tensor arrays."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        self._dtype = _dtypes.as_dtype(dtype)
        self._dynamic_size = bool(dynamic_size)
        eager = _eager()
        # TF: eager arrays clear elements after a read unless told not to; graph (TensorList) ones never do.
        self._clear_after_read = (True if clear_after_read is None else bool(clear_after_read)) if eager else False
        self._infer_shape = infer_shape
        shape = TensorShape(None) if element_shape is None else as_shape(element_shape)
        if flow is not None:
            if not isinstance(flow, Tensor) or flow.dtype != _dtypes.variant:
                raise TypeError("flow must be a variant (TensorList) tensor, got %r" % (flow,))
            self._state = _State(flow, shape, None)
            if eager:
                self._state.size = int(execute1("TensorListLength", [flow]))
                self._state.written = set(range(self._state.size))
            return
        if size is None:
            if eager:
                raise ValueError("Size must be declared for TensorArrays when eager execution is enabled.")
            raise ValueError("Size must be provided if handle is not provided")
        static_size = None
        if not isinstance(size, Tensor) or not size._is_symbolic:
            static_size = int(size)
        flow = execute1("TensorListReserve", [_shape_tensor(shape), _int32(size)],
                        {"element_dtype": self._dtype, "shape_type": _dtypes.int32}, "TensorArrayV2")
        self._state = _State(flow, shape, static_size, set() if eager else None)

    @classmethod
    def _wrap(cls, dtype, dynamic_size, clear_after_read, infer_shape, state):
        ta = cls.__new__(cls)
        ta._dtype = dtype
        ta._dynamic_size = dynamic_size
        ta._clear_after_read = clear_after_read
        ta._infer_shape = infer_shape
        ta._state = state
        return ta

    def _updated(self, flow, element_shape=None, size=None, written=None):
        """The TensorArray after an update: eagerly the shared state changes (TF's eager semantics);
        in graphs a new TensorArray holds the new flow and this one is unchanged."""
        es = self._state.element_shape if element_shape is None else element_shape
        if _eager():
            st = self._state
            st.flow, st.element_shape = flow, es
            if size is not None:
                st.size = size
            if written is not None:  # indices this update wrote: readable again
                st.written |= written
                st.cleared -= written
        else:
            st = _State(flow, es, size if size is not None else (None if self._dynamic_size else self._state.size))
        return TensorArray._wrap(self._dtype, self._dynamic_size, self._clear_after_read, self._infer_shape, st)

    # ---- properties ----

    @property
    def flow(self):
        """The variant TensorList tensor that holds the elements."""
        return self._state.flow

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self):
        return self._dynamic_size

    @property
    def element_shape(self):
        return self._state.element_shape

    @property
    def handle(self):
        return None  # TensorList-backed arrays have no resource handle (TF2 behaviour)

    # ---- value checks ----

    def _value(self, value):
        # The array's dtype is a hint (TF's preferred_dtype): a value of another dtype is the
        # write's error, not the conversion's.
        t = value if isinstance(value, Tensor) else convert_to_tensor(value, self._dtype._type_enum)
        if t.dtype != self._dtype and _eager():
            raise errors.InvalidArgumentError(
                None, None, "TensorArray dtype is %s but Op is trying to write dtype %s " % (
                    self._dtype.name, t.dtype.name))
        return t

    def _merge_value_shape(self, t):
        """_merge_shape for a value tensor; a value of exactly the known element shape is the fast path."""
        es = self._state.element_shape
        if es._dims is not None and t._shape_tuple == es._dims:
            return es
        return self._merge_shape(t.shape)

    def _merge_shape(self, shape):
        """The element shape after writing an element of `shape` (TF's shape inference)."""
        current = self._state.element_shape
        if not self._infer_shape:
            return current
        if not current.is_compatible_with(shape):
            if _eager():
                raise ValueError("Incompatible shape for value (%s), expected (%s)" % (
                    _shape_str(shape), _shape_str(current)))
            raise ValueError("Inconsistent shapes: saw %s but expected %s " % (_shape_str(shape), _shape_str(current)))
        return current.merge_with(shape)

    def _eager_write_index(self, index):
        i = int(index)
        if i < 0:
            raise errors.OutOfRangeError(None, None, "Writing to negative indices (index %d) is not allowed." % i)
        if i >= self._state.size and not self._dynamic_size:
            raise errors.OutOfRangeError(
                None, None, "Tried to write to index %d but array is not resizeable and size is: %d " % (
                    i, self._state.size))
        return i

    def _flush_cleared(self):
        """Eager clear_after_read: elements read once read back as zeros in stack/gather/concat (TF
        drops them); they are zeroed lazily here so reads cost one op."""
        st = self._state
        if not st.cleared:
            return
        shape = st.element_shape
        if not shape.is_fully_defined():
            raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % shape)
        from eagerflow.ops.creation_ops import zeros
        z = zeros(shape.as_list(), self._dtype)
        flow = st.flow
        for i in sorted(st.cleared):
            flow = execute1("TensorListSetItem", [flow, _int32(i), z], {"element_dtype": self._dtype})
        st.flow = flow
        st.written = st.written - st.cleared
        st.cleared = set()

    # ---- element access ----

    def read(self, index, name=None):
        """The element at `index` (zeros of the element shape for an unwritten one)."""
        st = self._state
        if _eager():
            i = int(index)
            if i < 0:
                raise errors.OutOfRangeError(None, None, "Reading from negative indices (index %d) is not allowed." % i)
            if i >= st.size:
                raise errors.OutOfRangeError(None, None, "Tried to read from index %d but array size is: %d " % (
                    i, st.size))
            if i in st.cleared:
                raise errors.InvalidArgumentError(
                    None, None, "Could not read index %d twice because it was cleared after a previous read "
                                "(perhaps try setting clear_after_read = false?)" % i)
            if i not in st.written and not st.element_shape.is_fully_defined():
                raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % st.element_shape)
            out = execute1("TensorListGetItem", [st.flow, _int32(i), _shape_tensor(st.element_shape)],
                           {"element_dtype": self._dtype})
            if self._clear_after_read:
                st.cleared.add(i)
            return out
        return execute1("TensorListGetItem", [st.flow, _int32(index), _shape_tensor(st.element_shape)],
                        {"element_dtype": self._dtype}, "TensorArrayV2Read/TensorListGetItem")

    def write(self, index, value, name=None):
        """Writes `value` at `index`; use the returned TensorArray (`ta = ta.write(i, x)`)."""
        value = self._value(value)
        st = self._state
        written = None
        size = None
        if _eager():
            i = self._eager_write_index(index)
            index = i
            written = {i}
            size = max(st.size, i + 1)
        shape = self._merge_value_shape(value)
        flow = execute1("TensorListSetItem", [st.flow, _int32(index), value],
                        {"element_dtype": self._dtype, "resize_if_index_out_of_bounds": self._dynamic_size},
                        "TensorArrayV2Write/TensorListSetItem")
        return self._updated(flow, shape, size, written)

    def stack(self, name=None):
        """All elements stacked into one tensor of shape [size] + element_shape."""
        self._flush_cleared()
        st = self._state
        if _eager() and st.size == 0:
            # TF's eager array converts its empty Python list: [0] + a known element shape, else (0,).
            from eagerflow.ops.creation_ops import zeros
            dims = [0] + (st.element_shape.as_list() if st.element_shape.is_fully_defined() else [])
            return zeros(dims, self._dtype)
        n = -1 if self._dynamic_size or st.size is None else st.size
        return execute1("TensorListStack", [st.flow, _shape_tensor(st.element_shape)],
                        {"element_dtype": self._dtype, "num_elements": n}, "TensorArrayV2Stack/TensorListStack")

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        self._flush_cleared()
        st = self._state
        indices = _int32(indices)
        return execute1("TensorListGather", [st.flow, indices, _shape_tensor(st.element_shape)],
                        {"element_dtype": self._dtype}, "TensorArrayV2Gather/TensorListGather")

    def concat(self, name=None):
        """The elements concatenated along their first dimension."""
        self._flush_cleared()
        st = self._state
        es = st.element_shape
        shape = TensorShape([None] + es.as_list()[1:]) if es.rank else TensorShape(None)
        empty = convert_to_tensor(np.zeros([0], np.int64))
        return execute("TensorListConcatV2", [st.flow, _shape_tensor(shape), empty],
                       {"element_dtype": self._dtype, "shape_type": _dtypes.int32},
                       "TensorArrayV2Concat/TensorListConcatV2")[0]

    def unstack(self, value, name=None):
        """Writes the rows of `value` (its first dimension) as the elements."""
        value = self._value(value)
        st = self._state
        vshape = value.shape
        n = vshape[0] if vshape.rank else None
        if _eager() and not self._dynamic_size and n > st.size:
            raise ValueError("Cannot unstack %d tensors into a TensorArray of static size %d " % (n, st.size))
        shape = self._merge_shape(TensorShape(vshape.as_list()[1:]) if vshape.rank else TensorShape(None))
        flow = execute1("TensorListFromTensor", [value, _shape_tensor(shape)],
                        {"element_dtype": self._dtype, "shape_type": _dtypes.int32},
                        "TensorArrayUnstack/TensorListFromTensor")
        # In graphs a static size stays: TensorListStack checks it, as in TF.
        size = n if _eager() else None
        if _eager():
            self._state.written = set()  # the list is replaced by the rows of value
        return self._updated(flow, shape, size, set(range(n)) if _eager() else None)

    def scatter(self, indices, value, name=None):
        """Writes the rows of `value` at `indices`."""
        value = self._value(value)
        st = self._state
        size = written = None
        if _eager():
            idx = [self._eager_write_index(i) for i in _int32(indices).numpy().reshape(-1).tolist()]
            written = set(idx)
            size = max([st.size] + [i + 1 for i in idx])
        vshape = value.shape
        shape = self._merge_shape(TensorShape(vshape.as_list()[1:]) if vshape.rank else TensorShape(None))
        flow = execute1("TensorListScatterIntoExistingList", [st.flow, value, _int32(indices)],
                        {"element_dtype": self._dtype}, "TensorArrayScatter/TensorListScatterIntoExistingList")
        return self._updated(flow, shape, size, written)

    def split(self, value, lengths, name=None):
        """Splits `value` along its first dimension into elements of the given `lengths`."""
        value = self._value(value)
        lengths = convert_to_tensor(lengths, _dtypes.int64._type_enum)
        if lengths.dtype != _dtypes.int64:
            from eagerflow.ops.math_ops import cast
            lengths = cast(lengths, _dtypes.int64)
        vshape = value.shape
        shape = self._merge_shape(TensorShape([None] + vshape.as_list()[1:]) if vshape.rank else TensorShape(None))
        flow = execute1("TensorListSplit", [value, _shape_tensor(shape), lengths],
                        {"element_dtype": self._dtype, "shape_type": _dtypes.int32}, "TensorArraySplit/TensorListSplit")
        size = written = None
        if _eager():
            size = int(lengths.shape[0])
            written = set(range(size))
            self._state.written = set()
        return self._updated(flow, shape, size, written)

    def size(self, name=None):
        """The number of elements, an int32 scalar tensor."""
        st = self._state
        if not _eager() and not self._dynamic_size and st.size is not None:
            return convert_to_tensor(st.size, _dtypes.int32._type_enum)
        return execute1("TensorListLength", [st.flow], None, "TensorArrayV2Size/TensorListLength")

    def close(self, name=None):
        return None

    def identity(self):
        return TensorArray._wrap(self._dtype, self._dynamic_size, self._clear_after_read, self._infer_shape,
                                 self._state)

    def mark_used(self):
        pass

    def __tf_tracing_type__(self, context):
        return _TensorArrayType(self)

    # ---- composite protocol: a TensorArray travels through cond / while_loop as its flow ----

    def __tf_flatten__(self):
        st = self._state
        meta = _Meta(self._dtype, self._dynamic_size, self._clear_after_read, self._infer_shape, st.element_shape,
                     None if self._dynamic_size else st.size)
        return meta, (st.flow,)

    @classmethod
    def __tf_unflatten__(cls, metadata, components):
        (flow,) = components
        size = metadata.size
        written = None
        if not flow._is_symbolic:
            size = int(execute1("TensorListLength", [flow]))
            written = set(range(size))
        st = _State(flow, metadata.element_shape, size, written)
        return cls._wrap(metadata.dtype, metadata.dynamic_size, metadata.clear_after_read, metadata.infer_shape, st)


from eagerflow.ops import list_grad  # noqa: E402,F401  (registers the TensorList gradients)
