"""tf.debugging asserts, Assert and check_numerics.

Eagerly an assert checks at once and raises InvalidArgumentError with TF's eager text; while
tracing it adds a stateful Assert op whose kernel raises when the graph runs ("assertion failed:
[...] [...]"), like TF's graph asserts.
"""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes as _dtypes
from eagerflow.framework import errors
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.ops import name_scope
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops import _execute
from eagerflow.ops import math_ops, reduction_ops
from eagerflow.ops._grad_util import static_value


def _tensor(x):
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def _eager():
    return _core.current_graph() is None


def _pretty(item, summarize):
    """One line of an eager assert message (tensors as a list of element strings)."""
    if isinstance(item, Tensor):
        arr = item.numpy()
        if np.ndim(arr) == 0:
            return str(arr)
        flat = arr.reshape((-1,))
        items = [str(v) for v in flat[:summarize]]
        if len(items) < flat.size:
            items.append("...")
        return str(items)
    return str(item)


def _raise(data, summarize):
    raise errors.InvalidArgumentError(None, None, "\n".join(_pretty(d, summarize) for d in data))


def _graph_assert(condition, data, summarize, name):
    """Adds Assert(all(condition), data) to the graph being built."""
    items = [d if isinstance(d, Tensor) else convert_to_tensor(d) for d in data]
    _execute.execute("Assert", [condition] + items, {"summarize": 3 if summarize is None else summarize},
                     name or "Assert")


def _tensor_name(t):
    return t.name if t._is_symbolic else "shape=%s dtype=%s" % (t.shape, t.dtype.name)


def _binary_assert(sym, op, opname, x, y, data, summarize, message, name):
    with name_scope(name or opname):
        x, y = _tensor(x), _tensor(y)
        test = op(x, y)
        condition = reduction_ops.reduce_all(test)
        if _eager():
            if bool(condition.numpy()):
                return None
            summarize = 3 if summarize is None else (10 ** 9 if summarize < 0 else summarize)
            if data is None:
                data = _mismatch_data(sym, x, y, test, summarize)
            if message is not None:
                data = [message] + list(data)
            _raise(data, summarize)
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym, "x (%s) = " % _tensor_name(x), x,
                    "y (%s) = " % _tensor_name(y), y]
        if message is not None:
            data = [message] + list(data)
        return _graph_assert(condition, data, summarize, "Assert")


