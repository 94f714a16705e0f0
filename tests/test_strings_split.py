"""tf.strings.split and bytes_split: differential against bytes.split over many strings (ASCII
whitespace, multi-byte UTF-8, empty strings), TF's results where they differ from Python's, ranks
0 / 1 / 2 / ragged, tf.function, and TF's errors."""
import random

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.ops._execute import execute

_ALPHABET = [b"a", b"b", b"\xc3\xa9", b"\xe6\x97\xa5", b" ", b"  ", b"\t", b"\n", b"\x0b", b"\x0c", b"\r", b",", b",,",
             b"<>", b"\xc2\xa0", b"\xf0\x9f\x99\x82"]


def _strings(n, seed):
    rng = random.Random(seed)
    out = [b"", b" ", b",", b"<>", b"a"]
    while len(out) < n:
        out.append(b"".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 12))))
    return out


def _rows(rt):
    return [list(r) for r in rt.to_list()]


def test_whitespace_split_matches_bytes_split():
    strs = _strings(400, 1)
    assert _rows(tf.strings.split(strs)) == [s.split() for s in strs]


@pytest.mark.parametrize("sep", [b",", b",,", b"<>", b"\xc3\xa9", b" "])
def test_separator_split_matches_bytes_split(sep):
    strs = _strings(300, 2)
    assert _rows(tf.strings.split(strs, sep=sep.decode())) == [s.split(sep) for s in strs]
    for maxsplit in (0, 1, 2):
        got = _rows(tf.strings.split(strs, sep=sep.decode(), maxsplit=maxsplit))
        assert got == [s.split(sep, maxsplit) for s in strs]


def test_whitespace_maxsplit_keeps_the_rest_as_tf_does():
    # Python drops a trailing empty rest ('a '.split(None, 1) == ['a']); TF keeps it.
    r = tf.strings.split(["a ", " a b ", "", "   ", "a  b c"], maxsplit=1)
    assert _rows(r) == [[b"a", b""], [b"a", b"b "], [], [], [b"a", b"b c"]]
    r = tf.strings.split(["a ", " a b ", ""], maxsplit=0)
    assert _rows(r) == [[b"a "], [b" a b "], [b""]]


def test_ranks_and_ragged_input():
    r = tf.strings.split("  a  b c ")
    assert isinstance(r, tf.Tensor) and r.shape == (3,) and r.numpy().tolist() == [b"a", b"b", b"c"]
    r = tf.strings.split([["a b", "c"], ["d", "e f g"]])
    assert isinstance(r, tf.RaggedTensor) and r.shape.as_list() == [2, None, None]
    assert r.to_list() == [[[b"a", b"b"], [b"c"]], [[b"d"], [b"e", b"f", b"g"]]]
    r = tf.strings.split(tf.ragged.constant([["a b"], ["c d", "e"]]))
    assert r.to_list() == [[[b"a", b"b"]], [[b"c", b"d"], [b"e"]]]
    r = tf.strings.split(["a,b,,c", "", ","], sep=",")
    assert r.to_list() == [[b"a", b"b", b"", b"c"], [b""], [b"", b""]]
    assert r.row_splits.dtype == tf.int64
    assert tf.strings.split(tf.constant([], tf.string)).to_list() == []
    # A multi-byte sep is one separator; \xa0 is not whitespace.
    assert tf.strings.split(["a<>b<>c"], sep="<>").to_list() == [[b"a", b"b", b"c"]]
    assert tf.strings.split("a\xa0b").numpy().tolist() == ["a\xa0b".encode()]


def test_split_in_tf_function():
    strs = _strings(50, 3)

    @tf.function
    def f(x):
        return tf.strings.split(x), tf.strings.split(x, sep=",", maxsplit=1)

    a, b = f(tf.constant(strs))
    assert _rows(a) == [s.split() for s in strs]
    assert _rows(b) == [s.split(b",", 1) for s in strs]
    assert tf.function(lambda x: tf.strings.split(x))(tf.constant("x y")).numpy().tolist() == [b"x", b"y"]


def test_bytes_split():
    strs = _strings(200, 4)
    assert _rows(tf.strings.bytes_split(strs)) == [[bytes([c]) for c in s] for s in strs]
    assert tf.strings.bytes_split("h\u00e9").numpy().tolist() == [b"h", b"\xc3", b"\xa9"]
    assert tf.strings.bytes_split([["ab", "c"]]).to_list() == [[[b"a", b"b"], [b"c"]]]
    assert tf.function(tf.strings.bytes_split)(tf.constant(["ab", ""])).to_list() == [[b"a", b"b"], []]


def test_raw_ops_sparse_parts():
    # TF's values for the SparseTensor parts (StringSplit v1: a set of delimiter bytes, skip_empty).
    idx, vals, shape = execute("StringSplit", [tf.constant(["a,,b", "", ",", "x"]), tf.constant(",")],
                               {"skip_empty": False})
    assert idx.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [3, 0]]
    assert vals.numpy().tolist() == [b"a", b"", b"b", b"", b"", b"x"] and shape.numpy().tolist() == [4, 3]
    idx, vals, shape = execute("StringSplit", [tf.constant(["a,;b", "c;d"]), tf.constant(",;")], {})
    assert vals.numpy().tolist() == [b"a", b"b", b"c", b"d"] and shape.numpy().tolist() == [2, 2]
    idx, vals, shape = execute("StringSplitV2", [tf.constant(["a,", ",a,b,", ""]), tf.constant(",")],
                               {"maxsplit": -5})
    assert idx.numpy().tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [1, 3], [2, 0]]
    assert shape.numpy().tolist() == [3, 4]
    assert idx.dtype == tf.int64 and shape.dtype == tf.int64


def test_errors():
    with pytest.raises(TypeError, match="Cannot convert 5 to EagerTensor of dtype string"):
        tf.strings.split(5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"input must be a vector, got shape: \[\] \[Op:StringSplitV2\]"):
        execute("StringSplitV2", [tf.constant("a b"), tf.constant("")], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"sep must be a scalar, got shape: \[1\]"):
        execute("StringSplitV2", [tf.constant(["a b"]), tf.constant([" "])], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"delimiter must be a scalar, got shape: \[1\]"):
        execute("StringSplit", [tf.constant(["a b"]), tf.constant([" "])], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a int32 tensor"):
        tf.strings.split(tf.constant([1]))
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.function(lambda x: execute("StringSplitV2", [x, tf.constant("")], {}))(tf.constant([["a"]]))


def test_large_input_rows():
    strs = np.array([b"w%d x y" % i for i in range(20000)], dtype=object)
    r = tf.strings.split(strs)
    assert r.shape.as_list() == [20000, None]
    assert r.flat_values.shape == (60000,) and r.to_list()[12345] == [b"w12345", b"x", b"y"]
