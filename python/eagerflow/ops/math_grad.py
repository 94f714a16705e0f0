"""Gradient functions of the math ops: elementwise unary/binary, reductions, matmul, Cast, AddN.

Each function takes (op, *output_grads) and returns one gradient (or None) per input of op; it
uses public ops only, so it runs eagerly and while tracing. Broadcasting binary ops sum the
gradient back to each input's shape (`_reduce_to`): from static shapes when known, else with
BroadcastGradientArgs at run time.

Complex inputs follow TF's convention: the gradient of a real loss L with respect to z is
dL/dRe(z) + i dL/dIm(z), so a holomorphic op passes grad * conj(f'(z)). As in TF's math_grad.py,
each function conjugates the inputs or outputs it multiplies by (`_conj`, free for real dtypes),
and only where TF does: MulNoNan, Xlogy, Xdivy and Cumprod take no conj in TF and none here.
"""
import math

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient, no_gradient
from eagerflow.ops import _execute
from eagerflow.ops._grad_util import needs
from eagerflow.ops import array_ops, creation_ops, linalg_ops, math_ops, reduction_ops


_Tensor = _core.Tensor


# --- helpers ------------------------------------------------------------------------------------
def _attr(op, name, default):
    """op.get_attr(name), or `default` when the view does not carry it (an attr left at its default)."""
    try:
        v = op.get_attr(name)
    except (ValueError, KeyError):
        return default
    return default if v is None else v


def _known(shape):
    return shape is not None and None not in shape


def _const_value(t):
    """The value of `t` as a NumPy array when it is known while building (eager, or a Const)."""
    if not t._is_symbolic:
        return t._numpy()  # the tensor's own memory: read here, never written
    op = t.op
    if op.type == "Const":
        return op.get_attr("value").numpy()
    return None


def _reduce_to(grad, x):
    """Sums `grad`, of the broadcast shape of a binary op, down to the shape of its input `x`."""
    if grad is None:
        return None
    xs, gs = x._shape_tuple, grad._shape_tuple
    if _known(xs) and _known(gs):
        if xs == gs:
            return grad
        pad = len(gs) - len(xs)
        inner = [i for i in range(pad, len(gs)) if xs[i - pad] == 1 and gs[i] != 1]
        if not inner:  # only leading dims were added: summing them leaves x's shape
            return _sum(grad, list(range(pad)), False)
        if pad == 0:  # only 1-dims were stretched: keep them
            return _sum(grad, inner, True)
        return array_ops.reshape(_sum(grad, list(range(pad)) + inner, False), xs)
    sx = array_ops.shape(x)
    rx, _ = _execute.execute("BroadcastGradientArgs", [sx, array_ops.shape(grad)])
    return array_ops.reshape(reduction_ops.reduce_sum(grad, rx), sx)


def _sum(grad, axes, keepdims):
    """Sum over static axes (a list of ints), straight to the op: gradients run it per broadcast input."""
    return _execute.execute1("Sum", [grad, _execute.index_tensor(axes)], {"keep_dims": keepdims})


def _binary(op, gx, gy):
    """Each input's gradient reduced to its shape; gx and gy are the broadcast gradients, or
    callables computing them, left uncalled for an input whose gradient nobody reads."""
    x, y = op.inputs
    return [_reduce_to(_wanted(op, 0, gx), x), _reduce_to(_wanted(op, 1, gy), y)]


def _wanted(op, i, g):
    if not needs(op, i):
        return None
    return g() if callable(g) else g


def _reduction_axes(op):
    """(input rank, normalized reduced axes) when both are known while building, else None."""
    x = op.inputs[0]
    shape = x._shape_tuple
    axes = _const_value(op.inputs[1])
    if shape is None or axes is None:
        return None
    rank = len(shape)
    axes = axes.tolist()  # a scalar or a flat list of ints
    return rank, sorted({a % rank for a in (axes if isinstance(axes, list) else [axes])}) if rank else []


