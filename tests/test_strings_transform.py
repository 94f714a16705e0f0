"""tf.strings.upper / lower / strip / substr / reduce_join: differential against bytes methods,
slicing and NumPy over many strings (multi-byte UTF-8, empty strings), TF's results for the
UTF-8 units, broadcasting and axis orders, and TF's errors."""
import random

import numpy as np
import pytest

import eagerflow as tf

_PIECES = [b"a", b"Z", b"q", b"\xc3\xa9", b"\xc3\x89", b"\xe6\x97\xa5", b" ", b"\t", b"\n", b"\x0b", b"\x0c", b"\r",
           b"\xc2\xa0", b"\xf0\x9f\x99\x82", b"1", b"-", b"\xff"]


def _strings(n, seed):
    rng = random.Random(seed)
    out = [b"", b" ", b"abc"]
    while len(out) < n:
        out.append(b"".join(rng.choice(_PIECES) for _ in range(rng.randrange(0, 10))))
    return out


def test_ascii_case_and_strip_match_bytes_methods():
    strs = _strings(400, 1)
    assert tf.strings.upper(strs).numpy().tolist() == [s.upper() for s in strs]
    assert tf.strings.lower(strs).numpy().tolist() == [s.lower() for s in strs]
    assert tf.strings.strip(strs).numpy().tolist() == [s.strip(b" \t\n\x0b\x0c\r") for s in strs]
    x = tf.constant([["Ab", " c "]])
    assert tf.strings.upper(x).shape == (1, 2) and tf.strings.strip(x).numpy().tolist() == [[b"Ab", b"c"]]
    assert tf.strings.lower(tf.ragged.constant([["Ab"], []])).to_list() == [[b"ab"], []]
    f = tf.function(lambda x: tf.strings.upper(tf.strings.strip(x)))
    assert f(tf.constant([" ab "])).numpy().tolist() == [b"AB"]


def _unicode_words(n, seed):
    rng = random.Random(seed)
    alphabet = ("aZ\u00df\u00e9\u00c9\u0130\u0131\u01c5\u01c8\ufb00\u0149\u0390\u03a3\u03c3\u0391\u03b2"
                "\u0301\u0345.' \u0410\u044f\u1e9e\U00010400\U0001e922\u2126\u1f88\u00b5")
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 7))) for _ in range(n)]


def test_utf8_case_matches_python():
    # Full mappings ("\u00df" -> "SS"), title-case digraphs, and the final-sigma rule, as str does.
    words = _unicode_words(2000, 7)
    assert tf.strings.upper(words, encoding="utf-8").numpy().tolist() == [w.upper().encode() for w in words]
    assert tf.strings.lower(words, encoding="utf-8").numpy().tolist() == [w.lower().encode() for w in words]
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    chunks = [every[i:i + 4096] for i in range(0, len(every), 4096)]
    assert tf.strings.upper(chunks, encoding="utf-8").numpy().tolist() == [c.upper().encode() for c in chunks]
    assert tf.strings.lower(chunks, encoding="utf-8").numpy().tolist() == [c.lower().encode() for c in chunks]


def test_utf8_case_tf_values():
    up = tf.strings.upper([b"a\xffb\xc3", "\u01c5\u01c8", "\ufb00", "\u0149", "\u0390"], encoding="utf-8")
    assert up.numpy().tolist() == [b"A\xef\xbf\xbdB\xef\xbf\xbd", b"\xc7\x84\xc7\x87", b"FF", b"\xca\xbcN",
                                   b"\xce\x99\xcc\x88\xcc\x81"]
    low = tf.strings.lower(["\u0391\u03a3", "\u0391\u03a3 \u0392", "\u03a3", "\u0391\u03a3\u0391",
                            "\u0391.\u03a3", "\u0130", "A\u0301\u03a3"], encoding="utf-8")
    assert low.numpy().tolist() == [b"\xce\xb1\xcf\x82", b"\xce\xb1\xcf\x82 \xce\xb2", b"\xcf\x83",
                                    b"\xce\xb1\xcf\x83\xce\xb1", b"\xce\xb1.\xcf\x82", b"i\xcc\x87",
                                    b"a\xcc\x81\xcf\x82"]


def test_case_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="only utf-8 or '' \\(no encoding\\) is supported, "
                                                             "received bad \\[Op:StringLower\\]"):
        tf.strings.lower(["A"], encoding="bad")
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a int32 tensor"):
        tf.strings.upper(tf.constant([1]))


def test_substr_bytes_matches_slicing():
    strs = _strings(200, 2)
    rng = random.Random(3)
    pos = [rng.randint(-len(s), len(s)) for s in strs]
    lens = [rng.randint(-1, 6) for _ in strs]
    got = tf.strings.substr(strs, pos, lens).numpy().tolist()
    want = []
    for s, p, n in zip(strs, pos, lens):
        p = p + len(s) if p < 0 else p
        want.append(s[p:] if n < 0 else s[p:p + n])
    assert got == want


def test_substr_utf8_matches_str_slicing():
    words = ["h\u00e9llo", "", "\u65e5\u672c\u8a9e", "a\U0001f642b", "abc"]
    rng = random.Random(4)
    for _ in range(20):
        pos = [rng.randint(-len(w), len(w)) for w in words]
        lens = [rng.randint(0, 4) for _ in words]
        got = tf.strings.substr(words, pos, lens, unit="UTF8_CHAR").numpy().tolist()
        assert got == [w[p:][:n].encode() for w, p, n in zip(words, pos, lens)]


