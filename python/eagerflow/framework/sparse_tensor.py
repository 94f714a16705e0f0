"""tf.SparseTensor and tf.SparseTensorSpec: a tensor given by the positions (indices [N, rank],
int64) and values [N] of its non-default elements and its dense_shape [rank] (int64)."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec

_INT64 = dtypes.int64


def _static_shape(dense_shape):
    """The dense shape as a TensorShape: known dims where dense_shape is a constant."""
    if not dense_shape._is_symbolic:
        return TensorShape([int(d) for d in dense_shape._numpy()])
    try:
        op = dense_shape.op
        if op.type == "Const":
            return TensorShape([None if d < 0 else int(d) for d in op.get_attr("value").numpy()])
    except (AttributeError, ValueError):
        pass
    n = dense_shape.shape.as_list()[0] if dense_shape.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


class SparseTensor(CompositeTensor):
    """A sparse tensor (tf.sparse.SparseTensor). Ops on it live in tf.sparse."""

    def __init__(self, indices, values, dense_shape):
        indices = convert_to_tensor(indices, dtype=_INT64) if not _is_int64(indices) else indices
        values = values if isinstance(values, _core.Tensor) else convert_to_tensor(values)
        dense_shape = convert_to_tensor(dense_shape, dtype=_INT64) if not _is_int64(dense_shape) else dense_shape
        shape = _static_shape(dense_shape) if dense_shape.shape.rank == 1 else None
        indices.shape.with_rank(2)
        values.shape.with_rank(1)
        dense_shape.shape.with_rank(1)
        _same_dim(indices.shape[0], values.shape[0])
        _same_dim(indices.shape[1], dense_shape.shape[0])
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._shape = shape

    @classmethod
    def from_value(cls, sparse_tensor_value):
        return sparse_tensor_value

    indices = property(lambda self: self._indices, doc="The positions of the values, int64 [N, rank].")
    values = property(lambda self: self._values, doc="The non-default values, [N].")
    dense_shape = property(lambda self: self._dense_shape, doc="The dense shape, int64 [rank].")
    dtype = property(lambda self: self._values.dtype)
    shape = property(lambda self: self._shape, doc="The dense shape as a TensorShape (partial in graphs).")
    graph = property(lambda self: self._values.graph)
    op = property(lambda self: self._values.op)

    def get_shape(self):
        return self._shape

    def with_values(self, new_values):
        """A SparseTensor at the same positions holding `new_values`."""
        return SparseTensor(self._indices, new_values, self._dense_shape)

    def consumers(self):
        return []

    def __str__(self):
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (self._indices, self._values,
                                                                        self._dense_shape)

    __repr__ = __str__

    @property
    def _type_spec(self):
        return SparseTensorSpec(self._shape, self.dtype)

    def _as_sparse_value(self):
        return self


def _same_dim(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions {a} and {b} are not compatible")


def _is_int64(x):
    return isinstance(x, _core.Tensor) and x.dtype == _INT64


class SparseTensorSpec(TypeSpec):
    """The type of a SparseTensor: its dense shape (possibly partial) and dtype."""

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    value_type = property(lambda self: SparseTensor)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    @property
    def _component_specs(self):
        rank = self._shape.rank
        return [TensorSpec([None, rank], _INT64), TensorSpec([None], self._dtype), TensorSpec([rank], _INT64)]

    def _to_components(self, value):
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, components):
        st = SparseTensor(*components)
        if self._shape.rank is not None:  # the spec's static dims, which a placeholder dense_shape lacks
            st._shape = self._shape.merge_with(st._shape) if st._shape is not None else self._shape
        return st

    def _serialize(self):
        return (self._shape.as_list() if self._shape.rank is not None else None, self._dtype.name)

    def is_subtype_of(self, other):
        return (type(other) is SparseTensorSpec and self._dtype == other._dtype
                and other._shape.is_compatible_with(self._shape) and _more_specific(self._shape, other._shape))

    def most_specific_common_supertype(self, others):
        if any(type(o) is not SparseTensorSpec or o._dtype != self._dtype for o in others):
            return None
        shape = self._shape
        for o in others:
            shape = shape.most_specific_compatible_shape(o._shape)
        return SparseTensorSpec(shape, self._dtype)

    def __repr__(self):
        return "SparseTensorSpec(%r, %r)" % (self._shape, self._dtype)


def _more_specific(a, b):
    """Whether shape `a` is at least as specific as `b` (b's known dims equal a's)."""
    if b.rank is None:
        return True
    if a.rank is None or a.rank != b.rank:
        return False
    return all(db is None or da == db for da, db in zip(a.as_list(), b.as_list()))
