"""Elementwise math wrappers (tf.add, tf.math.exp, tf.cast, tf.clip_by_value, ...) over the C++ ops.

Note: this module defines abs, round, pow (TF's names); use builtins.* for Python's own.
"""
import builtins

import numpy as np

from eagerflow import _core
from eagerflow.framework import dispatch as _dispatch
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor as _convert_exact
from eagerflow.ops._execute import attr_dtype, binary_inputs, convert_to_tensor, execute1, hinted_inputs
from eagerflow.ops.linalg_ops import matmul  # noqa: F401  (TF keeps matmul in math_ops)

_Tensor = _core.Tensor
_BOOL = dtypes.bool._type_enum


def _tensor(x):
    """`x` as a tensor; Python values get TF's default dtype inference (1 -> int32, 1. -> float32)."""
    return x if isinstance(x, _Tensor) else convert_to_tensor(x)


def _binary(op):
    def fn(x, y, name=None):
        return execute1(op, binary_inputs(x, y), None, name)
    return fn


def _unary(op):
    def fn(x, name=None):
        return execute1(op, [_tensor(x)], None, name)
    return fn


def _named(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


# ---- binary arithmetic ----

def add(x, y, name=None):
    """x + y elementwise (strings concatenate), with broadcasting; y takes x's dtype where it fits."""
    return execute1("AddV2", hinted_inputs(x, y), None, name or "Add")


subtract = _named(_binary("Sub"), "subtract", "x - y elementwise, with broadcasting.")
multiply = _named(_binary("Mul"), "multiply", "x * y elementwise, with broadcasting.")
floordiv = _named(_binary("FloorDiv"), "floordiv", "x // y elementwise, rounding toward -inf like Python.")
floormod = _named(_binary("FloorMod"), "floormod", "x % y elementwise; the result has the sign of y, like Python.")
mod = floormod
pow = _named(_binary("Pow"), "pow", "x ** y elementwise; integers to negative powers are an error.")  # noqa: A001
maximum = _named(_binary("Maximum"), "maximum", "max(x, y) elementwise; NaN propagates.")
minimum = _named(_binary("Minimum"), "minimum", "min(x, y) elementwise; NaN propagates.")
squared_difference = _named(_binary("SquaredDifference"), "squared_difference", "(x - y) ** 2 elementwise.")
realdiv = _named(_binary("RealDiv"), "realdiv", "x / y for same-dtype inputs, without Python's int -> float rule.")


def truediv(x, y, name=None):
    """x / y with Python 3 semantics: int8/int16/uint8 become float32, int32/int64 float64.

    Raises TypeError when x and y have different dtypes."""
    return _core.truediv(_tensor(x), y)


def divide(x, y, name=None):
    """x / y (tf.divide): a non-tensor x takes y's dtype, then Python 3 division applies."""
    if not isinstance(x, _Tensor) and not hasattr(x, "_as_tensor"):
        x = _convert_exact(x, dtype=y.dtype) if isinstance(y, _Tensor) else convert_to_tensor(x)
    return _tensor(x) / y


def div(x, y, name=None):
    """Python 2 style division: integer inputs floor-divide, floats divide (tf.compat.v1.div)."""
    x, y = binary_inputs(x, y)
    if x.dtype.is_integer:
        return execute1("FloorDiv", [x, y])
    return execute1("RealDiv", [x, y])


def scalar_mul(scalar, x, name=None):
    """scalar * x where `scalar` must be 0-D; a Python scalar takes x's dtype exactly."""
    x = _tensor(x)
    scalar = scalar if isinstance(scalar, _Tensor) else _convert_exact(scalar, dtype=x.dtype)
    if scalar.ndim != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {scalar.shape}.")
    return execute1("Mul", [scalar, x])


def add_n(inputs, name=None):
    """Sums a list of tensors of the same dtype and shape (no broadcasting)."""
    if isinstance(inputs, _Tensor):
        inputs = list(inputs)
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and "
                         "shape.")
    tensors = [_tensor(t) for t in inputs]
    if len(tensors) == 1:
        return tensors[0]
    return execute1("AddN", tensors)


# ---- comparisons and logic ----

