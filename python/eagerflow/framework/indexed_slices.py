"""tf.IndexedSlices: some rows of a dense tensor (a gather's gradient); converting it to a tensor
sums the rows into zeros of dense_shape."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec


def _execute1(op, inputs, attrs=None):
    return _core.execute1(_core.get_op(op), inputs, attrs)


class IndexedSlices(CompositeTensor):
    """`values[i]` is row `indices[i]` of a tensor of shape `dense_shape`; rows named twice add up."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = _tensor(values)
        self._indices = _tensor(indices)
        self._dense_shape = None if dense_shape is None else _tensor(dense_shape)

    values = property(lambda self: self._values, doc="The rows, a tensor [n, ...].")
    indices = property(lambda self: self._indices, doc="The row of each value, a 1-D integer tensor.")
    dense_shape = property(lambda self: self._dense_shape, doc="The dense tensor's shape (a 1-D tensor) or None.")
    dtype = property(lambda self: self._values.dtype)
    name = property(lambda self: self._values.name)
    device = property(lambda self: self._values.device)
    graph = property(lambda self: self._values.graph)
    op = property(lambda self: self._values.op)

    @property
    def shape(self):
        """The dense shape as far as it is known statically."""
        if self._dense_shape is None or self._dense_shape._is_symbolic:
            rows = self._values.shape
            return TensorShape([None] + rows.as_list()[1:]) if rows.rank is not None else TensorShape(None)
        return TensorShape([int(d) for d in self._dense_shape._numpy()])

    def _as_tensor(self):
        """The dense tensor: the rows summed by index into zeros (TF's IndexedSlices conversion)."""
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices without dense_shape: {self!s}")
        v = self._values
        n = _execute1("StridedSlice", [self._dense_shape, _i32([0]), _i32([1]), _i32([1])],
                      {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
                       "shrink_axis_mask": 1})
        return _execute1("UnsortedSegmentSum", [v, self._indices, n])

    def __neg__(self):
        return IndexedSlices(_execute1("Neg", [self._values]), self._indices, self._dense_shape)

    def __str__(self):
        shape = "" if self._dense_shape is None else ", dense_shape=%s" % (self._dense_shape,)
        return "IndexedSlices(indices=%s, values=%s%s)" % (self._indices, self._values, shape)

    @property
    def _type_spec(self):
        return IndexedSlicesSpec(self.shape, self.dtype, self._indices.dtype,
                                 None if self._dense_shape is None else self._dense_shape.dtype,
                                 self._values.shape[1:] if self._values.shape.rank is not None else None)


def _tensor(x):
    if isinstance(x, _core.Tensor):
        return x
    return x._as_tensor() if hasattr(x, "_as_tensor") else _core.convert_to_tensor(x)


def _i32(v):
    return _core.from_numpy(np.asarray(v, np.int32))


class IndexedSlicesSpec(TypeSpec):
    """The type of an IndexedSlices: dense shape and dtype, index dtypes."""

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape(indices_shape).with_rank(1) if indices_shape is not None else \
            TensorShape([None])

    value_type = property(lambda self: IndexedSlices)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @property
    def _component_specs(self):
        rows = self._shape.as_list()[1:] if self._shape.rank is not None else None
        specs = [TensorSpec(None if rows is None else [None] + rows, self._dtype),
                 TensorSpec([None], self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return specs

    def _to_components(self, value):
        c = [value.values, value.indices]
        return c + [value.dense_shape] if self._dense_shape_dtype is not None else c

    def _from_components(self, components):
        return IndexedSlices(*components) if len(components) == 3 else IndexedSlices(*components, None)

    def _serialize(self):
        return (self._shape.as_list() if self._shape.rank is not None else None, self._dtype.name,
                self._indices_dtype.name, None if self._dense_shape_dtype is None else self._dense_shape_dtype.name)

    def __repr__(self):
        return "IndexedSlicesSpec(%r, %r, %r, %r, %r)" % (self._shape, self._dtype, self._indices_dtype,
                                                          self._dense_shape_dtype, self._indices_shape)