def _kept_shape(op):
    """The reduction output's shape with keep_dims: static list, or an int32 shape tensor."""
    x = op.inputs[0]
    ra = _reduction_axes(op)
    if ra is not None and _known(x._shape_tuple):
        rank, axes = ra
        return [1 if i in axes else d for i, d in enumerate(x._shape_tuple)]
    # Run-time form: 1 where an axis is reduced, the input's dim elsewhere.
    sx = array_ops.shape(x)
    rank = array_ops.size(sx)
    axes = math_ops.cast(array_ops.reshape(op.inputs[1], [-1]), dtypes.int32)
    axes = math_ops.floormod(axes + rank, rank)
    hit = reduction_ops.reduce_any(
        math_ops.equal(array_ops.expand_dims(creation_ops.range(rank), 1), array_ops.expand_dims(axes, 0)), axis=1)
    return array_ops.where(hit, creation_ops.ones_like(sx), sx)


def _broadcast_reduced(op, grad):
    """The gradient of a reduction's output, reshaped with kept dims and broadcast to the input."""
    x = op.inputs[0]
    gs = grad._shape_tuple
    # A scalar (every axis reduced) broadcasts as it is; otherwise the reduced axes come back as 1s.
    if gs != ():
        kept = _kept_shape(op)
        if not isinstance(kept, list) or gs is None or list(gs) != kept:
            grad = array_ops.reshape(grad, kept)
    xs = x._shape_tuple
    if not _known(xs):
        return array_ops.broadcast_to(grad, array_ops.shape(x))
    if grad._shape_tuple == xs:
        return grad
    return _execute.execute1("BroadcastTo", [grad, _execute.index_tensor(list(xs))])


def _safe_shape(t):
    s = t._shape_tuple
    return list(s) if _known(s) else array_ops.shape(t)


def _num_elements(t):
    s = t._shape_tuple
    if _known(s):
        return math.prod(s)
    return array_ops.size(t)


_COMPLEX = dtypes.COMPLEX_ENUMS


def _conj(x):
    # Checked here first: every gradient below conjugates its operands, and real ones pass unchanged.
    if isinstance(x, _Tensor) and x._dtype_enum not in _COMPLEX:
        return x
    return math_ops.conj(x)


@RegisterGradient("Conj")
def _conj_grad(op, grad):
    return [math_ops.conj(grad)]


def _ones(x, v=1):
    return creation_ops.ones_like(x) if v == 1 else creation_ops.fill(array_ops.shape(x), math_ops.cast(v, x.dtype))


# --- non-differentiable ------------------------------------------------------------------------
# (ArgMax/ArgMin, bitwise ops and shifts are declared in array_grad.py.)
for _name in ("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
              "LogicalNot", "IsNan", "IsInf", "IsFinite", "All", "Any", "StopGradient", "BroadcastGradientArgs",
              "BroadcastArgs"):
    no_gradient(_name)


def _piecewise_constant_grad(op, grad):
    """Floor, Ceil, Round, FloorDiv, TruncateDiv: TF registers a gradient that is None for every input."""
    return [None] * len(op.inputs)


for _name in ("Floor", "Ceil", "Round", "FloorDiv", "TruncateDiv"):
    RegisterGradient(_name)(_piecewise_constant_grad)


@RegisterGradient("Sign")
def _sign_grad(op, grad):
    return [creation_ops.zeros_like(op.inputs[0])]


# --- pass-through -------------------------------------------------------------------------------
@RegisterGradient("Identity")
def _identity_grad(op, grad):
    return [grad]


@RegisterGradient("ReadVariableOp")
def _read_variable_grad(op, grad):
    return [grad]


@RegisterGradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op.inputs)


@RegisterGradient("Cast")
def _cast_grad(op, grad):
    src = op.inputs[0].dtype
    dst = op.outputs[0].dtype
    if (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex):
        return [math_ops.cast(grad, src)]
    return [None]


# --- unary elementwise --------------------------------------------------------------------------
@RegisterGradient("Neg")
def _neg_grad(op, grad):
    return [-grad]


