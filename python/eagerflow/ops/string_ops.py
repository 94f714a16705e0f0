"""tf.strings' elementwise and reducing ops (join, length, case, strip, substr, reduce_join,
to_number, as_string, hash buckets). Ragged inputs map over their flat values, as TF dispatches them.
(String + and == go through AddV2 / Equal.)"""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops, creation_ops
from eagerflow.ops._execute import bool_attr, execute1
from eagerflow.ops.ragged.ragged_tensor import RaggedTensor


def _string_tensor(x):
    """Python strings and lists become string tensors; tensors pass through (the op checks dtype)."""
    if isinstance(x, _core.Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x, dtype=dtypes.string)


def _tensor(x):
    if isinstance(x, _core.Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x)


def _str_attr(value, arg, op):
    if not isinstance(value, (str, bytes)):
        raise TypeError(f"Expected string for argument '{arg}' not {value!r}.")
    return value.decode() if isinstance(value, bytes) else value


def _int_attr(value, arg):
    if isinstance(value, bool) or not isinstance(value, int):
        if hasattr(value, "__index__") and not isinstance(value, bool):
            return int(value)
        raise TypeError(f"Expected int for argument '{arg}' not {value!r}.")
    return value


def _elementwise(op, input, attrs, convert=_string_tensor):
    """Runs a one-input op on a tensor, or on a RaggedTensor's flat values."""
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(_elementwise(op, input.flat_values, attrs, convert))
    return execute1(op, [convert(input)], attrs)


def join(inputs, separator="", name=None):
    """tf.strings.join: elementwise concatenation of a list of string tensors (scalars broadcast)."""
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"Expected list for 'inputs' argument to 'string_join' Op, not {inputs!r}.")
    tensors = [_string_tensor(x) for x in inputs]
    return execute1("StringJoin", tensors, {"separator": separator, "N": len(tensors)})


def length(input, unit="BYTE", name=None):
    """tf.strings.length: the length of each string in bytes ('BYTE') or UTF-8 characters ('UTF8_CHAR')."""
    return _elementwise("StringLength", input, {"unit": _str_attr(unit, "unit", "StringLength")})


def upper(input, encoding="", name=None):
    """tf.strings.upper: ASCII letters upper-cased ('' encoding) or full Unicode case mapping ('utf-8')."""
    return _elementwise("StringUpper", input, {"encoding": _str_attr(encoding, "encoding", "StringUpper")})


def lower(input, encoding="", name=None):
    """tf.strings.lower: ASCII letters lower-cased ('' encoding) or full Unicode case mapping ('utf-8')."""
    return _elementwise("StringLower", input, {"encoding": _str_attr(encoding, "encoding", "StringLower")})


def strip(input, name=None):
    """tf.strings.strip: leading and trailing ASCII whitespace removed."""
    return _elementwise("StringStrip", input, {})


def substr(input, pos, len, unit="BYTE", name=None):
    """tf.strings.substr: `len` bytes (or UTF-8 characters) from `pos` (negative: from the end);
    pos and len share a shape that broadcasts against the input."""
    attrs = {"unit": _str_attr(unit, "unit", "Substr")}
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(substr(input.flat_values, pos, len, unit))
    pos = _tensor(pos)
    len_ = convert_to_tensor(len, dtype=pos.dtype) if not isinstance(len, _core.Tensor) else len
    return execute1("Substr", [_string_tensor(input), pos, len_], attrs)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """tf.strings.reduce_join: the strings joined along `axis` (all axes when None, in row-major order)."""
    inputs = _string_tensor(inputs)
    if axis is None:
        rank = inputs.shape.rank
        if rank is not None:
            axis = list(range(rank - 1, -1, -1))
        else:
            axis = creation_ops.range(array_ops.rank(inputs) - 1, -1, -1)
    axis = axis if isinstance(axis, _core.Tensor) else convert_to_tensor(axis, dtype=dtypes.int32)
    return execute1("ReduceJoin", [inputs, axis], {"keep_dims": bool_attr(keepdims, "keep_dims"),
                                                   "separator": _str_attr(separator, "separator", "ReduceJoin")})


