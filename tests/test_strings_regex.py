"""tf.strings.regex_full_match / regex_replace (RE2): differential against Python's re (with ASCII
classes, as RE2's are) for patterns whose semantics agree, TF's results where RE2 differs (empty matches,
rewrites of missing groups, UTF-8), Static vs tensor patterns, tf.function, and TF's errors. Skips, saying
why, when eagerflow was built without RE2."""
import random
import re

import pytest

import eagerflow as tf


def _have_re2():
    try:
        tf.strings.regex_full_match("a", "a")
        return True
    except tf.errors.UnimplementedError:
        return False


pytestmark = pytest.mark.skipif(not _have_re2(), reason="eagerflow was built without RE2 (Debian: libre2-dev); "
                                                         "the regex ops raise UnimplementedError")

_PATTERNS = [r"a.c", r"[a-c]+", r"\d+", r"(ab|cd)+e?", r"x?y{2,3}", r"[^ab]", r"(a)(b)?", r"\w+\s\w+", r"a|b|c"]


def _strings(n, seed):
    rng = random.Random(seed)
    return ["".join(rng.choice("abcdexy 12\u00e9") for _ in range(rng.randrange(0, 8))) for _ in range(n)]


@pytest.mark.parametrize("pattern", _PATTERNS)
def test_full_match_matches_python_re(pattern):
    strs = _strings(300, 1)
    want = [re.fullmatch(pattern, s, re.ASCII) is not None for s in strs]
    assert tf.strings.regex_full_match(strs, pattern).numpy().tolist() == want
    assert tf.strings.regex_full_match(strs, tf.constant(pattern)).numpy().tolist() == want


@pytest.mark.parametrize("pattern", [p for p in _PATTERNS if not re.fullmatch(p, "")])
def test_replace_matches_python_re(pattern):
    strs = _strings(300, 2)
    rewrite, py_rewrite = r"<\0>", r"<\g<0>>"
    got = tf.strings.regex_replace(strs, pattern, rewrite).numpy().tolist()
    assert got == [re.sub(pattern, py_rewrite, s, flags=re.ASCII).encode() for s in strs]
    got = tf.strings.regex_replace(strs, pattern, "#", replace_global=False).numpy().tolist()
    assert got == [re.sub(pattern, "#", s, count=1, flags=re.ASCII).encode() for s in strs]
    got = tf.strings.regex_replace(strs, tf.constant(pattern), tf.constant("-")).numpy().tolist()
    assert got == [re.sub(pattern, "-", s, flags=re.ASCII).encode() for s in strs]


def test_tf_values():
    assert tf.strings.regex_full_match(["abc", "ab", "", "xabc"], "a.c").numpy().tolist() == [True, False, False,
                                                                                                 False]
    assert tf.strings.regex_full_match(["h\u00e9llo", b"h\xffllo"], "h.llo").numpy().tolist() == [True, False]
    assert tf.strings.regex_full_match(["abc"], "(?i)ABC").numpy().tolist() == [True]
    assert tf.strings.regex_full_match(["\u65e5\u672c", "ab"], r"\p{Han}+").numpy().tolist() == [True, False]
    assert tf.strings.regex_full_match("abc", "abc").shape == ()
    rep = lambda *a, **k: tf.strings.regex_replace(*a, **k).numpy().tolist()  # noqa: E731
    assert rep(["aaa", "bab", ""], "a", "x", replace_global=False) == [b"xaa", b"bxb", b""]
    assert rep(["hello world"], r"(\w+) (\w+)", r"\2 \1") == [b"world hello"]
    assert rep(["hello"], r"(\w+)", r"\2") == [b"hello"]  # a missing group: RE2 leaves the string
    assert rep(["hello"], r"l", r"\\") == [b"he\\\\o"]
    assert rep(["hello"], r"", "-") == [b"-h-e-l-l-o-"]
    assert rep(["baaac", "xyz", ""], "a*", "-") == [b"-b-c-", b"-x-y-z-", b"-"]  # Python's re gives '-b--c-'
    assert rep(["h\u00e9llo"], r".", "-") == [b"-----"]
    assert rep([["a1", "b22"]], r"\d", "#") == [[b"a#", b"b##"]]
    assert rep(["2024-01-15", "no date"], r"(\d+)-(\d+)-(\d+)", r"\3/\2/\1") == [b"15/01/2024", b"no date"]
    r = tf.strings.regex_replace(tf.ragged.constant([["a1"], []]), r"\d", "#")
    assert r.to_list() == [[b"a#"], []]


def test_in_tf_function():
    @tf.function
    def f(x, p):
        return (tf.strings.regex_full_match(x, r"\d+"), tf.strings.regex_replace(x, r"\d", "#"),
                tf.strings.regex_full_match(x, p))

    m, r, mp = f(tf.constant(["12", "a1"]), tf.constant("a.*"))
    assert m.numpy().tolist() == [True, False] and r.numpy().tolist() == [b"##", b"a#"]
    assert mp.numpy().tolist() == [False, True]
    m, r, mp = f(tf.constant(["7"]), tf.constant(r"\d"))
    assert m.numpy().tolist() == [True] and mp.numpy().tolist() == [True]


def test_errors():
    iae = tf.errors.InvalidArgumentError
    with pytest.raises(iae, match=r"Invalid pattern: \(, error: missing \): \( \[Op:StaticRegexFullMatch\]"):
        tf.strings.regex_full_match(["abc"], "(")
    with pytest.raises(iae, match=r"Invalid pattern: \(, error: missing \): \( \[Op:RegexFullMatch\]"):
        tf.strings.regex_full_match(["abc"], tf.constant("("))
    with pytest.raises(iae, match=r"Invalid pattern: \(, error: missing \): \( \[Op:StaticRegexReplace\]"):
        tf.strings.regex_replace(["abc"], "(", "x")
    with pytest.raises(iae, match=r"Pattern must be scalar, but received \[1\] \[Op:RegexFullMatch\]"):
        tf.strings.regex_full_match(["abc"], tf.constant(["a.c"]))
    with pytest.raises(iae, match=r"Pattern must be scalar, but received \[1\] \[Op:RegexReplace\]"):
        tf.strings.regex_replace(["abc"], tf.constant(["b"]), "X")
    with pytest.raises(iae, match=r"Rewrite must be scalar, but received \[1\] \[Op:RegexReplace\]"):
        tf.strings.regex_replace(["abc"], "b", tf.constant(["X"]))
    with pytest.raises(TypeError, match=r"Cannot convert \[1\] to EagerTensor of dtype string"):
        tf.strings.regex_full_match([1], "a")
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.function(lambda x, p: tf.strings.regex_full_match(x, p))(tf.constant(["a"]), tf.constant(["a"]))
