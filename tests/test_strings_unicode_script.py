"""tf.strings.unicode_script (ICU's script property): TF 2.21's codes for a mix of scripts, the
invalid code points, ranks, ragged inputs, tf.function and dtype errors; skipped, saying why, when
eagerflow was built without ICU."""
import numpy as np
import pytest

import eagerflow as tf


def _have_icu():
    try:
        tf.strings.unicode_script([65])
        return True
    except tf.errors.UnimplementedError:
        return False


pytestmark = pytest.mark.skipif(not _have_icu(), reason="eagerflow was built without ICU (Debian: libicu-dev); "
                                                        "tf.strings.unicode_script raises UnimplementedError")

# Code points and the UScriptCode TF 2.21 returned for each: Latin, Cyrillic, Han, Hiragana, Katakana,
# Arabic, Common (digits, space, punctuation, emoji, the prolonged sound mark), Inherited (combining
# accents), Hebrew, Greek, Devanagari, Hangul, Thai, Unknown (surrogates, private use, unassigned
# U+10FFFF) and -1 for what is not a code point (negative, above U+10FFFF).
_CASES = [(65, 25), (122, 25), (0xE9, 25), (0x416, 8), (0x44F, 8), (0x4E2D, 17), (0x8A9E, 17), (0x3005, 17),
          (0x20000, 17), (0x3042, 20), (0x3093, 20), (0x30A2, 22), (0x627, 2), (0x645, 2), (48, 0), (57, 0),
          (32, 0), (33, 0), (0x1F60A, 0), (0x30FC, 0), (0x300, 1), (0x301, 1), (0x5D0, 19), (0x3B1, 14),
          (0x915, 10), (0xAC00, 18), (0xE01, 38), (0xD800, 103), (0xE000, 103), (0x10FFFF, 103), (-1, -1),
          (0x110000, -1), (2**31 - 1, -1), (-2**31, -1)]


def test_scripts_match_tf():
    cps, want = zip(*_CASES)
    got = tf.strings.unicode_script(tf.constant(cps, tf.int32))
    assert got.dtype == tf.int32 and got.shape == (len(cps),)
    assert got.numpy().tolist() == list(want)


def test_guide_example_and_shapes():
    assert tf.strings.unicode_script([33464, 1041]).numpy().tolist() == [17, 8]
    assert tf.strings.unicode_script(tf.constant(65)).numpy() == 25
    got = tf.strings.unicode_script(tf.constant([[65, 1041], [33464, -5]]))
    assert got.shape == (2, 2) and got.numpy().tolist() == [[25, 8], [17, -1]]
    assert tf.strings.unicode_script(tf.zeros([0, 2], tf.int32)).shape == (0, 2)


def test_large_input_is_elementwise():
    cps = np.tile(np.array([c for c, _ in _CASES], np.int32), 1000)
    want = np.tile(np.array([s for _, s in _CASES], np.int32), 1000)
    np.testing.assert_array_equal(tf.strings.unicode_script(cps).numpy(), want)


def test_ragged_and_function():
    chars = tf.strings.unicode_decode(["Göödnight", "😊", "语言"], input_encoding="UTF-8")
    got = tf.strings.unicode_script(chars)
    assert isinstance(got, tf.RaggedTensor)
    assert got.to_list() == [[25] * 9, [0], [17, 17]]
    f = tf.function(tf.strings.unicode_script)
    assert f(tf.constant([65, 48, 32, 1575])).numpy().tolist() == [25, 0, 0, 2]
    graph = f.get_concrete_function(tf.TensorSpec([None, 3], tf.int32)).graph
    assert [op.type for op in graph.get_operations()] == ["Placeholder", "UnicodeScript", "Identity"]


def test_errors_match_tf():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute UnicodeScript as input #0\(zero-based\) was expected to be a int32 "
                             r"tensor but is a int64 tensor"):
        tf.strings.unicode_script(tf.constant([65], tf.int64))
    with pytest.raises(TypeError, match=r"Cannot convert \[1\.5\] to EagerTensor of dtype int32"):
        tf.strings.unicode_script([1.5])
