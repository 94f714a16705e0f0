"""Overloads of Python builtins for converted code: len/range/abs/int/float accept tensors; print
stays Python's print (as TF's AutoGraph, tracing-time output)."""
import builtins

from eagerflow.framework.tensor import Tensor


def len_(s):
    if isinstance(s, Tensor):
        if s.shape.rank == 0:
            raise ValueError("len requires a non-scalar tensor, got one of shape {}".format(s.shape))
        d = s.shape[0]
        if d is not None:
            return d
        from eagerflow.ops import array_ops
        return array_ops.shape(s)[0]
    if hasattr(s, "size") and hasattr(s, "stack") and callable(s.size):  # TensorArray
        return s.size()
    return len(s)


def range_(start_or_stop, stop=None, step=None):
    args = [a for a in (start_or_stop, stop, step) if a is not None]
    if any(isinstance(a, Tensor) for a in args):
        from eagerflow.ops import creation_ops
        if stop is None:
            return creation_ops.range(start_or_stop)
        return creation_ops.range(start_or_stop, stop, 1 if step is None else step)
    return range(*args)


def abs_(x):
    if isinstance(x, Tensor):
        from eagerflow.ops import math_ops
        return math_ops.abs(x)
    return abs(x)


def int_(x=0, base=None):
    if isinstance(x, Tensor):
        from eagerflow.framework import dtypes
        from eagerflow.ops import math_ops
        return math_ops.cast(x, dtypes.int32)
    return int(x) if base is None else int(x, base)


def float_(x=0):
    if isinstance(x, Tensor):
        from eagerflow.framework import dtypes
        from eagerflow.ops import math_ops
        return math_ops.cast(x, dtypes.float32)
    return float(x)


def print_(*objects, **kwargs):
    return print(*objects, **kwargs)


BUILTIN_OVERLOADS = {builtins.len: len_, builtins.range: range_, builtins.abs: abs_, builtins.int: int_,
                     builtins.float: float_, builtins.print: print_}
