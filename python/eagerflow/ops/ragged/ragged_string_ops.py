"""tf.strings ops whose results are ragged (TF's ragged_string_ops): split and bytes_split over the
StringSplit ops' SparseTensor parts, and the Unicode decoding and splitting ops. A scalar input gives a
1-D tensor, a vector a RaggedTensor, and higher ranks or ragged inputs a RaggedTensor with one more ragged
dimension."""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, creation_ops
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


def _str_attr(value, arg):
    if not isinstance(value, (str, bytes)):
        raise TypeError(f"Expected string for argument '{arg}' not {value!r}.")
    return value.decode() if isinstance(value, bytes) else value


def _decode(input, input_encoding, errors, replacement_char, replace_control_characters, with_offsets):
    """UnicodeDecode over every string, shaped as the input with one more ragged dimension."""
    input = _string_input(input)
    rank = input.shape.rank
    if rank is None:
        raise ValueError("Rank of `input` must be statically known.")
    if not isinstance(input, RaggedTensor) and rank > 1:
        input = RaggedTensor.from_tensor(input, ragged_rank=rank - 1)
    flat = input.flat_values if isinstance(input, RaggedTensor) else input
    attrs = {"input_encoding": _str_attr(input_encoding, "input_encoding"), "errors": _str_attr(errors, "errors"),
             "replacement_char": int(replacement_char),
             "replace_control_characters": bool(replace_control_characters), "Tsplits": dtypes.int64}
    op = "UnicodeDecodeWithOffsets" if with_offsets else "UnicodeDecode"
    outs = execute(op, [array_ops.reshape(flat, [-1])], attrs)
    parts = [RaggedTensor.from_row_splits(v, outs[0], validate=False) for v in outs[1:]]
    if rank == 0:
        parts = [p.values for p in parts]
    elif isinstance(input, RaggedTensor):
        parts = [input.with_flat_values(p) for p in parts]
    return tuple(parts) if with_offsets else parts[0]


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,
                   replace_control_characters=False, name=None):
    """tf.strings.unicode_decode: the code points of each string (a ragged int32 tensor)."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, False)


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,
                                replace_control_characters=False, name=None):
    """tf.strings.unicode_decode_with_offsets: code points and the byte offset where each starts."""
    return _decode(input, input_encoding, errors, replacement_char, replace_control_characters, True)


def _encode_rows(values, splits, output_encoding, errors, replacement_char):
    attrs = {"output_encoding": _str_attr(output_encoding, "output_encoding"), "errors": _str_attr(errors, "errors"),
             "replacement_char": int(replacement_char), "Tsplits": splits.dtype}
    return execute("UnicodeEncode", [values, splits], attrs)[0]


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):
    """tf.strings.unicode_encode: each row of code points (the innermost dimension) encoded as a string."""
    x = input if isinstance(input, (RaggedTensor, _core.Tensor)) else convert_to_tensor(input)
    rank = x.shape.rank
    if rank is None:
        raise ValueError("Rank of input_tensor must be statically known.")
    args = (output_encoding, errors, replacement_char)
    if isinstance(x, RaggedTensor):
        if x.flat_values.shape.rank > 1:
            return x.with_flat_values(unicode_encode(x.flat_values, *args))
        if x.ragged_rank > 1:
            return x.with_values(unicode_encode(x.values, *args))
        return _encode_rows(x.values, x.row_splits, *args)
    if rank == 0:
        raise ValueError("input_tensor's rank must be at least 1.")
    if rank == 1:
        n = array_ops.shape(x, out_type=dtypes.int64)[0:1]
        splits = array_ops.concat([convert_to_tensor([0], dtype=dtypes.int64), n], 0)
        return array_ops.reshape(_encode_rows(x, splits, *args), [])
    if rank == 2:
        return unicode_encode(RaggedTensor.from_tensor(x), *args)
    inner = array_ops.shape(x)[-1:]
    flat = array_ops.reshape(x, array_ops.concat([convert_to_tensor([-1]), inner], 0))
    return array_ops.reshape(unicode_encode(flat, *args), array_ops.shape(x)[:-1])


def _split_chars(input, input_encoding, errors, replacement_char, with_offsets):
    chars, offsets = _decode(input, input_encoding, errors, replacement_char, False, True)
    flat = chars.flat_values if isinstance(chars, RaggedTensor) else chars
    n = array_ops.shape(flat, out_type=dtypes.int64)[0]
    one_per_row = creation_ops.range(n + 1, dtype=dtypes.int64)
    strs = _encode_rows(flat, one_per_row, input_encoding, errors, replacement_char)
    strs = chars.with_flat_values(strs) if isinstance(chars, RaggedTensor) else strs
    return (strs, offsets) if with_offsets else strs


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """tf.strings.unicode_split: each string split into its characters (re-encoded in input_encoding)."""
    return _split_chars(input, input_encoding, errors, replacement_char, False)


def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533, name=None):
    """tf.strings.unicode_split_with_offsets: the characters and the byte offset where each starts."""
    return _split_chars(input, input_encoding, errors, replacement_char, True)
