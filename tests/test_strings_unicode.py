"""tf.strings' Unicode ops: decoding checked against Python's codecs (errors='replace' / 'ignore')
over random bytes, encoding and transcoding against str.encode, TF's results for replacement,
control characters, offsets and byte-order marks, ranks and ragged inputs, tf.function, errors."""
import random

import pytest

import eagerflow as tf

_PIECES = [b"a", b"\xc3\xa9", b"\xe6\x97\xa5", b"\xf0\x9f\x99\x82", b"\xff", b"\xc3", b"\xe6\x97", b"\xed\xa0\x80",
           b"\xc0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x99", b"\x80", b"\x00", b"\x01", b"\x7f", b" "]


def _byte_strings(n, seed, pieces=_PIECES):
    rng = random.Random(seed)
    return [b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 8))) for _ in range(n)]


def _random_bytes(n, seed):
    rng = random.Random(seed)
    return [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 9))) for _ in range(n)]


@pytest.mark.parametrize("encoding,codec", [("UTF-8", "utf-8"), ("UTF-16-BE", "utf-16-be"),
                                            ("UTF-32-BE", "utf-32-be"), ("UTF-16-LE", "utf-16-le")])
def test_decode_matches_python_codecs(encoding, codec):
    strs = _byte_strings(300, 1) + _random_bytes(300, 2)
    if codec != "utf-8":
        rng = random.Random(3)
        strs += [("".join(chr(rng.choice([97, 0xE9, 0x65E5, 0x1F642, 0xD800, 0xDC00])) for _ in range(4)))
                 .encode(codec, "surrogatepass") for _ in range(100)]
    for errors in ("replace", "ignore"):
        got = tf.strings.unicode_decode(strs, encoding, errors=errors).to_list()
        assert got == [[ord(ch) for ch in s.decode(codec, errors)] for s in strs], errors


def test_decode_tf_values():
    r = tf.strings.unicode_decode(["h\u00e9llo", "", "\u65e5\u672c"], "UTF-8")
    assert r.to_list() == [[104, 233, 108, 108, 111], [], [26085, 26412]] and r.dtype == tf.int32
    assert r.row_splits.dtype == tf.int64
    assert tf.strings.unicode_decode("h\u00e9", "UTF-8").numpy().tolist() == [104, 233]
    assert tf.strings.unicode_decode([["ab"], ["c"]], "UTF-8").to_list() == [[[97, 98]], [[99]]]
    assert tf.strings.unicode_decode(tf.ragged.constant([["ab"], ["c", ""]]), "UTF-8").to_list() == [
        [[97, 98]], [[99], []]]
    dec = lambda s, *a, **k: tf.strings.unicode_decode(s, *a, **k).numpy().tolist()  # noqa: E731
    assert dec(b"a\xffb", "UTF-8", replacement_char=63) == [97, 63, 98]
    assert dec(b"\x00a\t\n\x1f\x1e", "UTF-8", replace_control_characters=True) == [65533, 97] + [65533] * 4
    assert dec(b"a\x01b\x7f\xc2\x9f", "UTF-8", replace_control_characters=True) == [97, 65533, 98, 127, 159]
    assert dec(b"\xd8\x3d\xde\x42", "UTF-16-BE") == [128578]
    assert dec(b"\xd8\x3d\x00a", "UTF-16-BE") == [65533, 97]
    assert dec(b"\x00\x00\x00a\x00\x11\x00\x00", "UTF-32-BE") == [97, 65533]
    assert dec(b"\xff\xfe\x61\x00", "UTF-16") == [97] and dec(b"a", "UTF-16") == [65533]
    assert dec(b"\xfe\xff\x00\x61", "UTF-16-BE") == [65279, 97] and dec(b"\xef\xbb\xbfa", "UTF-8") == [65279, 97]
    assert dec(b"a\xe9", "ISO-8859-1") == [97, 233] and dec(b"a", "utf-8") == [97]


