"""tf.strings: join (separator, scalar broadcasting, shape errors), length (BYTE / UTF8_CHAR),
and string + / == through AddV2 / Equal."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core


def test_join_scalars_and_separator():
    r = tf.strings.join(["a", "b"], separator="-")
    assert r.dtype == tf.string and r.shape == () and r.numpy() == b"a-b"
    assert tf.strings.join(["abc"]).numpy() == b"abc"
    assert tf.strings.join([]).numpy() == b""
    assert tf.strings.join(["x", "y", "z"]).numpy() == b"xyz"
    assert tf.strings.join([b"\xff", "é"], separator="|").numpy() == b"\xff|\xc3\xa9"


def test_join_broadcasts_scalars():
    r = tf.strings.join([["a", "b"], "c"], separator="-")
    assert r.shape == (2,) and r.numpy().tolist() == [b"a-c", b"b-c"]
    r = tf.strings.join(["<", tf.constant([["p", "q"], ["r", "s"]]), ">"])
    assert r.numpy().tolist() == [[b"<p>", b"<q>"], [b"<r>", b"<s>"]]
    r = tf.strings.join([np.array(["x", "y"]), np.array(["1", "2"])], separator=":")
    assert r.numpy().tolist() == [b"x:1", b"y:2"]
    assert tf.strings.join([tf.constant([], tf.string), "a"]).shape == (0,)


def test_join_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shapes do not match: \[2\] vs. \[3\] \[Op:StringJoin\]"):
        tf.strings.join([["a", "b"], ["c", "d", "e"]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shapes do not match: \[2\] vs. \[1,2\]"):
        tf.strings.join([["a", "b"], [["c", "d"]]])
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
        tf.strings.join([1, "a"])
    with pytest.raises(TypeError, match="Expected list for 'inputs' argument to 'string_join' Op, not 'abc'."):
        tf.strings.join("abc")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input #0\(zero-based\) was expected to be a string "
                                                             r"tensor but is a int32 tensor \[Op:StringJoin\]"):
        tf.strings.join([tf.constant(1)])


def test_length_bytes_and_utf8():
    words = ["héllo", "ab", "", "日本語"]
    r = tf.strings.length(words)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [len(w.encode()) for w in words]
    r = tf.strings.length(words, unit="UTF8_CHAR")
    assert r.numpy().tolist() == [len(w) for w in words]
    assert tf.strings.length("abc").numpy() == 3 and tf.strings.length("abc").shape == ()
    # Invalid UTF-8: every byte that is not a continuation byte counts as a character, like TF.
    assert tf.strings.length(tf.constant([[b"\xff\xfe", b"a"]]), unit="UTF8_CHAR").numpy().tolist() == [[2, 1]]
    assert tf.strings.length(tf.constant([], tf.string)).shape == (0,)


def test_length_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'unit' of \"BAD\" is not in the list of "
                                                             "allowed values: \"BYTE\", \"UTF8_CHAR\""):
        tf.strings.length("abc", unit="BAD")
    with pytest.raises(TypeError, match="Cannot convert 5 to EagerTensor of dtype string"):
        tf.strings.length(5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:StringLength\]"):
        tf.strings.length(tf.constant(1))


def test_concat_and_equality_operators():
    assert (tf.constant("a") + "b").numpy() == b"ab"
    assert (tf.constant(["a", "b"]) + tf.constant(["c", "d"])).numpy().tolist() == [b"ac", b"bd"]
    assert (tf.constant(["a", "b"]) == "a").numpy().tolist() == [True, False]
    assert (tf.constant(["a", "b"]) != "a").numpy().tolist() == [False, True]


def test_string_ops_are_registered():
    for name in ("StringJoin", "StringLength"):
        op = _core.get_op(name)
        assert op.has_infer and op.has_cpu_kernel
    [(dtype, dims)] = _core.infer(_core.get_op("StringJoin"), [tf.constant(["a", "b"]), tf.constant("c")], {})
    assert dtype == tf.string.as_datatype_enum and dims == [2]
    [(dtype, dims)] = _core.infer(_core.get_op("StringLength"), [tf.constant(["a", "b"])], {})
    assert dtype == tf.int32.as_datatype_enum and dims == [2]
