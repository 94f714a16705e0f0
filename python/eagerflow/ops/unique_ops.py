"""tf.unique, tf.unique_with_counts (Unique, UniqueWithCounts) and tf.math.bincount (TF's
composition: the output size from max(arr) + 1, minlength and maxlength, then DenseBincount)."""
import collections

import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute, execute1

Unique = collections.namedtuple("Unique", ["y", "idx"])
UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of the 1-D `x` in order of first occurrence, and each element's index
    into them."""
    y, idx = execute("Unique", [convert_to_tensor(x)], {"out_idx": dtypes.as_dtype(out_idx)})
    return Unique(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """tf.unique plus how often each distinct value occurs."""
    y, idx, count = execute("UniqueWithCounts", [convert_to_tensor(x)], {"out_idx": dtypes.as_dtype(out_idx)})
    return UniqueWithCounts(y, idx, count)


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """Counts (or sums `weights` at) each value of the non-negative integer `arr`; axis=-1 counts
    each row of a 2-D `arr` separately."""
    arr = convert_to_tensor(arr)
    if weights is not None:
        weights = convert_to_tensor(weights)
    if weights is not None and binary_output:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify only one.")
    if not arr.dtype.is_integer:
        arr = execute1("Cast", [arr], {"DstT": dtypes.int32})
    if axis is None:
        axis = 0
    if axis not in [0, -1]:
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
    nonempty = execute1("Greater", [execute1("Size", [arr], {"out_type": dtypes.int32}), convert_to_tensor(0)])
    reduce_all = execute1("Range", [convert_to_tensor(0), execute1("Rank", [arr]), convert_to_tensor(1)])
    max_plus_one = execute1("AddV2", [execute1("Max", [arr, reduce_all]), convert_to_tensor(1, arr.dtype)])
    output_size = execute1("Mul", [execute1("Cast", [nonempty], {"DstT": arr.dtype}), max_plus_one])
    if minlength is not None:
        output_size = execute1("Maximum", [convert_to_tensor(minlength, arr.dtype), output_size])
    if maxlength is not None:
        output_size = execute1("Minimum", [convert_to_tensor(maxlength, arr.dtype), output_size])
    flat = convert_to_tensor([-1])
    if axis == 0:
        if weights is not None:
            weights = execute1("Reshape", [weights, flat])
        arr = execute1("Reshape", [arr, flat])
    if weights is None:
        weights = _core.from_numpy(np.zeros((0,), dtypes.as_dtype(dtype or arr.dtype).as_numpy_dtype))
    elif not isinstance(weights, _core.Tensor):
        raise ValueError("Argument `weights` must be a tf.Tensor if `values` is a tf.Tensor. "
                         f"Received weights={weights} of type: {type(weights).__name__}")
    return execute1("DenseBincount", [arr, output_size, weights], {"binary_output": bool(binary_output)})