equal = _named(_binary("Equal"), "equal", "x == y elementwise (bool), with broadcasting.")
not_equal = _named(_binary("NotEqual"), "not_equal", "x != y elementwise (bool), with broadcasting.")
less = _named(_binary("Less"), "less", "x < y elementwise (bool), with broadcasting.")
less_equal = _named(_binary("LessEqual"), "less_equal", "x <= y elementwise (bool), with broadcasting.")
greater = _named(_binary("Greater"), "greater", "x > y elementwise (bool), with broadcasting.")
greater_equal = _named(_binary("GreaterEqual"), "greater_equal", "x >= y elementwise (bool), with broadcasting.")


def _bool_input(x):
    """Tensors pass as they are (the kernel reports a wrong dtype); Python values must be bools."""
    if isinstance(x, _Tensor):
        return x
    return _convert_exact(x, dtype=dtypes.bool)


def logical_and(x, y, name=None):
    """x AND y elementwise on bool tensors, with broadcasting."""
    return execute1("LogicalAnd", [_bool_input(x), _bool_input(y)])


def logical_or(x, y, name=None):
    """x OR y elementwise on bool tensors, with broadcasting."""
    return execute1("LogicalOr", [_bool_input(x), _bool_input(y)])


def logical_not(x, name=None):
    """NOT x elementwise on a bool tensor."""
    return execute1("LogicalNot", [_bool_input(x)])


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y elementwise: (x OR y) AND NOT (x AND y). Both must convert to bool exactly."""
    x = _convert_exact(x, dtype=dtypes.bool)
    y = _convert_exact(y, dtype=dtypes.bool)
    return execute1("LogicalAnd", [execute1("LogicalOr", [x, y]),
                                   execute1("LogicalNot", [execute1("LogicalAnd", [x, y])])])


# ---- unary math ----

negative = _named(_unary("Neg"), "negative", "-x elementwise (integers wrap: -INT_MIN is INT_MIN).")
neg = negative
sign = _named(_unary("Sign"), "sign", "-1, 0 or 1 by the sign of x (NaN stays NaN; complex: x / |x|).")
exp = _named(_unary("Exp"), "exp", "e ** x elementwise.")
expm1 = _named(_unary("Expm1"), "expm1", "e ** x - 1, accurate for small x.")
log = _named(_unary("Log"), "log", "Natural logarithm elementwise.")
log1p = _named(_unary("Log1p"), "log1p", "log(1 + x), accurate for small x.")
sqrt = _named(_unary("Sqrt"), "sqrt", "Square root elementwise.")
rsqrt = _named(_unary("Rsqrt"), "rsqrt", "1 / sqrt(x) elementwise.")
square = _named(_unary("Square"), "square", "x * x elementwise (integers wrap).")
reciprocal = _named(_unary("Reciprocal"), "reciprocal", "1 / x elementwise.")
tanh = _named(_unary("Tanh"), "tanh", "Hyperbolic tangent elementwise.")
sigmoid = _named(_unary("Sigmoid"), "sigmoid", "1 / (1 + exp(-x)) elementwise.")
sin = _named(_unary("Sin"), "sin", "Sine elementwise.")
cos = _named(_unary("Cos"), "cos", "Cosine elementwise.")
tan = _named(_unary("Tan"), "tan", "Tangent elementwise.")
floor = _named(_unary("Floor"), "floor", "Largest integer not greater than x, elementwise.")
ceil = _named(_unary("Ceil"), "ceil", "Smallest integer not less than x, elementwise.")
is_nan = _named(_unary("IsNan"), "is_nan", "True where x is NaN.")
is_inf = _named(_unary("IsInf"), "is_inf", "True where x is +inf or -inf.")
is_finite = _named(_unary("IsFinite"), "is_finite", "True where x is neither NaN nor infinite.")
asin = _named(_unary("Asin"), "asin", "Inverse sine elementwise.")
acos = _named(_unary("Acos"), "acos", "Inverse cosine elementwise.")
atan = _named(_unary("Atan"), "atan", "Inverse tangent elementwise.")
sinh = _named(_unary("Sinh"), "sinh", "Hyperbolic sine elementwise.")
cosh = _named(_unary("Cosh"), "cosh", "Hyperbolic cosine elementwise.")
asinh = _named(_unary("Asinh"), "asinh", "Inverse hyperbolic sine elementwise.")
acosh = _named(_unary("Acosh"), "acosh", "Inverse hyperbolic cosine elementwise.")
atanh = _named(_unary("Atanh"), "atanh", "Inverse hyperbolic tangent elementwise.")
erf = _named(_unary("Erf"), "erf", "The Gauss error function elementwise.")
erfc = _named(_unary("Erfc"), "erfc", "1 - erf(x), accurate where erf(x) is near 1.")
erfinv = _named(_unary("Erfinv"), "erfinv", "The inverse of erf on (-1, 1); +-inf at +-1.")
lgamma = _named(_unary("Lgamma"), "lgamma", "log(|Gamma(x)|) elementwise.")
digamma = _named(_unary("Digamma"), "digamma", "psi(x), the derivative of lgamma; NaN at the poles 0, -1, ...")
softsign = _named(_unary("Softsign"), "softsign", "x / (1 + |x|) elementwise.")
atan2 = _named(_binary("Atan2"), "atan2", "The angle of the point (x, y): atan(y / x) in the right quadrant.")
xlogy = _named(_binary("Xlogy"), "xlogy", "x * log(y), 0 where x is 0.")
xdivy = _named(_binary("Xdivy"), "xdivy", "x / y, 0 where x is 0.")
multiply_no_nan = _named(_binary("MulNoNan"), "multiply_no_nan", "x * y, 0 where y is 0 (even if x is NaN or inf).")


def divide_no_nan(x, y, name=None):
    """x / y, 0 where y is 0; integer inputs divide as truediv does (int32 -> float64)."""
    x, y = binary_inputs(x, y)
    if not (x.dtype.is_floating or x.dtype.is_complex):
        x, y = (cast(t, dtypes.float64 if t.dtype.size >= 4 else dtypes.float32) for t in (x, y))
    return execute1("DivNoNan", [x, y], None, name)
truncatediv = _named(_binary("TruncateDiv"), "truncatediv", "x / y rounded toward zero, like C.")
truncatemod = _named(_binary("TruncateMod"), "truncatemod", "x % y with the sign of x, like C's fmod.")
nextafter = _named(_binary("NextAfter"), "nextafter", "The next representable value after x1 toward x2.")
zeta = _named(_binary("Zeta"), "zeta", "The Hurwitz zeta function sum((k + q) ** -x), x > 1.")
polygamma = _named(_binary("Polygamma"), "polygamma", "The a-th derivative of digamma at x (a an integer >= 0).")


def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), without overflow."""
    x = _tensor(x)
    return negative(softplus(negative(x)))