def _mismatch_data(sym, x, y, test, summarize):
    """TF's eager text: the failing indices and values, then the first elements of x and y."""
    data = ["Condition x %s y did not hold." % sym]
    xs, ys = x.numpy(), y.numpy()
    if summarize > 0:
        if xs.shape == ys.shape and xs.ndim > 0:
            mask = ~np.asarray(test.numpy(), dtype=bool)
            idx = np.argwhere(mask)
            n = min(summarize, idx.shape[0])
            data += ["Indices of first %d different values:" % n, idx[:n], "Corresponding x values:",
                     xs[mask].reshape((-1,))[:n], "Corresponding y values:", ys[mask].reshape((-1,))[:n]]
        xf, yf = xs.reshape((-1,)), ys.reshape((-1,))
        nx, ny = min(xf.size, summarize), min(yf.size, summarize)
        data += ["First %d elements of x:" % nx, xf[:nx], "First %d elements of y:" % ny, yf[:ny]]
    return data


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("==", math_ops.equal, "assert_equal", x, y, data, summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("!=", math_ops.not_equal, "assert_none_equal", x, y, data, summarize, message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<", math_ops.less, "assert_less", x, y, data, summarize, message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<=", math_ops.less_equal, "assert_less_equal", x, y, data, summarize, message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">", math_ops.greater, "assert_greater", x, y, data, summarize, message, name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">=", math_ops.greater_equal, "assert_greater_equal", x, y, data, summarize, message,
                          name)


def _sign_assert(cond_text, op, opname, x, message, summarize, name):
    """assert_positive and friends: compares x with zero; data names x by shape and dtype eagerly."""
    x = _tensor(x)
    zero = convert_to_tensor(0, dtype=x.dtype)
    data = ["" if message is None else message, "Condition x %s 0 did not hold element-wise:" % cond_text,
            "x (%s) = " % _tensor_name(x), x]
    return _binary_assert(cond_text, lambda a, b: op(a, zero), opname, x, zero, data, summarize, None, name)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert(">", math_ops.greater, "assert_positive", x, message, summarize, name)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("<", math_ops.less, "assert_negative", x, message, summarize, name)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert(">=", math_ops.greater_equal, "assert_non_negative", x, message, summarize, name)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    return _sign_assert("<=", math_ops.less_equal, "assert_non_positive", x, message, summarize, name)


def _shape_text(shape):
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def assert_rank(x, rank, message=None, name=None):
    """Rank check: ValueError (TF's text) when both ranks are known now, else a graph Assert."""
    x = _tensor(x)
    rank = _tensor(rank)
    if rank.dtype != _dtypes.int32:
        raise TypeError(f"tensor must be of type tf.int32; got {rank.dtype!r}")
    rank_static = static_value(rank)  # an eager value or a graph constant
    prefix = "" if message is None else message + ".  "
    tname = x.name if x._is_symbolic else ""
    shape = x._shape_tuple
    if rank_static is not None:
        if np.ndim(rank_static) != 0:
            raise ValueError("Rank must be a scalar.")
        if shape is not None:
            if len(shape) != int(rank_static):
                raise ValueError(f"{prefix}Tensor {tname} must have rank {int(rank_static)}.  Received rank "
                                 f"{len(shape)}, shape {_shape_text(shape)}")
            return None
    if _eager():
        return None
    from eagerflow.ops import array_ops
    with name_scope(name or "assert_rank"):
        if rank_static is None:
            _graph_assert(math_ops.equal(array_ops.rank(rank), 0), ["Rank must be a scalar."], None, "Assert")
        condition = math_ops.equal(array_ops.rank(x), rank)
        data = [prefix, f"Tensor {tname} must have rank", rank, "Received shape: ", array_ops.shape(x)]
        return _graph_assert(condition, data, None, "Assert")


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Static check that tensors' shapes agree with symbolic dimension names (ValueError with TF's text)."""
    sizes = {}
    items = shapes.items() if hasattr(shapes, "items") else shapes
    for x, spec in items:
        x = _tensor(x)
        shape = x._shape_tuple
        if shape is None:
            continue
        spec = tuple(spec)
        desc = "shape=%s dtype=%s" % (_shape_text(shape), x.dtype.name)
        if len(spec) != len(shape) and not (spec and spec[0] == "..."):
            raise ValueError(f"Tensor {desc} must have rank {len(spec)}.  Received rank {len(shape)}, shape "
                             f"{_shape_text(shape)}")
        for i, (sym, d) in enumerate(zip(spec, shape)):
            if sym in (None, "."):
                continue
            if isinstance(sym, int):
                if d is not None and d != sym:
                    raise ValueError(f"Tensor {desc} dimension {i} must have size {sym}.  Received size {d}, shape "
                                     f"{_shape_text(shape)}")
                continue
            if sym in sizes:
                want, src, j = sizes[sym]
                if d is not None and want is not None and d != want:
                    raise ValueError(f"Specified by tensor {src} dimension {j}.  Tensor {desc} dimension {i} must "
                                     f"have size {want}.  Received size {d}, shape {_shape_text(shape)}")
            else:
                sizes[sym] = (d, desc, i)
    return None


def Assert(condition, data, summarize=None, name=None):  # pylint: disable=invalid-name
    """tf.debugging.Assert: raises InvalidArgumentError with `data` summarized when condition is False."""
    condition = _tensor(condition)
    if _eager():
        if bool(condition.numpy()):
            return None
        n = 3 if summarize is None else summarize
        parts = []
        for d in data:
            arr = _tensor(d).numpy()
            flat = np.asarray(arr).reshape((-1,))
            parts.append(", ".join(str(v) for v in (flat if n < 0 else flat[:n])))
        raise errors.InvalidArgumentError(None, None, "Expected '%s' to be true. Summarized data: %s" % (
            condition, "\n".join(parts)))
    with name_scope(name or "Assert"):
        return _graph_assert(condition, list(data), summarize, "Assert")


def check_numerics(tensor, message, name=None):
    """Passes `tensor` through; raises InvalidArgumentError ("<message> : Tensor had NaN values") if it
    has a NaN or Inf."""
    return _execute.execute1("CheckNumerics", [_tensor(tensor)], {"message": message}, name or "CheckNumerics")


# Graph passes that would hide an op's own output from the check (fusion merges ops, constant
# folding evaluates them at plan time): off for plans built while checking is on, as TF instruments
# every op. The user's settings come back on disable.
_SAVED_PASSES = []


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """After this, any op (eager or in a graph) producing a NaN or Inf raises InvalidArgumentError."""
    if not _core.check_numerics_enabled():
        opts = _core.get_optimizer_options()
        _SAVED_PASSES[:] = [{k: opts[k] for k in ("elementwise_fusion", "constant_folding")}]
        _core.set_optimizer_options({"elementwise_fusion": False, "constant_folding": False})
    _core.set_check_numerics(True)


def disable_check_numerics():
    if _core.check_numerics_enabled() and _SAVED_PASSES:
        _core.set_optimizer_options(_SAVED_PASSES.pop())
    _core.set_check_numerics(False)


def ensure_shape(x, shape, name=None):
    """`x`, checked when it runs to have a shape that fits `shape` (None dims fit any size); in a graph its
    static shape becomes the merge of the two."""
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    dims = None if shape.rank is None else [-1 if d is None else d for d in shape.as_list()]
    try:
        return _execute.execute1("EnsureShape", [_tensor(x)], {"shape": dims}, name or "EnsureShape")
    except errors.InvalidArgumentError as e:
        if not _eager():
            raise
        # TF's eager wrapper runs this op on its slow path, whose errors end in " name: <name>".
        raise type(e)(e.node_def, e.op, f"{e.message} name: {name or ''}") from None