@RegisterGradient("Abs")
def _abs_grad(op, grad):
    return [grad * math_ops.sign(op.inputs[0])]


@RegisterGradient("Square")
def _square_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * (x * math_ops.cast(2, x.dtype))]


def _zero_where_no_grad(grad, g):
    """`g`, but 0 where the incoming gradient is 0: TF's SqrtGrad/RsqrtGrad/ReciprocalGrad kernels,
    so tf.where(x > 0, tf.sqrt(x), 0.) has gradient 0 (not NaN) at x = 0."""
    return array_ops.where(math_ops.equal(grad, math_ops.cast(0, grad.dtype)), creation_ops.zeros_like(g), g)


def _div_no_nan(x, y):
    """x / y, 0 where y is 0 (TF's div_no_nan)."""
    zero = math_ops.equal(y, math_ops.cast(0, y.dtype))
    q = x / array_ops.where(zero, creation_ops.ones_like(y), y)
    return array_ops.where(zero, creation_ops.zeros_like(q), q)


@RegisterGradient("Sqrt")
def _sqrt_grad(op, grad):
    y = _conj(op.outputs[0])
    return [_zero_where_no_grad(grad, grad * math_ops.cast(0.5, y.dtype) / y)]


@RegisterGradient("Rsqrt")
def _rsqrt_grad(op, grad):
    y = _conj(op.outputs[0])
    return [_zero_where_no_grad(grad, grad * (math_ops.cast(-0.5, y.dtype) * y * y * y))]


@RegisterGradient("Reciprocal")
def _reciprocal_grad(op, grad):
    y = _conj(op.outputs[0])
    return [_zero_where_no_grad(grad, -grad * (y * y))]


@RegisterGradient("Exp")
def _exp_grad(op, grad):
    return [grad * _conj(op.outputs[0])]


@RegisterGradient("Expm1")
def _expm1_grad(op, grad):
    return [grad * math_ops.exp(_conj(op.inputs[0]))]


@RegisterGradient("Log")
def _log_grad(op, grad):
    return [grad * math_ops.reciprocal(_conj(op.inputs[0]))]


@RegisterGradient("Log1p")
def _log1p_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.reciprocal(math_ops.cast(1, x.dtype) + x)]


@RegisterGradient("Sin")
def _sin_grad(op, grad):
    return [grad * math_ops.cos(_conj(op.inputs[0]))]


@RegisterGradient("Cos")
def _cos_grad(op, grad):
    return [-grad * math_ops.sin(_conj(op.inputs[0]))]


@RegisterGradient("Tan")
def _tan_grad(op, grad):
    return [grad * math_ops.square(math_ops.reciprocal(math_ops.cos(_conj(op.inputs[0]))))]


@RegisterGradient("Tanh")
def _tanh_grad(op, grad):
    y = _conj(op.outputs[0])
    return [grad * (math_ops.cast(1, y.dtype) - y * y)]


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op, grad):
    y = _conj(op.outputs[0])
    return [grad * (y * (math_ops.cast(1, y.dtype) - y))]


# Inverse trigonometric, hyperbolic and special functions (TF's formulas).
def _one(x):
    return math_ops.cast(1, x.dtype)


@RegisterGradient("Asin")
def _asin_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.reciprocal(math_ops.sqrt(_one(x) - math_ops.square(x)))]


@RegisterGradient("Acos")
def _acos_grad(op, grad):
    x = _conj(op.inputs[0])
    return [-grad * math_ops.reciprocal(math_ops.sqrt(_one(x) - math_ops.square(x)))]


@RegisterGradient("Atan")
def _atan_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.reciprocal(_one(x) + math_ops.square(x))]


@RegisterGradient("Sinh")
def _sinh_grad(op, grad):
    return [grad * math_ops.cosh(_conj(op.inputs[0]))]


@RegisterGradient("Cosh")
def _cosh_grad(op, grad):
    return [grad * math_ops.sinh(_conj(op.inputs[0]))]


@RegisterGradient("Asinh")
def _asinh_grad(op, grad):
    return [grad / math_ops.cosh(_conj(op.outputs[0]))]