def to_number(input, out_type=dtypes.float32, name=None):
    """tf.strings.to_number: each string parsed as a number of `out_type` (InvalidArgumentError if one is not)."""
    return _elementwise("StringToNumber", input, {"out_type": dtypes.as_dtype(out_type)})


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):
    """tf.strings.as_string: each element formatted as text (printf-style precision, width and fill)."""
    attrs = {"precision": _int_attr(precision, "precision"), "scientific": bool_attr(scientific, "scientific"),
             "shortest": bool_attr(shortest, "shortest"), "width": _int_attr(width, "width"),
             "fill": _str_attr(fill, "fill", "AsString")}
    return _elementwise("AsString", input, attrs, convert=_tensor)


def to_hash_bucket_fast(input, num_buckets, name=None):
    """tf.strings.to_hash_bucket_fast: Fingerprint64 of each string modulo num_buckets (int64)."""
    return _elementwise("StringToHashBucketFast", input, {"num_buckets": _int_attr(num_buckets, "num_buckets")})


def to_hash_bucket_strong(input, num_buckets, key, name=None):
    """tf.strings.to_hash_bucket_strong: keyed SipHash-2-4 of each string modulo num_buckets (int64)."""
    if not isinstance(key, (list, tuple)):
        raise TypeError(f"Expected list for 'key' argument to 'string_to_hash_bucket_strong' Op, not {key!r}.")
    return _elementwise("StringToHashBucketStrong", input, {"num_buckets": _int_attr(num_buckets, "num_buckets"),
                                                             "key": [_int_attr(k, "key") for k in key]})


string_join = join


def unicode_transcode(input, input_encoding, output_encoding, errors="replace", replacement_char=65533,
                      replace_control_characters=False, name=None):
    """tf.strings.unicode_transcode: each string decoded from input_encoding and encoded in output_encoding."""
    attrs = {"input_encoding": _str_attr(input_encoding, "input_encoding", "UnicodeTranscode"),
             "output_encoding": _str_attr(output_encoding, "output_encoding", "UnicodeTranscode"),
             "errors": _str_attr(errors, "errors", "UnicodeTranscode"),
             "replacement_char": _int_attr(replacement_char, "replacement_char"),
             "replace_control_characters": bool_attr(replace_control_characters, "replace_control_characters")}
    return _elementwise("UnicodeTranscode", input, attrs)


def regex_full_match(input, pattern, name=None):
    """tf.strings.regex_full_match: whether each whole string matches the RE2 pattern (a Python
    string compiles once, as an attr; a tensor pattern at each call)."""
    if isinstance(pattern, (str, bytes)):
        return _elementwise("StaticRegexFullMatch", input, {"pattern": _str_attr(pattern, "pattern", "")})
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(regex_full_match(input.flat_values, pattern))
    return execute1("RegexFullMatch", [_string_tensor(input), _string_tensor(pattern)])


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """tf.strings.regex_replace: matches of the RE2 pattern replaced by `rewrite` (\\1 .. \\9 and \\0 name
    groups, as RE2 rewrites), every match or the first when replace_global is False."""
    replace_global = bool_attr(replace_global, "replace_global")
    if isinstance(pattern, (str, bytes)) and isinstance(rewrite, (str, bytes)):
        return _elementwise("StaticRegexReplace", input, {"pattern": _str_attr(pattern, "pattern", ""),
                                                          "rewrite": _str_attr(rewrite, "rewrite", ""),
                                                          "replace_global": replace_global})
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(regex_replace(input.flat_values, pattern, rewrite, replace_global))
    return execute1("RegexReplace", [_string_tensor(input), _string_tensor(pattern), _string_tensor(rewrite)],
                    {"replace_global": replace_global})


def unicode_script(input, name=None):
    """tf.strings.unicode_script: ICU's UScriptCode of each int32 code point (-1 for one outside Unicode)."""
    return _elementwise("UnicodeScript", input, {},
                        convert=lambda x: x if isinstance(x, _core.Tensor) else convert_to_tensor(x, dtype=dtypes.int32))
