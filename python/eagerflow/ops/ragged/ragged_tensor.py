"""tf.RaggedTensor: rows of different lengths, stored as flat `values` (a tensor, or a ragged tensor
for nested raggedness) and int64 `row_splits` (row i is values[row_splits[i]:row_splits[i + 1]]).
Every method is composed of dense ops, so ragged code traces and differentiates like dense code."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes, errors
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.tensor_spec import TensorSpec
from eagerflow.framework.type_spec import CompositeTensor, TypeSpec
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor, execute1

_INT64 = dtypes.int64


def _tensor(x, dtype=None):
    if isinstance(x, _core.Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x) if dtype is None else convert_to_tensor(x, dtype._type_enum)


def _splits(x, dtype=_INT64):
    t = _tensor(x, dtype)
    if not t.dtype.is_integer:
        raise TypeError(f"row partition tensors must be int32 or int64, got {t.dtype.name}")
    return math_ops.cast(t, dtype)


def _i64(v):
    return convert_to_tensor(v, _INT64._type_enum)


def _eager(*ts):
    return all(not getattr(t, "_is_symbolic", False) for t in ts)


def _check_splits(splits, nvals, what):
    """TF's validation of row_splits (eager only): starts at 0, never decreases, ends at nvals."""
    if not _eager(splits) or (nvals is not None and not isinstance(nvals, int)):
        return
    s = splits._numpy()
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"Shape {splits.shape} must have rank 1 with at least one element")
    if s[0] != 0:
        raise errors.InvalidArgumentError(None, None, f"Arguments to {what} do not form a valid RaggedTensor:zero")
    if np.any(np.diff(s) < 0):
        raise errors.InvalidArgumentError(None, None,
                                          f"Arguments to {what} do not form a valid RaggedTensor:monotonic")
    if nvals is not None and s[-1] != nvals:
        raise errors.InvalidArgumentError(None, None,
                                          f"Arguments to {what} do not form a valid RaggedTensor:nvals")


def row_ids(splits, nvals):
    """The row of each value: 1 at each row's start, summed (rows that end at nvals drop out)."""
    limits = splits[1:-1]
    marks = execute1("UnsortedSegmentSum", [creation_ops.ones_like(limits), limits, math_ops.add(nvals, 1)])
    return reduction_ops.cumsum(marks[:-1])


def _nvals(values):
    """The number of rows of `values` as a Python int when static, else None."""
    if isinstance(values, RaggedTensor):
        return values._static_nrows()
    s = values.shape
    return s[0] if s.rank else None


def _nrows_tensor(values):
    if isinstance(values, RaggedTensor):
        return values.nrows()
    return array_ops.shape(values, out_type=_INT64)[0]


