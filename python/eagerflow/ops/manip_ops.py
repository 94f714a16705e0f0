"""tf.roll (TF's manip_ops) and tf.shape_n, composed of Slice / Concat / Shape so they run in graphs and
differentiate."""
import numpy as np

from eagerflow.framework import dtypes, errors
from eagerflow.ops import array_ops, creation_ops, math_ops, slice_ops
from eagerflow.ops._execute import convert_to_tensor


def _static_ints(x, what):
    if hasattr(x, "_is_symbolic") and x._is_symbolic:
        raise NotImplementedError(f"tf.roll needs the {what} known when tracing")
    return np.asarray(x._numpy() if hasattr(x, "_numpy") else x).reshape(-1).astype(np.int64).tolist()


def _roll_error(text, suffix=""):
    # Worded as TF's eager Roll kernel error (the op runs as a wrapped function there).
    return errors.InvalidArgumentError(None, None, "{{function_node __wrapped__Roll_device_/job:localhost/replica:0/"
                                       f"task:0/device:CPU:0}}}} {text} [Op:Roll]{suffix}")


def roll(input, shift, axis, name=None):  # pylint: disable=redefined-builtin
    """`input` with its elements shifted by `shift` along each `axis` (wrapping around; repeated axes add):
    the two slices of each axis swapped, so the gradient is dense, as Roll's."""
    x = input if hasattr(input, "_dtype_enum") else convert_to_tensor(input)
    axes = _static_ints(axis, "axis")
    shift_t = shift if hasattr(shift, "_dtype_enum") else convert_to_tensor(shift)
    if shift_t.shape.rank is not None and shift_t.shape.num_elements() != len(axes):
        raise _roll_error("shift and axis must have the same size")
    shifts = array_ops.reshape(math_ops.cast(shift_t, dtypes.int64), [-1])
    rank = x.shape.rank
    for i, a in enumerate(axes):
        if rank is not None and not -rank <= a < rank:
            raise _roll_error(f"axis {a} is out of range", " name: ")
        a = a + rank if a < 0 else a
        n = array_ops.shape(x, out_type=dtypes.int64)[a]
        s = math_ops.floormod(shifts[i], math_ops.maximum(n, convert_to_tensor(1, dtypes.int64._type_enum)))
        one_hot = creation_ops.one_hot(a, rank, dtype=dtypes.int64)
        all_dims = creation_ops.zeros_like(one_hot) - 1
        tail = slice_ops.slice(x, one_hot * (n - s), all_dims + one_hot * (s + 1))
        head = slice_ops.slice(x, creation_ops.zeros_like(one_hot), all_dims + one_hot * (n - s + 1))
        x = array_ops.concat([tail, head], a)
    return x


def shape_n(input, out_type=dtypes.int32, name=None):  # pylint: disable=redefined-builtin
    """The shape of each tensor in `input`."""
    return [array_ops.shape(t, out_type=out_type) for t in input]
