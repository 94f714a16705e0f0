"""tf.strings: join and length (string + and == go through AddV2 / Equal)."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops._execute import execute1


def _string_tensor(x):
    """Python strings and lists become string tensors; tensors pass through (the op checks dtype)."""
    if isinstance(x, _core.Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x, dtype=dtypes.string)


def join(inputs, separator="", name=None):
    """tf.strings.join: elementwise concatenation of a list of string tensors (scalars broadcast)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"Expected list for 'inputs' argument to 'string_join' Op, not {inputs!r}.")
    tensors = [_string_tensor(x) for x in inputs]
    return execute1("StringJoin", tensors, {"separator": separator, "N": len(tensors)})


def length(input, unit="BYTE", name=None):
    """tf.strings.length: the length of each string in bytes ('BYTE') or UTF-8 characters ('UTF8_CHAR')."""
    return execute1("StringLength", [_string_tensor(input)], {"unit": unit})


string_join = join