def test_substr_tf_values():
    assert tf.strings.substr("hello", -3, 2).numpy() == b"ll"
    assert tf.strings.substr("hello", 3, 10).numpy() == b"lo"
    assert tf.strings.substr("hello", 5, 1).numpy() == b""
    assert tf.strings.substr("hello", 1, -1).numpy() == b"ello"
    assert tf.strings.substr(["hello", "ab"], 1, 1).numpy().tolist() == [b"e", b"b"]
    r = tf.strings.substr([["hello", "ab"], ["xyz", "q"]], [1, 0], [2, 1])
    assert r.numpy().tolist() == [[b"el", b"a"], [b"yz", b"q"]]
    assert tf.strings.substr(b"h\xffllo", 1, 2, unit="UTF8_CHAR").numpy() == b"\xffl"
    assert tf.strings.substr("h\u00e9llo", 5, 2, unit="UTF8_CHAR").numpy() == b""
    pos = tf.constant(1, tf.int64)
    assert tf.strings.substr("hello", pos, tf.constant(2, tf.int64)).numpy() == b"el"
    f = tf.function(lambda s, p, n: tf.strings.substr(s, p, n))
    assert f(tf.constant(["hello", "ab"]), tf.constant([1, 0]), tf.constant([2, 1])).numpy().tolist() == [b"el", b"a"]


def test_substr_errors():
    def raises(msg, *args, **kwargs):
        with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
            tf.strings.substr(*args, **kwargs)
    raises(r"pos 6 out of range for string b'hello' at index 0 \[Op:Substr\]", "hello", 6, 1)
    raises(r"pos -6 out of range for string b'hello' at index 0", "hello", -6, 1)
    raises(r"pos 3 out of range for string b'ab' at index 1", ["hello", "ab"], 3, 1)
    raises(r"pos 6 out of range for string at index 0", "h\u00e9llo", 6, 2, unit="UTF8_CHAR")
    raises(r"pos and len should have the same shape, got: \[2\] vs. \[\]", ["hello", "ab"], [1, 5], 1)
    raises(r"Incompatible shapes: \[2\] vs. \[3\]", ["hello", "ab"], [1, 0, 2], [2, 1, 1])
    raises("Value for attr 'unit' of \"BAD\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"",
           "hello", 1, 2, unit="BAD")
    raises("Value for attr 'T' of float is not in the list of allowed values: int32, int64", "hello", 1.0, 2.0)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.function(lambda x: tf.strings.substr(x, [1, 2], 1))(tf.constant(["ab", "cd"]))
    raises(r"input #2\(zero-based\) was expected to be a int64 tensor but is a int32 tensor", "hello",
           tf.constant(1, tf.int64), tf.constant(2))


def test_reduce_join_matches_numpy():
    rng = np.random.default_rng(5)
    x = np.array([b"%d" % v for v in rng.integers(0, 100, 24)], object).reshape(2, 3, 4)
    for axes in ([0], [1], [2], [-1], [0, 1], [1, 0], [2, 0], [0, 2], [0, 1, 2], [2, 1, 0], [1, 2, 0]):
        got = tf.strings.reduce_join(x, axis=axes, separator=",").numpy()
        want = [b",".join(r) for r in _flat_rows(x, axes)]
        assert np.asarray(got).reshape(-1).tolist() == want, axes


def _flat_rows(x, axes):
    """NumPy reference: the kept axes first, then the reduced ones, the first listed varying fastest."""
    axes = [a % x.ndim for a in axes]
    kept = [d for d in range(x.ndim) if d not in axes]
    moved = np.transpose(x, kept + axes[::-1])
    return moved.reshape((int(np.prod([x.shape[d] for d in kept])), -1)).tolist()


def test_reduce_join_tf_values():
    x = [["a", "b"], ["c", "d"]]
    assert tf.strings.reduce_join(["a", "b", "c"]).numpy() == b"abc"
    assert tf.strings.reduce_join(x, axis=0).numpy().tolist() == [b"ac", b"bd"]
    assert tf.strings.reduce_join(x, axis=1, separator="-").numpy().tolist() == [b"a-b", b"c-d"]
    assert tf.strings.reduce_join(x, axis=-1, keepdims=True).numpy().tolist() == [[b"ab"], [b"cd"]]
    assert tf.strings.reduce_join(x, axis=[0, 1], separator=",").numpy() == b"a,c,b,d"
    assert tf.strings.reduce_join(x, separator=",").numpy() == b"a,b,c,d"
    assert tf.strings.reduce_join(x, separator=",", keepdims=True).numpy().tolist() == [[b"a,b,c,d"]]
    assert tf.strings.reduce_join(x, axis=[]).numpy().tolist() == [[b"a", b"b"], [b"c", b"d"]]
    assert tf.strings.reduce_join(tf.zeros([2, 0], tf.string), axis=1).numpy().tolist() == [b"", b""]
    assert tf.strings.reduce_join(tf.zeros([0, 2], tf.string), axis=1).shape == (0,)
    assert tf.strings.reduce_join("a").numpy() == b"a"
    f = tf.function(lambda x: tf.strings.reduce_join(x, axis=1, separator=" "))
    assert f(tf.constant(x)).numpy().tolist() == [b"a b", b"c d"]
    g = tf.function(lambda x: tf.strings.reduce_join(x, separator="+"))
    assert g(tf.constant(x)).numpy() == b"a+b+c+d"


def test_reduce_join_errors():
    x = [["a", "b"], ["c", "d"]]
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Invalid reduction dimension 2 for input with 2 "
                                                        r"dimension\(s\) \[Op:ReduceJoin\]"):
        tf.strings.reduce_join(x, axis=2)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"Invalid reduction dimension 0 for input with 0"):
        tf.strings.reduce_join("a", axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate reduction dimension 0"):
        tf.strings.reduce_join(x, axis=[0, -2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a int32 tensor"):
        tf.strings.reduce_join(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 dimensions."):
        tf.function(lambda x: tf.strings.reduce_join(x, axis=2))(tf.constant(x))