def test_decode_with_offsets():
    chars, offs = tf.strings.unicode_decode_with_offsets(["h\u00e9llo", b"a\xffb"], "UTF-8")
    assert chars.to_list() == [[104, 233, 108, 108, 111], [97, 65533, 98]]
    assert offs.to_list() == [[0, 1, 3, 4, 5], [0, 1, 2]] and offs.dtype == tf.int64
    chars, offs = tf.strings.unicode_decode_with_offsets(b"a\xffb", "UTF-8", errors="ignore")
    assert chars.numpy().tolist() == [97, 98] and offs.numpy().tolist() == [0, 2]


def test_encode_matches_str_encode():
    rng = random.Random(4)
    rows = [[rng.choice([0, 1, 97, 0x7F, 0x80, 0xE9, 0x7FF, 0x800, 0xFFFF, 0x10000, 0x1F642, 0x10FFFF])
             for _ in range(rng.randrange(0, 6))] for _ in range(300)]
    rt = tf.ragged.constant(rows, dtype=tf.int32)
    for enc, codec in (("UTF-8", "utf-8"), ("UTF-16-BE", "utf-16-be"), ("UTF-32-BE", "utf-32-be")):
        got = tf.strings.unicode_encode(rt, enc).numpy().tolist()
        assert got == ["".join(map(chr, r)).encode(codec) for r in rows], enc


def test_encode_tf_values():
    enc = lambda x, *a, **k: tf.strings.unicode_encode(x, *a, **k).numpy()  # noqa: E731
    assert enc([104, 233, 0x1F642], "UTF-8") == b"h\xc3\xa9\xf0\x9f\x99\x82"
    assert enc([[104, 233], [97, 98]], "UTF-8").tolist() == [b"h\xc3\xa9", b"ab"]
    assert enc([97, -1, 0xD800, 0x110000, 98], "UTF-8") == b"a" + b"\xef\xbf\xbd" * 3 + b"b"
    assert enc([97, -1, 0xD800, 0x110000, 98], "UTF-8", errors="ignore") == b"ab"
    assert enc([97, -1, 98], "UTF-8", replacement_char=63) == b"a?b"
    assert enc([[[97, 98]], [[99, 100]]], "UTF-8").tolist() == [[b"ab"], [b"cd"]]
    r = tf.strings.unicode_encode(tf.ragged.constant([[[97], [98, 99]], [[100]]]), "UTF-8")
    assert r.to_list() == [[b"a", b"bc"], [b"d"]]
    r = tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [], [0x1F642, 97]]), "UTF-16-BE")
    assert r.numpy().tolist() == [b"\x00h\x00\xe9", b"", b"\xd8=\xdeB\x00a"]


def test_transcode_and_split():
    strs = _byte_strings(200, 5)
    got = tf.strings.unicode_transcode(strs, "UTF-8", "UTF-16-BE").numpy().tolist()
    assert got == [s.decode("utf-8", "replace").encode("utf-16-be") for s in strs]
    got = tf.strings.unicode_transcode(strs, "UTF-8", "UTF-8", errors="ignore").numpy().tolist()
    assert got == [s.decode("utf-8", "ignore").encode() for s in strs]
    assert tf.strings.unicode_transcode(b"\x00h\x00\xe9", "UTF-16-BE", "UTF-32-BE").numpy() == (
        b"\x00\x00\x00h\x00\x00\x00\xe9")
    assert tf.strings.unicode_transcode(b"a\x01b", "UTF-8", "UTF-8", replace_control_characters=True).numpy() == (
        b"a\xef\xbf\xbdb")
    assert tf.strings.unicode_transcode([["a"]], "UTF-8", "UTF-16-BE").numpy().tolist() == [[b"\x00a"]]
    got = tf.strings.unicode_split(strs, "UTF-8").to_list()
    assert got == [[ch.encode() for ch in s.decode("utf-8", "replace")] for s in strs]
    assert tf.strings.unicode_split("h\u00e9", "UTF-8").numpy().tolist() == [b"h", b"\xc3\xa9"]
    assert tf.strings.unicode_split(b"\x00h\x00\xe9", "UTF-16-BE").numpy().tolist() == [b"\x00h", b"\x00\xe9"]
    assert tf.strings.unicode_split(b"a\xffb", "UTF-8", errors="ignore").numpy().tolist() == [b"a", b"b"]
    chars, offs = tf.strings.unicode_split_with_offsets(["h\u00e9llo"], "UTF-8")
    assert chars.to_list() == [[b"h", b"\xc3\xa9", b"l", b"l", b"o"]] and offs.to_list() == [[0, 1, 3, 4, 5]]