def softplus(features, name=None):
    """log(exp(features) + 1) elementwise, without overflow."""
    return execute1("Softplus", [_tensor(features)])


def abs(x, name=None):  # noqa: A001 - TF's name
    """|x| elementwise; complex inputs give their float magnitude."""
    x = _tensor(x)
    if x.dtype.is_complex:
        return execute1("ComplexAbs", [x])
    return execute1("Abs", [x])


def round(x, name=None):  # noqa: A001 - TF's name
    """Rounds half to even (banker's rounding); integers are returned unchanged."""
    x = _tensor(x)
    if x.dtype.is_integer:
        return x
    return execute1("Round", [x])


# ---- dtype conversion and clipping ----

def cast(x, dtype, name=None):
    """x converted to `dtype`: float -> int truncates toward zero, complex -> real keeps the real part."""
    dtype = attr_dtype(dtype)
    x = _tensor(x)
    if x.dtype == dtype:
        return x
    return execute1("Cast", [x], {"DstT": dtype}, name)


def conj(x, name=None):
    """Complex conjugate; real tensors are returned unchanged (TF's math_ops.conj)."""
    x = _tensor(x)
    if not x.dtype.is_complex:
        return x
    return execute1("Conj", [x], None, name)


def _bound(v, dtype):
    # Python values must convert to t's dtype exactly (tf.clip_by_value(int_t, 2.5, 8) is a TypeError).
    if isinstance(v, _Tensor) or hasattr(v, "_as_tensor"):
        return _tensor(v)
    return _convert_exact(v, dtype=dtype)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips t to [clip_value_min, clip_value_max]; bounds broadcast to t's shape. NaN propagates."""
    t = _tensor(t)
    lo = _bound(clip_value_min, t.dtype)
    hi = _bound(clip_value_max, t.dtype)
    shape = t._shape_tuple
    fast = (t.dtype.is_floating or t.dtype.is_integer) and lo.dtype == t.dtype and hi.dtype == t.dtype and \
        all(b.ndim == 0 or b._shape_tuple == shape for b in (lo, hi))
    if fast:
        return execute1("ClipByValue", [t, lo, hi])
    # General case as TF computes it: minimum, then maximum, and the result keeps t's shape.
    t_min = execute1("Minimum", [t, hi])
    if t_min._shape_tuple != shape:
        raise ValueError(f"Shapes {t.shape} and {t_min.shape} are incompatible")
    t_max = execute1("Maximum", [t_min, lo])
    if t_max._shape_tuple != shape:
        raise ValueError(f"Shapes {t.shape} and {t_max.shape} are incompatible")
    return t_max