@RegisterGradient("Acosh")
def _acosh_grad(op, grad):
    return [grad / math_ops.sinh(_conj(op.outputs[0]))]


@RegisterGradient("Atanh")
def _atanh_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.reciprocal(_one(x) - math_ops.square(x))]


@RegisterGradient("Erf")
def _erf_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.cast(2 / np.sqrt(np.pi), x.dtype) * math_ops.exp(-math_ops.square(x))]


@RegisterGradient("Erfc")
def _erfc_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.cast(-2 / np.sqrt(np.pi), x.dtype) * math_ops.exp(-math_ops.square(x))]


@RegisterGradient("Erfinv")
def _erfinv_grad(op, grad):
    y = op.outputs[0]
    return [grad * math_ops.cast(np.sqrt(np.pi) / 2, y.dtype) * math_ops.exp(math_ops.square(y))]


@RegisterGradient("Lgamma")
def _lgamma_grad(op, grad):
    return [grad * math_ops.digamma(_conj(op.inputs[0]))]


@RegisterGradient("Digamma")
def _digamma_grad(op, grad):
    x = _conj(op.inputs[0])
    return [grad * math_ops.polygamma(_one(x), x)]


@RegisterGradient("Softsign")
def _softsign_grad(op, grad):
    x = op.inputs[0]
    return [grad / math_ops.square(_one(x) + math_ops.abs(x))]


# --- binary elementwise -------------------------------------------------------------------------
@RegisterGradient("AddV2")
def _add_grad(op, grad):
    return _binary(op, grad, grad)


@RegisterGradient("Sub")
def _sub_grad(op, grad):
    return _binary(op, grad, lambda: -grad)


@RegisterGradient("Mul")
def _mul_grad(op, grad):
    x, y = op.inputs
    return _binary(op, lambda: grad * _conj(y), lambda: _conj(x) * grad)


@RegisterGradient("RealDiv")
def _real_div_grad(op, grad):
    x, y = _conj(op.inputs[0]), _conj(op.inputs[1])
    return _binary(op, lambda: grad / y, lambda: grad * (-x / y / y))


@RegisterGradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op.inputs
    g = grad / (math_ops.square(y) + math_ops.square(x))
    return _binary(op, lambda: x * g, lambda: -y * g)


def _not_zero(x):
    return math_ops.cast(math_ops.not_equal(x, math_ops.cast(0, x.dtype)), x.dtype)


@RegisterGradient("Xlogy")
def _xlogy_grad(op, grad):
    x, y = op.inputs
    return _binary(op, lambda: math_ops.xlogy(_not_zero(x), y) * grad, lambda: math_ops.xdivy(x, y) * grad)


@RegisterGradient("Xdivy")
def _xdivy_grad(op, grad):
    x, y = op.inputs
    return _binary(op, lambda: math_ops.xdivy(_not_zero(x), y) * grad,
                   lambda: math_ops.xdivy(-x, math_ops.square(y)) * grad)


@RegisterGradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = _conj(op.inputs[0]), _conj(op.inputs[1])
    return _binary(op, lambda: math_ops.divide_no_nan(grad, y),
                   lambda: grad * math_ops.divide_no_nan(math_ops.divide_no_nan(-x, y), y))


@RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    return _binary(op, lambda: math_ops.multiply_no_nan(grad, y), lambda: math_ops.multiply_no_nan(x, grad))


@RegisterGradient("NextAfter")
def _nextafter_grad(op, grad):
    return _binary(op, grad, creation_ops.zeros_like(grad))


@RegisterGradient("Zeta")
def _zeta_grad(op, grad):
    x, q = op.inputs
    return [None, _reduce_to(-x * math_ops.zeta(x + _one(x), q) * grad, q)]


@RegisterGradient("Polygamma")
def _polygamma_grad(op, grad):
    n, x = op.inputs
    return [None, _reduce_to(math_ops.polygamma(n + _one(n), x) * grad, x)]


