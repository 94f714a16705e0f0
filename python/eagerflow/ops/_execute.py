"""The Python side of the one dispatch path: look an op up once, then execute it in C++."""
from eagerflow import _core

_OPS = {}


def op_def(name):
    """The registered OpDef for a TF op type name (cached)."""
    d = _OPS.get(name)
    if d is None:
        d = _OPS[name] = _core.get_op(name)
    return d


def execute(name, inputs, attrs=None, node_name=None):
    """Runs op `name` and returns its list of outputs (`node_name` names the node in a graph)."""
    return _core.execute(op_def(name), inputs, attrs, node_name)


def execute1(name, inputs, attrs=None, node_name=None):
    """Runs single-output op `name` and returns the output tensor."""
    return _core.execute1(op_def(name), inputs, attrs, node_name)


convert_to_tensor = _core.convert_to_tensor  # (value, dtype_hint_enum=None), fast C++ path

_INT32 = 3  # DataType enum
_INT32_MIN, _INT32_MAX = -(2 ** 31), 2 ** 31 - 1


def list_beyond_int32(x):
    """Whether x is a (nested) list or tuple holding a Python int beyond int32."""
    if not isinstance(x, (list, tuple)):
        return False
    return any(not _INT32_MIN <= v <= _INT32_MAX if type(v) is int else list_beyond_int32(v) for v in x)


def index_tensor(x):
    """An index-like op input (shape, axis, multiples) as TF's op fast path converts it: a Python
    int as the attr's int32 (wrapping, as TF does), a list as int32 unless a value needs int64."""
    if type(x) is list or type(x) is tuple:
        t = _core.int_list_to_tensor(x)  # flat Python ints: C++ picks int32 or int64 by fit
        if t is not None:
            return t
    return convert_to_tensor(x) if list_beyond_int32(x) else convert_to_tensor(x, _INT32)


def binary_inputs(x, y):
    """The operands of a binary op converted like TF's op inputs: the first tensor or variable
    fixes the dtype (else x's own dtype does) and the other operand must convert to it exactly
    (TypeError where a Python value does not fit; NumPy values are cast)."""
    try:
        return _binary_inputs(x, y)
    except SystemError as e:  # TF's op fast path raises the uint64 OverflowError, not convert's SystemError
        if not isinstance(e.__cause__, OverflowError):
            raise
        raise OverflowError(str(e.__cause__)) from None


def _binary_inputs(x, y):
    if isinstance(x, _core.Tensor):
        return x, convert_to_tensor(y, x._dtype_enum, True)
    if _tensor_like(y) and not hasattr(x, "_as_tensor"):
        y = convert_to_tensor(y)
        return convert_to_tensor(x, y._dtype_enum, True), y
    x = convert_to_tensor(x)
    return x, convert_to_tensor(y, x._dtype_enum, True)


def hinted_inputs(x, y):
    """x converted on its own and y with x's dtype as a hint (TF's tf.add and tf.linalg.matmul):
    a mismatch is left to the op to report."""
    if not isinstance(x, _core.Tensor):
        x = convert_to_tensor(x)
    return x, convert_to_tensor(y, x._dtype_enum)


def bool_attr(value, name):
    """A bool attr argument: a Python bool only, as TF's op wrappers require."""
    if not isinstance(value, bool):
        raise TypeError(f"Expected bool for argument '{name}' not {value!r}.")
    return value


def _tensor_like(x):
    return isinstance(x, _core.Tensor) or hasattr(x, "_as_tensor")


_as_dtype = None  # dtypes.as_dtype, bound on first use (dtypes imports this module's package)


def attr_dtype(dtype):
    """A dtype argument (DType, name, NumPy type) as the DType object attrs expect."""
    global _as_dtype
    if _as_dtype is None:
        from eagerflow.framework.dtypes import as_dtype as _as_dtype
    return _as_dtype(dtype)