def saturate_cast(value, dtype, name=None):
    """Casts `value` to `dtype`, clamping to the target's range first instead of wrapping."""
    dtype = attr_dtype(dtype)
    value = _tensor(value)
    src = value.dtype
    if src.is_complex and not dtype.is_complex:
        value = execute1("Cast", [value], {"DstT": src.real_dtype})
        src = value.dtype
    if (src.is_integer or src.is_floating) and (dtype.is_integer or dtype.is_floating):
        lo, hi = max(src.min, dtype.min), min(src.max, dtype.max)
        if lo > src.min or hi < src.max:
            value = clip_by_value(value, _in_dtype(lo, src), _in_dtype(hi, src))
    return cast(value, dtype)


def _in_dtype(v, dtype):
    # A bound representable in `dtype` (float32 cannot hold int64's max exactly: round toward 0).
    a = np.array(v, dtype=np.float64 if dtype.is_floating else object).astype(dtype.as_numpy_dtype)
    if dtype.is_floating and builtins.abs(float(a)) > builtins.abs(v):
        a = np.nextafter(a, np.zeros_like(a))
    return _core.from_numpy(np.asarray(a))


# ---- bitwise (tf.bitwise) ----

bitwise_and = _named(_binary("BitwiseAnd"), "bitwise_and", "x & y elementwise on integers.")
bitwise_or = _named(_binary("BitwiseOr"), "bitwise_or", "x | y elementwise on integers.")
bitwise_xor = _named(_binary("BitwiseXor"), "bitwise_xor", "x ^ y elementwise on integers.")
invert = _named(_unary("Invert"), "invert", "~x elementwise on integers (bitwise not).")
left_shift = _named(_binary("LeftShift"), "left_shift", "x << y elementwise on integers.")
right_shift = _named(_binary("RightShift"), "right_shift", "x >> y elementwise (arithmetic for signed integers).")


# ---- dispatch: composite values (ragged tensors) reach these through framework/dispatch.py ----

_UNARY_APIS = ("negative", "sign", "exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "square", "reciprocal", "tanh",
               "sigmoid", "sin", "cos", "tan", "floor", "ceil", "is_nan", "is_inf", "is_finite", "asin", "acos",
               "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "lgamma", "digamma",
               "softsign", "log_sigmoid", "softplus", "abs", "round", "cast", "conj", "logical_not", "invert",
               "saturate_cast")
_BINARY_APIS = ("add", "subtract", "multiply", "floordiv", "floormod", "pow", "maximum", "minimum",
                "squared_difference", "realdiv", "truediv", "divide", "div", "equal", "not_equal", "less",
                "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "atan2",
                "xlogy", "xdivy", "multiply_no_nan", "divide_no_nan", "truncatediv", "truncatemod", "nextafter",
                "zeta", "polygamma", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")
for _name in _UNARY_APIS:
    globals()[_name] = _dispatch.add_dispatch_support(globals()[_name], "unary")
for _name in _BINARY_APIS:
    globals()[_name] = _dispatch.add_dispatch_support(globals()[_name], "binary")
neg = negative
mod = floormod
del _name