@RegisterGradient("FloorMod")
def _floor_mod_grad(op, grad):
    x, y = op.inputs
    return _binary(op, grad, grad * -math_ops.floordiv(x, y))


@RegisterGradient("Maximum")
def _maximum_grad(op, grad):
    x, y = op.inputs
    zeros = creation_ops.zeros_like(grad)
    mask = math_ops.greater_equal(x, y)
    return _binary(op, lambda: array_ops.where(mask, grad, zeros), lambda: array_ops.where(mask, zeros, grad))


@RegisterGradient("Minimum")
def _minimum_grad(op, grad):
    x, y = op.inputs
    zeros = creation_ops.zeros_like(grad)
    mask = math_ops.less_equal(x, y)
    return _binary(op, lambda: array_ops.where(mask, grad, zeros), lambda: array_ops.where(mask, zeros, grad))


@RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op.inputs
    d = grad * (math_ops.cast(2, grad.dtype) * (x - y))
    return _binary(op, d, lambda: -d)


@RegisterGradient("Pow")
def _pow_grad(op, grad):
    x, y = _conj(op.inputs[0]), _conj(op.inputs[1])
    z = _conj(op.outputs[0])

    def gx():
        return grad * y * math_ops.pow(x, y - math_ops.cast(1, y.dtype))

    def gy():
        # d/dy x^y = log(x) x^y, taken as 0 where x = 0, and where x < 0 for real x (TF's convention:
        # no NaN at x = 0; a negative real base has no real logarithm).
        zero = math_ops.cast(0, x.dtype)
        mask = math_ops.not_equal(x, zero) if x.dtype.is_complex else math_ops.greater(x, zero)
        safe_x = array_ops.where(mask, x, creation_ops.ones_like(x))
        log_x = array_ops.where(mask, math_ops.log(safe_x), creation_ops.zeros_like(x))
        return grad * z * log_x
    return _binary(op, gx, gy)


@RegisterGradient("ClipByValue")
def _clip_by_value_grad(op, grad):
    x, lo, hi = op.inputs
    zeros = creation_ops.zeros_like(grad)
    below = math_ops.less(x, lo)
    above = math_ops.greater(x, hi)
    inside = math_ops.logical_not(math_ops.logical_or(below, above))
    return [_reduce_to(array_ops.where(inside, grad, zeros), x),
            _reduce_to(array_ops.where(below, grad, zeros), lo),
            _reduce_to(array_ops.where(above, grad, zeros), hi)]


# --- reductions ---------------------------------------------------------------------------------
@RegisterGradient("Sum")
def _sum_grad(op, grad):
    return [_broadcast_reduced(op, grad), None]


