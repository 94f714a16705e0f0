"""tf.sparse: SparseTensor ops over the SparseToDense, SparseTensorDenseMatMul and SparseReorder
kernels; the others (add, reduce_sum, from_dense) are composed of dense ops, so they differentiate."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.sparse_tensor import SparseTensor
from eagerflow.ops import array_ops, creation_ops, math_ops, reduction_ops
from eagerflow.ops._execute import convert_to_tensor, execute, execute1

_INT64 = dtypes.int64


def _tensor(x):
    return x if isinstance(x, _core.Tensor) else convert_to_tensor(x)


def _check_sparse(x, what):
    if not isinstance(x, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(x).__name__} for {what}.")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor of `sp_input`, `default_value` (0 / "" when None) where it has no value."""
    _check_sparse(sp_input, "sp_input")
    values = sp_input.values
    default = convert_to_tensor(0 if default_value is None and values.dtype != dtypes.string else
                                b"" if default_value is None else default_value, values._dtype_enum, True)
    if values.dtype == dtypes.string:  # the kernel moves numbers: strings go through their positions
        n = array_ops.shape(values, out_type=_INT64)[0]
        zero, one = (convert_to_tensor(v, _INT64._type_enum) for v in (0, 1))
        positions = creation_ops.range(zero, n, one)
        where = execute1("SparseToDense", [sp_input.indices, sp_input.dense_shape, positions,
                                           convert_to_tensor(-1, _INT64._type_enum)],
                         {"validate_indices": bool(validate_indices)})
        where = array_ops.where(math_ops.less(where, 0), n + creation_ops.zeros_like(where), where)
        return array_ops.gather(array_ops.concat([values, array_ops.reshape(default, [1])], 0), where)
    return execute1("SparseToDense", [sp_input.indices, sp_input.dense_shape, values, default],
                    {"validate_indices": bool(validate_indices)}, name)


def from_dense(tensor, name=None):
    """The SparseTensor of `tensor`'s nonzero (non-empty) elements, in row-major order."""
    t = _tensor(tensor)
    zero = convert_to_tensor(b"" if t.dtype == dtypes.string else 0, t._dtype_enum, True)
    indices = execute1("Where", [execute1("NotEqual", [t, zero])])
    values = execute1("GatherNd", [t, indices])
    return SparseTensor(indices, values, array_ops.shape(t, out_type=_INT64))


def reorder(sp_input, name=None):
    """The same SparseTensor with its indices in row-major order."""
    _check_sparse(sp_input, "sp_input")
    indices, values = execute("SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape], None, name)
    st = SparseTensor(indices, values, sp_input.dense_shape)
    st._shape = sp_input.shape
    return st


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """sp_a @ b where one of them is a SparseTensor (adjoints conjugate and transpose)."""
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # a @ sp_b = (sp_b^H @ a^H)^H
        out = sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        return array_ops.transpose(out, conjugate=True)
    _check_sparse(sp_a, "sp_a")
    b = convert_to_tensor(b, sp_a.values._dtype_enum) if not isinstance(b, _core.Tensor) else b
    return execute1("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                    {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)}, name)


def add(a, b, threshold=0):
    """a + b: sparse + sparse is sparse (sums below `threshold` in magnitude dropped); a dense
    operand makes the sum dense."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        return _sparse_add(a, b, threshold)
    if isinstance(a, SparseTensor):
        a, b = b, a
    if not isinstance(b, SparseTensor):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add?")
    return math_ops.add(_tensor(a), to_dense(b))


def _sparse_add(a, b, threshold):
    indices = array_ops.concat([a.indices, b.indices], 0)
    values = array_ops.concat([a.values, b.values], 0)
    s = reorder(SparseTensor(indices, values, a.dense_shape))
    indices, values = s.indices, s.values
    # A row starts a new entry where its index differs from the previous row's.
    first = creation_ops.fill(array_ops.stack([1, array_ops.shape(indices)[1]]), convert_to_tensor(-1, _INT64._type_enum))
    prev = array_ops.concat([first, indices], 0)[:-1]
    new = reduction_ops.reduce_any(math_ops.not_equal(indices, prev), axis=1)
    segment = reduction_ops.cumsum(math_ops.cast(new, _INT64)) - 1
    count = reduction_ops.reduce_sum(math_ops.cast(new, _INT64))
    sums = execute1("UnsortedSegmentSum", [values, segment, count])
    out_indices = array_ops.boolean_mask(indices, new)
    if threshold:
        keep = math_ops.greater_equal(math_ops.abs(sums), math_ops.cast(threshold, sums.dtype))
        sums, out_indices = array_ops.boolean_mask(sums, keep), array_ops.boolean_mask(out_indices, keep)
    st = SparseTensor(out_indices, sums, a.dense_shape)
    st._shape = a.shape
    return st


def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of `sp_input`'s values over `axis` (all axes when None), as reduce_sum of its dense
    tensor; `output_is_sparse` gives the result as a SparseTensor."""
    _check_sparse(sp_input, "sp_input")
    out = reduction_ops.reduce_sum(to_dense(sp_input), axis=axis, keepdims=bool(keepdims))
    return from_dense(out) if output_is_sparse else out


def _sparse_mul(self, other):
    """SparseTensor * dense: the values times the dense elements at their positions (broadcast)."""
    other = convert_to_tensor(other, self.values._dtype_enum) if not isinstance(other, _core.Tensor) else other
    if other.shape.rank == 0:
        return self.with_values(self.values * other)
    dense = array_ops.broadcast_to(other, self.dense_shape)
    return self.with_values(self.values * array_ops.gather_nd(dense, self.indices))


def _sparse_div(self, other):
    other = convert_to_tensor(other, self.values._dtype_enum) if not isinstance(other, _core.Tensor) else other
    if other.shape.rank == 0:
        return self.with_values(self.values / other)
    dense = array_ops.broadcast_to(other, self.dense_shape)
    return self.with_values(self.values / array_ops.gather_nd(dense, self.indices))


SparseTensor.__mul__ = _sparse_mul
SparseTensor.__truediv__ = _sparse_div
SparseTensor.__div__ = _sparse_div
SparseTensor.__neg__ = lambda self: self.with_values(math_ops.negative(self.values))

from eagerflow.ops import sparse_grad  # noqa: E402,F401  (registers the sparse kernels' gradients)