def test_unicode_in_tf_function():
    @tf.function
    def f(x):
        cps = tf.strings.unicode_decode(x, "UTF-8")
        return cps, tf.strings.unicode_encode(cps, "UTF-16-BE"), tf.strings.unicode_split(x, "UTF-8")

    cps, utf16, chars = f(tf.constant(["h\u00e9", "\U0001f642x"]))
    assert cps.to_list() == [[104, 233], [0x1F642, 120]]
    assert utf16.numpy().tolist() == ["h\u00e9".encode("utf-16-be"), "\U0001f642x".encode("utf-16-be")]
    assert chars.to_list() == [[b"h", b"\xc3\xa9"], ["\U0001f642".encode(), b"x"]]


def test_length_utf8_chars():
    words = ["h\u00e9llo", "", "\u65e5\u672c\u8a9e", "a\U0001f642b"]
    assert tf.strings.length(words, unit="UTF8_CHAR").numpy().tolist() == [len(w) for w in words]
    assert tf.strings.length(b"a\xe9\xffb", unit="UTF8_CHAR").numpy() == 4


def test_errors():
    def raises(cls, msg, fn, *args, **kwargs):
        with pytest.raises(cls, match=msg):
            fn(*args, **kwargs)
    iae = tf.errors.InvalidArgumentError
    raises(iae, r"Invalid formatting on input string \[Op:UnicodeDecode\]", tf.strings.unicode_decode, b"a\xff",
           "UTF-8", errors="strict")
    raises(iae, "Could not create converter for input encoding: BAD", tf.strings.unicode_decode, b"a", "BAD")
    raises(iae, "Value for attr 'errors' of \"bad\" is not in the list of allowed values: \"strict\", \"replace\", "
                "\"ignore\"", tf.strings.unicode_decode, b"a", "UTF-8", errors="bad")
    for bad in (-1, 0x110000):
        raises(iae, "replacement_char out of unicode codepoint range", tf.strings.unicode_decode, b"a", "UTF-8",
               replacement_char=bad)
    raises(iae, r"Code point is out of range for Unicode, or is a surrogate. \[Op:UnicodeEncode\]",
           tf.strings.unicode_encode, [97, -1], "UTF-8", errors="strict")
    raises(iae, "Value for attr 'output_encoding' of \"UTF-16\" is not in the list of allowed values: \"UTF-8\", "
                "\"UTF-16-BE\", \"UTF-32-BE\"", tf.strings.unicode_encode, [97], "UTF-16")
    raises(ValueError, "input_tensor's rank must be at least 1.", tf.strings.unicode_encode, 97, "UTF-8")
    raises(iae, r"input #0\(zero-based\) was expected to be a int32 tensor but is a float tensor",
           tf.strings.unicode_encode, [97.0], "UTF-8")
    raises(iae, r"Invalid formatting on input string \[Op:UnicodeTranscode\]", tf.strings.unicode_transcode,
           b"a\xffb", "UTF-8", "UTF-8", errors="strict")
    raises(iae, "Value for attr 'output_encoding' of \"latin1\"", tf.strings.unicode_transcode, b"a", "UTF-8",
           "latin1")
    enc = tf.raw_ops.UnicodeEncode
    for values, splits, msg in (([97, 98, 99], [0, 5], "Values in input_splits must be less than or equal to "
                                                       "input_tensor length."),
                                ([97], [1, 1], "First value in input_splits must be zero."),
                                ([97, 98, 99], [0, 2, 1, 3], "Values in input_splits must be equal or in ascending"),
                                ([97, 98], [0, 1], "Last value in input_splits must be equal to length of "
                                                   "input_tensor."),
                                ([97], [], "Input_splits should contain elements, but given input_values has 1")):
        raises(iae, msg, enc, input_values=values, input_splits=tf.constant(splits, tf.int64),
               output_encoding="UTF-8")
