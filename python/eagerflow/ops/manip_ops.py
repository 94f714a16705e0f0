"""tf.roll (TF's manip_ops: the Roll op) and tf.shape_n."""
from eagerflow.framework import dtypes, errors
from eagerflow.ops import array_ops
from eagerflow.ops._execute import convert_to_tensor, execute1


def _roll_error(text, suffix=""):
    # Worded as TF's eager Roll kernel error (the op runs as a wrapped function there).
    return errors.InvalidArgumentError(None, None, "{{function_node __wrapped__Roll_device_/job:localhost/replica:0/"
                                       f"task:0/device:CPU:0}}}} {text} [Op:Roll]{suffix}")


def roll(input, shift, axis, name=None):  # pylint: disable=redefined-builtin
    """`input` with its elements shifted by `shift` along each `axis` (wrapping around; repeated axes add)."""
    x = input if hasattr(input, "_dtype_enum") else convert_to_tensor(input)
    shift_t = shift if hasattr(shift, "_dtype_enum") else convert_to_tensor(shift)
    axis_t = axis if hasattr(axis, "_dtype_enum") else convert_to_tensor(axis)
    rank = x.shape.rank
    # TF's eager errors for a rank or an axis out of range end in " name: " (the kernel's own do not).
    if rank == 0:
        raise _roll_error("input must be 1-D or higher", " name: ")
    ss, sa = shift_t.shape, axis_t.shape
    # A known axis is checked here once the kernel's earlier checks (ranks, sizes) would pass.
    if (rank is not None and not getattr(axis_t, "_is_symbolic", False) and axis_t.dtype.is_integer
            and shift_t.dtype.is_integer and ss.rank is not None and ss.rank <= 1 and sa.rank <= 1
            and ss.num_elements() == sa.num_elements()):
        for a in axis_t.numpy().reshape(-1).tolist():
            if not -rank <= a < rank:
                raise _roll_error(f"axis {a + rank if a < 0 else a} is out of range", " name: ")
    return execute1("Roll", [x, shift_t, axis_t], None, name)


def shape_n(input, out_type=dtypes.int32, name=None):  # pylint: disable=redefined-builtin
    """The shape of each tensor in `input`."""
    return [array_ops.shape(t, out_type=out_type) for t in input]
