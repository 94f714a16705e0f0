"""tf.math.segment_{sum,mean,max,min,prod} (sorted ids) and tf.math.unsorted_segment_{sum,max,min,
prod,mean,sqrt_n}; mean and sqrt_n of the unsorted family are TF's compositions over
UnsortedSegmentSum (integer data gives float64 means, as TF's true division does)."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute1
from eagerflow.ops.grad_support_ops import _index, unsorted_segment_sum  # noqa: F401 (tf.math's)

def _sorted(op_name, doc):
    def fn(data, segment_ids, name=None):
        return execute1(op_name, [convert_to_tensor(data), _index(segment_ids)])
    fn.__doc__ = doc
    return fn


def _unsorted(op_name, doc):
    def fn(data, segment_ids, num_segments, name=None):
        return execute1(op_name, [convert_to_tensor(data), _index(segment_ids), _index(num_segments)])
    fn.__doc__ = doc
    return fn


segment_sum = _sorted("SegmentSum", "Sums of the rows of `data` under each (sorted) segment id.")
segment_mean = _sorted("SegmentMean", "Means of the rows of `data` under each (sorted) segment id.")
segment_max = _sorted("SegmentMax", "Maxima of the rows of `data` under each (sorted) segment id (empty: 0).")
segment_min = _sorted("SegmentMin", "Minima of the rows of `data` under each (sorted) segment id (empty: 0).")
segment_prod = _sorted("SegmentProd", "Products of the rows of `data` under each (sorted) segment id.")
unsorted_segment_max = _unsorted("UnsortedSegmentMax", "Maxima per segment id (empty: the dtype's lowest).")
unsorted_segment_min = _unsorted("UnsortedSegmentMin", "Minima per segment id (empty: the dtype's max).")
unsorted_segment_prod = _unsorted("UnsortedSegmentProd", "Products per segment id (empty: 1).")


def _segment_counts(data, segment_ids, num_segments):
    """How many rows each segment has (at least 1), shaped to broadcast against the sums."""
    ones = execute1("Fill", [execute1("Shape", [segment_ids]), convert_to_tensor(1, data.dtype)])
    n = execute1("UnsortedSegmentSum", [ones, segment_ids, num_segments])
    extra = execute1("Sub", [execute1("Rank", [data]), execute1("Rank", [segment_ids])])
    trailing = execute1("Fill", [execute1("ExpandDims", [extra, convert_to_tensor(0)]),
                                 convert_to_tensor(1, num_segments.dtype)])
    shape = execute1("ConcatV2", [execute1("ExpandDims", [num_segments, convert_to_tensor(0)]), trailing,
                                  convert_to_tensor(0)])
    return execute1("Maximum", [execute1("Reshape", [n, shape]), convert_to_tensor(1, data.dtype)])


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Means per segment id (empty: 0)."""
    data, segment_ids, num_segments = convert_to_tensor(data), _index(segment_ids), _index(num_segments)
    n = _segment_counts(data, segment_ids, num_segments)
    summed = execute1("UnsortedSegmentSum", [data, segment_ids, num_segments])
    if data.dtype.is_integer:
        return execute1("RealDiv", [execute1("Cast", [summed], {"DstT": dtypes.float64}),
                                    execute1("Cast", [n], {"DstT": dtypes.float64})])
    return execute1("RealDiv", [summed, n])


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sums per segment id divided by the square root of the segment's size (empty: 0)."""
    data, segment_ids, num_segments = convert_to_tensor(data), _index(segment_ids), _index(num_segments)
    n = _segment_counts(data, segment_ids, num_segments)
    summed = execute1("UnsortedSegmentSum", [data, segment_ids, num_segments])
    return execute1("RealDiv", [summed, execute1("Sqrt", [n])])