class RaggedTensor(CompositeTensor):
    """A tensor with one or more ragged dimensions (tf.RaggedTensor)."""

    _conversion_error = "TypeError: object of type 'RaggedTensor' has no len()"  # TF's text

    def __init__(self, values, row_splits, internal=False):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        if not isinstance(values, (RaggedTensor, _core.Tensor)):
            raise TypeError(f"values must be a Tensor or RaggedTensor, got {type(values).__name__}")
        if not isinstance(row_splits, _core.Tensor) or row_splits.dtype not in (dtypes.int32, _INT64):
            raise TypeError("row_splits must be an int32 or int64 Tensor")
        self._values = values
        self._row_splits = row_splits
        self._row_lengths = None
        self._value_rowids = None

    # ---- factories ----

    @classmethod
    def _wrap(cls, values, row_splits):
        return cls(values, row_splits, internal=True)

    @staticmethod
    def _values_of(values):
        return values if isinstance(values, RaggedTensor) else _tensor(values)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        values = cls._values_of(values)
        splits = _splits(row_splits)
        if validate:
            _check_splits(splits, _nvals(values), "from_row_splits")
        return cls._wrap(values, splits)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        values = cls._values_of(values)
        lengths = _splits(row_lengths)
        if validate and _eager(lengths) and np.any(lengths._numpy() < 0):
            raise errors.InvalidArgumentError(None, None,
                                              "Arguments to from_row_lengths do not form a valid RaggedTensor")
        splits = array_ops.concat([_i64([0]), reduction_ops.cumsum(lengths)], 0)
        if validate:
            _check_splits(splits, _nvals(values), "from_row_lengths")
        rt = cls._wrap(values, splits)
        rt._row_lengths = lengths
        return rt

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        values = cls._values_of(values)
        starts = _splits(row_starts)
        splits = array_ops.concat([starts, array_ops.reshape(_nrows_tensor(values), [1])], 0)
        if validate:
            _check_splits(splits, _nvals(values), "from_row_starts")
        return cls._wrap(values, splits)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        values = cls._values_of(values)
        limits = _splits(row_limits)
        splits = array_ops.concat([_i64([0]), limits], 0)
        if validate:
            _check_splits(splits, _nvals(values), "from_row_limits")
        return cls._wrap(values, splits)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        values = cls._values_of(values)
        rowids = _splits(value_rowids)
        if nrows is None:
            nrows = math_ops.add(reduction_ops.reduce_max(array_ops.concat([_i64([-1]), rowids], 0)), 1)
        nrows = _splits(nrows)
        if validate and _eager(rowids) and rowids._numpy().size and np.any(np.diff(rowids._numpy()) < 0):
            raise errors.InvalidArgumentError(None, None,
                                              "Arguments to from_value_rowids do not form a valid RaggedTensor")
        lengths = execute1("UnsortedSegmentSum", [creation_ops.ones_like(rowids), rowids, nrows])
        rt = cls.from_row_lengths(values, lengths, validate=validate)
        rt._value_rowids = rowids
        return rt

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True, name=None):
        values = cls._values_of(values)
        length = _splits(uniform_row_length)
        if nrows is None:
            nrows = math_ops.floordiv(_nrows_tensor(values), math_ops.maximum(length, _i64(1)))
        nrows = _splits(nrows)
        splits = math_ops.multiply(creation_ops.range(_i64(0), math_ops.add(nrows, 1), _i64(1)), length)
        return cls._wrap(values, splits)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        result = cls._values_of(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        result = cls._values_of(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None, name=None,
                                 validate=True):
        result = cls._values_of(flat_values)
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        for ids, n in reversed(list(zip(rowids, nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    # ---- properties ----

    values = property(lambda self: self._values, doc="The concatenated rows (a tensor or RaggedTensor).")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts and ends in values (int64).")

    @property
    def flat_values(self):
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self):
        out, rt = [self._row_splits], self._values
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self):
        return 1 + (self._values.ragged_rank if isinstance(self._values, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def _static_nrows(self):
        n = self._row_splits.shape[0] if self._row_splits.shape.rank else None
        return None if n is None else n - 1

    @property
    def shape(self):
        """[nrows, None, ...]: the ragged dims are None, the flat values' inner dims follow."""
        inner = self._values.shape
        rest = inner.as_list()[1:] if inner.rank is not None else None
        if rest is None:
            return TensorShape(None)
        return TensorShape([self._static_nrows(), None] + rest)

    def get_shape(self):
        return self.shape

    def nrows(self, out_type=None, name=None):
        n = math_ops.subtract(array_ops.shape(self._row_splits, out_type=_INT64)[0], _i64(1))
        return n if out_type is None else math_ops.cast(n, out_type)

    def row_starts(self, name=None):
        return self._row_splits[:-1]

    def row_limits(self, name=None):
        return self._row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        if axis not in (1, -self.shape.rank if self.shape.rank else 1):
            if axis == 0:
                raise ValueError("axis=0 is not a ragged axis")
            return self.with_values(self._values.row_lengths(axis - 1))
        if self._row_lengths is None:
            self._row_lengths = math_ops.subtract(self._row_splits[1:], self._row_splits[:-1])
        return self._row_lengths

    def value_rowids(self, name=None):
        if self._value_rowids is None:
            self._value_rowids = row_ids(self._row_splits, _nrows_tensor(self._values))
        return self._value_rowids

    def nested_row_lengths(self, name=None):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    def nested_value_rowids(self, name=None):
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The shape of the smallest dense tensor holding every row: [nrows, longest row, ...]."""
        lengths = self.row_lengths()
        longest = reduction_ops.reduce_max(array_ops.concat([_i64([0]), lengths], 0))
        inner = self._values.bounding_shape() if isinstance(self._values, RaggedTensor) else \
            array_ops.shape(self._values, out_type=_INT64)
        shape = array_ops.concat([array_ops.stack([self.nrows(), longest]), inner[1:]], 0)
        if out_type is not None:
            shape = math_ops.cast(shape, out_type)
        return shape if axis is None else array_ops.gather(shape, axis)

    def with_values(self, new_values):
        return RaggedTensor._wrap(new_values, self._row_splits)

    def with_flat_values(self, new_values):
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        dtype = dtypes.as_dtype(dtype)
        values = self._values.with_row_splits_dtype(dtype) if isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor._wrap(values, math_ops.cast(self._row_splits, dtype))

    def merge_dims(self, outer_axis, inner_axis):
        if (outer_axis, inner_axis) == (0, 1):
            return self._values
        raise NotImplementedError("merge_dims supports outer_axis=0, inner_axis=1")

    # ---- conversion ----

    # to_tensor and from_tensor: ragged_conversion.py; __getitem__: ragged_getitem.py (installed there).

    def to_list(self):
        """The rows as nested Python lists (eager only)."""
        values = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values.numpy().tolist()
        s = self._row_splits.numpy()
        return [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def numpy(self):
        """The rows as NumPy arrays: one array when every row has the same shape, else an object array."""
        values = self._values.numpy()
        s = self._row_splits.numpy()
        rows = [values[s[i]:s[i + 1]] for i in range(len(s) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            out[:] = rows
            return out
        return np.array(rows)

    def _is_eager(self):
        return _eager(self._row_splits, self.flat_values)

    def __repr__(self):
        if self._is_eager():
            with np.printoptions(formatter={"all": _formatter}):
                text = _formatter(self.numpy())
            return f"<tf.RaggedTensor {text}>"
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __len__(self):
        raise TypeError("object of type 'RaggedTensor' has no len()")

    __iter__ = None

    def consumers(self):
        return []

    @property
    def _type_spec(self):
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self._row_splits.dtype,
                                _flat_spec_shape(self))


def _formatter(x):
    """Elements joined by ", " at every depth (np.printoptions alone does not recurse into rows)."""
    if isinstance(x, np.ndarray):
        if x.size:
            return np.array2string(x, separator=", ")
        return "[" + ", ".join(_formatter(v) for v in x) + "]"
    if isinstance(x, (np.floating, float)):
        return str(x)
    return str(x)


def _flat_spec_shape(rt):
    return rt.flat_values.shape[1:] if rt.flat_values.shape.rank is not None else None


class RaggedTensorSpec(TypeSpec):
    """The type of a RaggedTensor: shape (ragged dims None), dtype, ragged_rank, row_splits dtype."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None, row_splits_dtype=_INT64,
                 flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < rank and not (ragged_rank == 0 and rank == 0):
            raise ValueError(f"ragged_rank must be non-negative and less than the rank of shape; got "
                             f"ragged_rank={ragged_rank}, rank={rank}")
        self._ragged_rank = ragged_rank

    value_type = property(lambda self: RaggedTensor)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)

    @classmethod
    def from_value(cls, value):
        return value._type_spec

    def _flat_values_shape(self):
        if self._shape.rank is None:
            return None
        return [None] + self._shape.as_list()[self._ragged_rank + 1:]

    @property
    def _component_specs(self):
        nrows = self._shape.as_list()[0] if self._shape.rank else None
        specs = [TensorSpec(self._flat_values_shape(), self._dtype),
                 TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)]
        specs += [TensorSpec([None], self._row_splits_dtype) for _ in range(self._ragged_rank - 1)]
        return specs

    def _to_components(self, value):
        return [value.flat_values] + list(value.nested_row_splits)

    def _from_components(self, components):
        return RaggedTensor.from_nested_row_splits(components[0], components[1:], validate=False)

    def _serialize(self):
        return (self._shape.as_list() if self._shape.rank is not None else None, self._dtype.name,
                self._ragged_rank, self._row_splits_dtype.name)

    def is_subtype_of(self, other):
        return (type(other) is RaggedTensorSpec and self._dtype == other._dtype
                and self._ragged_rank == other._ragged_rank and self._row_splits_dtype == other._row_splits_dtype
                and _shape_subtype(self._shape, other._shape))

    def most_specific_common_supertype(self, others):
        if any(type(o) is not RaggedTensorSpec or o._dtype != self._dtype or o._ragged_rank != self._ragged_rank
               or o._row_splits_dtype != self._row_splits_dtype for o in others):
            return None
        shape = self._shape
        for o in others:
            shape = shape.most_specific_compatible_shape(o._shape)
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def __repr__(self):
        return "RaggedTensorSpec(%r, %r, %d, %r)" % (self._shape, self._dtype, self._ragged_rank,
                                                      self._row_splits_dtype)


def _shape_subtype(a, b):
    if b.rank is None:
        return True
    if a.rank != b.rank:
        return False
    return all(db is None or da == db for da, db in zip(a.as_list(), b.as_list()))
