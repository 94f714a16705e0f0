"""tf.strings ops whose results are ragged (TF's ragged_string_ops): split and bytes_split over the
StringSplit ops' SparseTensor parts. A scalar input gives a 1-D tensor, a vector a RaggedTensor, and
higher ranks or ragged inputs a RaggedTensor with one more ragged dimension."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops
from eagerflow.ops._execute import execute
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor


def _string_input(x):
    if isinstance(x, (RaggedTensor, _core.Tensor)):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x, dtype=dtypes.string)


def _ragged_from_sparse(indices, values, shape):
    return RaggedTensor.from_value_rowids(values, indices[:, 0], nrows=shape[0], validate=False)


def _by_rank(fn, input, what):
    """fn on a vector; scalars, higher ranks and ragged inputs are reduced to that case."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(fn(input.flat_values))
    rank = input.shape.rank
    if rank == 0:
        return fn(array_ops.reshape(input, [1])).values
    if rank == 1:
        return fn(input)
    if rank is None:
        if what == "bytes_split":
            raise ValueError("input must have a statically-known rank.")
        return fn(input)
    return _by_rank(fn, RaggedTensor.from_tensor(input), what)


def split(input, sep=None, maxsplit=-1, name=None):
    """tf.strings.split: each string split on `sep` (on runs of whitespace when sep is None), at most
    `maxsplit` times when it is not -1."""
    input = _string_input(input)
    sep_t = convert_to_tensor("" if sep is None else sep, dtype=dtypes.string)
    if isinstance(maxsplit, bool) or not isinstance(maxsplit, int):
        raise TypeError(f"Expected int for argument 'maxsplit' not {maxsplit!r}.")

    def vector(x):
        return _ragged_from_sparse(*execute("StringSplitV2", [x, sep_t], {"maxsplit": maxsplit}))

    return _by_rank(vector, input, "split")


def bytes_split(input, name=None):
    """tf.strings.bytes_split: each string split into its bytes."""
    input = _string_input(input)
    empty = convert_to_tensor("", dtype=dtypes.string)

    def vector(x):
        return _ragged_from_sparse(*execute("StringSplit", [x, empty], {"skip_empty": False}))

    return _by_rank(vector, input, "bytes_split")
