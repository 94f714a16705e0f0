"""Ops that gradient functions are built from: tf.scatter_nd, tf.math.unsorted_segment_sum,
tf.math.invert_permutation (and the internal StridedSliceGrad / MirrorPadGrad ops)."""
import numpy as np

from eagerflow import _core
from eagerflow.ops._execute import convert_to_tensor, execute1, index_tensor

Tensor = _core.Tensor


def _index(x):
    # NumPy arrays keep their integer dtype; Python values become int32 (TF's default).
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return convert_to_tensor(x)
    return index_tensor(x)


def scatter_nd(indices, updates, shape, name=None):
    """tf.scatter_nd: zeros of `shape` with `updates` added at `indices` (duplicates sum)."""
    indices = _index(indices)
    updates = updates if isinstance(updates, Tensor) else convert_to_tensor(updates)
    shape = shape if isinstance(shape, Tensor) else convert_to_tensor(list(shape), indices._dtype_enum)
    return execute1("ScatterNd", [indices, updates, shape])


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """tf.math.unsorted_segment_sum: output[i] = sum of data[j...] with segment_ids[j...] == i."""
    data = data if isinstance(data, Tensor) else convert_to_tensor(data)
    segment_ids = _index(segment_ids)
    num_segments = _index(num_segments)
    return execute1("UnsortedSegmentSum", [data, segment_ids, num_segments])


def invert_permutation(x, name=None):
    """tf.math.invert_permutation: y[x[i]] = i."""
    return execute1("InvertPermutation", [_index(x)])