@RegisterGradient("Mean")
def _mean_grad(op, grad):
    g = _broadcast_reduced(op, grad)
    n_in, n_out = _num_elements(op.inputs[0]), _num_elements(op.outputs[0])
    if isinstance(n_in, int) and isinstance(n_out, int):
        factor = _execute.convert_to_tensor(n_in // max(n_out, 1), g._dtype_enum)  # TF: a constant of g's dtype
    else:
        factor = math_ops.cast(math_ops.maximum(n_in // math_ops.maximum(n_out, 1), 1), g.dtype)
    return [g / factor, None]


def _min_or_max_grad(op, grad):
    x = op.inputs[0]
    kept = _kept_shape(op)
    y = array_ops.reshape(op.outputs[0], kept)
    g = array_ops.reshape(grad, kept)
    # Ties share the gradient equally, as in TF.
    indicators = math_ops.cast(math_ops.equal(y, x), grad.dtype)
    count = array_ops.reshape(reduction_ops.reduce_sum(indicators, op.inputs[1]), kept)
    return [indicators / count * g, None]


RegisterGradient("Max")(_min_or_max_grad)
RegisterGradient("Min")(_min_or_max_grad)


@RegisterGradient("Prod")
def _prod_grad(op, grad):
    # d prod / d x_i = product of the others: exclusive cumulative products from both sides, over
    # the reduced axes moved to the front and flattened (no division, so zeros are fine).
    x = op.inputs[0]
    ra = _reduction_axes(op)
    if ra is None:
        raise NotImplementedError("the gradient of reduce_prod needs a known rank and constant axes")
    rank, axes = ra
    g = _broadcast_reduced(op, grad)
    if rank == 0:
        return [g, None]
    other = [i for i in range(rank) if i not in axes]
    perm = axes + other
    sx = array_ops.shape(x)
    reduced_n = reduction_ops.reduce_prod(array_ops.gather(sx, axes)) if axes else 1
    xp = array_ops.transpose(x, perm)
    xp_shape = array_ops.shape(xp)
    flat = array_ops.reshape(xp, array_ops.stack([math_ops.cast(reduced_n, dtypes.int32), -1]))
    left = reduction_ops.cumprod(flat, axis=0, exclusive=True)
    right = reduction_ops.cumprod(flat, axis=0, exclusive=True, reverse=True)
    # For complex inputs the gradient is in the conjugate direction (TF's convention).
    others = array_ops.reshape(_conj(left) * _conj(right), xp_shape)
    inv = [0] * rank
    for i, p in enumerate(perm):
        inv[p] = i
    return [g * array_ops.transpose(others, inv), None]


@RegisterGradient("Cumprod")
def _cumprod_grad(op, grad):
    x = op.inputs[0]
    exclusive = bool(_attr(op, "exclusive", False))
    reverse = bool(_attr(op, "reverse", False))
    prod = reduction_ops.cumprod(x, op.inputs[1], exclusive=exclusive, reverse=reverse)
    out = reduction_ops.cumsum(prod * grad, op.inputs[1], exclusive=exclusive, reverse=not reverse)
    return [_div_no_nan(out, x), None]


# --- matrix products ----------------------------------------------------------------------------
def _product_grads(op, grad, a, b, ta, tb, mm):
    """The gradients of a @ b (with its transpose flags ta, tb) that someone reads; mm(x, y, tx, ty)
    is the product with transposed (adjoint) operands. The gradient of a layer's input data is as
    costly as the forward product and usually unwanted (TF's skip_input_indices)."""
    ga = gb = None
    if needs(op, 0):
        ga = (mm(grad, b, False, True) if not ta and not tb else mm(grad, b, False, False) if not ta else
              mm(b, grad, False, True) if not tb else mm(b, grad, True, True))
    if needs(op, 1):
        gb = (mm(a, grad, True, False) if not ta and not tb else mm(grad, a, True, False) if not ta else
              mm(a, grad, False, False) if not tb else mm(grad, a, True, True))
    return ga, gb


@RegisterGradient("MatMul")
def _matmul_grad(op, grad):
    a, b = _conj(op.inputs[0]), _conj(op.inputs[1])
    ta, tb = bool(_attr(op, "transpose_a", False)), bool(_attr(op, "transpose_b", False))

    def mm(x, y, tx, ty):  # MatMul itself: its inputs are rank 2, conj applied
        return _execute.execute1("MatMul", [x, y], {"transpose_a": tx, "transpose_b": ty})
    return list(_product_grads(op, grad, a, b, ta, tb, mm))


@RegisterGradient("BatchMatMulV2")
def _batch_matmul_grad(op, grad):
    x, y = op.inputs
    ax, ay = bool(_attr(op, "adj_x", False)), bool(_attr(op, "adj_y", False))
    gx, gy = _product_grads(op, grad, x, y, ax, ay,
                            lambda p, q, tp, tq: linalg_ops.matmul(p, q, adjoint_a=tp, adjoint_b=tq))
    # Broadcast batch dims sum back to each input's batch shape.
    return [_reduce_to(gx, x), _reduce_to(gy, y)]


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op, grad):
    # TF's convention: grad * x / |x| as a complex number, 0 where x = 0 (div_no_nan).
    x = op.inputs[0]
    y = op.outputs[0]
    return [_div_no_nan(math_ops.cast(grad, x.dtype) * x, math_ops.cast(y, x.dtype))]
