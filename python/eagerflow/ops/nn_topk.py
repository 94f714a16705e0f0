"""tf.math.top_k and tf.math.in_top_k (TopKV2, InTopKV2)."""
import collections

from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute, execute1

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):
    """The k largest entries of each last-axis row and their indices (ties: lower index first)."""
    x = convert_to_tensor(input)
    kt = convert_to_tensor(k, dtype=dtypes.int32) if not hasattr(k, "dtype") else k
    values, indices = execute("TopKV2", [x, kt], {"sorted": bool(sorted), "index_type": dtypes.as_dtype(index_type)},
                              name)
    return TopKV2(values, indices)


def in_top_k(targets, predictions, k, name=None):
    """Whether each target class is among its row's k highest predictions (ties count as in)."""
    predictions = convert_to_tensor(predictions, dtype=dtypes.float32)
    targets = convert_to_tensor(targets)
    if targets.dtype not in (dtypes.int32, dtypes.int64):
        targets = convert_to_tensor(targets, dtype=dtypes.int32)
    kt = convert_to_tensor(k, dtype=targets.dtype)
    return execute1("InTopKV2", [predictions, targets, kt], None, name)
