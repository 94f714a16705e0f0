"""Matrix products: tf.linalg.matmul (MatMul for matrices, BatchMatMulV2 for batches)."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.ops import _execute

_Tensor = _core.Tensor
_COMPLEX = dtypes.COMPLEX_ENUMS


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """a @ b over the last two dims, batch dims broadcasting; transpose/adjoint apply first."""
    # The common call (a layer's or a gradient's product): two real matrices, plain flags.
    if (type(transpose_a) is bool and type(transpose_b) is bool and adjoint_a is False and adjoint_b is False
            and output_type is None and isinstance(a, _Tensor) and isinstance(b, _Tensor)
            and a._dtype_enum not in _COMPLEX and len(a._shape_tuple or ()) == 2
            and len(b._shape_tuple or ()) == 2):
        return _execute.execute1("MatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b}, name)
    for flag, arg in ((transpose_a, "transpose_a"), (transpose_b, "transpose_b"), (adjoint_a, "adjoint_a"),
                      (adjoint_b, "adjoint_b")):
        _execute.bool_attr(flag, arg)
    if transpose_a and adjoint_a:
        raise ValueError(f"Only one of `transpose_a` and `adjoint_a` can be True. Received `transpose_a`="
                         f"{transpose_a}, `adjoint_a`={adjoint_a}.")
    if transpose_b and adjoint_b:
        raise ValueError(f"Only one of `transpose_b` and `adjoint_b` can be True. Received `transpose_b`="
                         f"{transpose_b}, `adjoint_b`={adjoint_b}.")
    a, b = _execute.hinted_inputs(a, b)
    if output_type is not None:
        # TF multiplies narrow ints into a wider output type; the same values come from
        # casting first.
        out = _execute.attr_dtype(output_type)
        if a.dtype != out:
            a = _execute.execute1("Cast", [a], {"DstT": out})
        if b.dtype != out:
            b = _execute.execute1("Cast", [b], {"DstT": out})
    complex_ = a.dtype.is_complex
    if a.ndim <= 2 and b.ndim <= 2 and not (complex_ and (adjoint_a or adjoint_b)):
        return _execute.execute1("MatMul", [a, b], {"transpose_a": bool(transpose_a or adjoint_a),
                                                   "transpose_b": bool(transpose_b or adjoint_b)}, name)
    if complex_ and (transpose_a or transpose_b):
        # adj(conj(x)) is the plain transpose of x.
        if transpose_a:
            a = _execute.execute1("Conj", [a])
        if transpose_b:
            b = _execute.execute1("Conj", [b])
    return _execute.execute1("BatchMatMulV2", [a, b], {"adj_x": bool(transpose_a or adjoint_a),
                                                      "adj_y": bool(transpose_b or adjoint_b)})


def _tensor_matmul(self, other):
    """Tensor.__matmul__."""
    try:
        return matmul(self, other)
    except (TypeError, ValueError):
        # As the C++ forward operators: the other operand's reflected operator may answer.
        reflected = getattr(other, "__rmatmul__", None)
        if reflected is not None:
            try:
                out = reflected(self)
            except (TypeError, ValueError):
                out = NotImplemented
            if out is not NotImplemented:
                return out
        raise


def _tensor_rmatmul(self, other):
    """Tensor.__rmatmul__: the other operand converts to self's dtype exactly, as for every TF operator."""
    return matmul(_core.convert_to_tensor(other, self._dtype_enum, True), self)


_core.Tensor.__matmul__ = _tensor_matmul
_core.Tensor.__rmatmul__ = _tensor_rmatmul
