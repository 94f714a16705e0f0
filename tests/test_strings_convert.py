"""tf.strings.to_number and as_string: parsing checked against Python's float()/int() over many
strings and TF's results for the edge cases (whitespace, inf/nan, hex, ranges); formatting checked
against Python's printf-style % operator (the C formats TF builds from the attrs), and TF's errors."""
import random

import numpy as np
import pytest

import eagerflow as tf


def _number_strings(seed, n=300):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind = rng.randrange(4)
        if kind == 0:
            out.append(str(rng.randint(-10**9, 10**9)))
        elif kind == 1:
            out.append(repr(rng.uniform(-1e6, 1e6)))
        elif kind == 2:
            out.append("%.*e" % (rng.randrange(0, 12), rng.uniform(-1, 1) * 10 ** rng.randrange(-300, 300)))
        else:
            out.append(rng.choice([" ", "\t", ""]) + str(rng.randint(0, 99)) + rng.choice(["", " ", "\n"]))
    return out


def test_to_number_matches_python():
    strs = _number_strings(1)
    np.testing.assert_array_equal(tf.strings.to_number(strs, tf.float64).numpy(), [float(s) for s in strs])
    with np.errstate(over="ignore"):
        want32 = np.array([float(s) for s in strs], np.float32)
    np.testing.assert_array_equal(tf.strings.to_number(strs).numpy(), want32)
    ints = [s for s in strs if s.strip().lstrip("-").isdigit()]
    assert tf.strings.to_number(ints, tf.int64).numpy().tolist() == [int(s) for s in ints]
    r = tf.strings.to_number(ints, tf.int32)
    assert r.dtype == tf.int32 and r.numpy().tolist() == [int(s) for s in ints]


# (string, float32, float64, int32, int64) as TF 2.21 parses them; None: InvalidArgumentError.
_NAN, _INF = float("nan"), float("inf")
_TF_PARSES = [
    ("1.5", 1.5, 1.5, None, None), (" 2", 2.0, 2.0, 2, 2), ("1e3", 1000.0, 1000.0, None, None),
    ("inf", _INF, _INF, None, None), ("-nan", _NAN, _NAN, None, None), ("0x10", 16.0, 16.0, None, None),
    ("3 ", 3.0, 3.0, 3, 3), ("+4", 4.0, 4.0, 4, 4), ("1.", 1.0, 1.0, None, None), (".5", 0.5, 0.5, None, None),
    ("1e", None, None, None, None), ("NaN", _NAN, _NAN, None, None), ("Infinity", _INF, _INF, None, None),
    ("1d", None, None, None, None), ("1f", None, None, None, None), ("-inf", -_INF, -_INF, None, None),
    ("INF", _INF, _INF, None, None), ("nan(1)", _NAN, _NAN, None, None), ("  ", None, None, None, None),
    ("", None, None, None, None), ("1e-50", 0.0, 1e-50, None, None), ("3.4028236e38", _INF, 3.4028236e38, None, None),
    ("0x1p3", 8.0, 8.0, None, None), ("1,5", None, None, None, None), ("\u0663", None, None, None, None),
    ("- 1", None, None, None, None), ("--1", None, None, None, None), ("00012", 12.0, 12.0, 12, 12),
    ("1e400", _INF, _INF, None, None), ("4.9e-324", 0.0, 5e-324, None, None), ("\t7\n", 7.0, 7.0, 7, 7),
    ("\x0b8", 8.0, 8.0, 8, 8), ("2147483647", 2147483648.0, 2147483647.0, 2147483647, 2147483647),
    ("2147483648", 2147483648.0, 2147483648.0, None, 2147483648), ("-2147483648", -2147483648.0, -2147483648.0,
                                                                    -2147483648, -2147483648),
    ("-2147483649", -2147483648.0, -2147483649.0, None, -2147483649),
    ("9223372036854775808", 9.223372e18, 9.223372036854775808e18, None, None), ("0b1", None, None, None, None),
    ("12a", None, None, None, None), ("-", None, None, None, None), ("+", None, None, None, None),
]


@pytest.mark.parametrize("text,f32,f64,i32,i64", _TF_PARSES)
def test_to_number_tf_values(text, f32, f64, i32, i64):
    for dtype, want in ((tf.float32, f32), (tf.float64, f64), (tf.int32, i32), (tf.int64, i64)):
        if want is None:
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"StringToNumberOp could not correctly convert string: "):
                tf.strings.to_number(text, dtype)
            continue
        got = tf.strings.to_number(text, dtype).numpy()
        if dtype == tf.float32:
            want = np.float32(want)
        np.testing.assert_array_equal(got, want)
        if want == 0 and dtype.is_floating:
            assert np.signbit(got) == np.signbit(want)


def test_to_number_errors_and_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"convert string: abc \[Op:StringToNumber\]"):
        tf.strings.to_number(["1", "abc"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'out_type' of int16 is not in the list "
                                                             "of allowed values: float, double, int32, int64, uint32"):
        tf.strings.to_number(["1"], out_type=tf.int16)
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor"):
        tf.strings.to_number(tf.constant([1.0]))
    assert tf.strings.to_number([["1", "2"]]).shape == (1, 2)
    r = tf.strings.to_number(tf.ragged.constant([["1"], ["2", "3"]]), tf.int32)
    assert r.to_list() == [[1], [2, 3]]
    assert tf.function(lambda x: tf.strings.to_number(x, tf.int64))(tf.constant(["5", "-6"])).numpy().tolist() == [5, -6]


def _c_format(fill, width, precision, conv):
    return "%" + fill + (str(width) if width > -1 else "") + ("." + str(precision) if precision > -1 else "") + conv


_FLOATS = [1.5, -2.25, 0.0, -0.0, 1e10, 1e-7, 3.14159265358979, float("inf"), float("nan"), -float("inf"),
           123456789.0, 0.5, 2.5, -1e-300, 6.02e23]


@pytest.mark.parametrize("dtype", [tf.float32, tf.float64])
def test_as_string_floats_match_printf(dtype):
    x = tf.constant(_FLOATS, dtype)
    vals = [float(v) for v in x.numpy()]
    for fill in ("", " ", "+", "-", "0", "#"):
        for width in (-1, 0, 12):
            for precision in (-1, 0, 3):
                for conv, kw in (("f", {}), ("e", {"scientific": True}), ("g", {"shortest": True})):
                    got = tf.strings.as_string(x, precision=precision, width=width, fill=fill, **kw).numpy().tolist()
                    fmt = _c_format(fill, width, precision, conv)
                    # C pads inf and nan with spaces under the 0 flag (Python's % with zeros).
                    want = [(fmt % v if np.isfinite(v) else _c_format(fill.strip("0"), width, precision, conv) % v).encode()
                            for v in vals]
                    assert got == want, (fmt, got)


def test_as_string_ints_match_printf():
    for dtype in (tf.int8, tf.uint8, tf.int16, tf.int32, tf.int64):
        x = tf.constant([0, 7, -42, 100, 127], dtype) if dtype != tf.uint8 else tf.constant([0, 7, 255], dtype)
        for fill in ("", " ", "+", "-", "0", "#"):
            for width in (-1, 3, 8):
                got = tf.strings.as_string(x, width=width, fill=fill).numpy().tolist()
                fmt = _c_format(fill, width, -1, "d")
                assert got == [(fmt % int(v)).encode() for v in x.numpy()]


def test_as_string_tf_values():
    x = tf.constant([1.5, -2.25, 1e10, float("nan"), 123456789.0])
    assert tf.strings.as_string(x).numpy().tolist() == [b"1.500000", b"-2.250000", b"10000000000.000000", b"nan",
                                                         b"123456792.000000"]
    assert tf.strings.as_string(x, precision=2, shortest=True).numpy().tolist() == [b"1.5", b"-2.2", b"1e+10", b"nan",
                                                                                     b"1.2e+08"]
    assert tf.strings.as_string(tf.constant([-42, 2**63 - 1], tf.int64), width=4, fill="0").numpy().tolist() == [
        b"-042", b"9223372036854775807"]
    assert tf.strings.as_string(tf.constant([True, False]), width=7).numpy().tolist() == [b"true", b"false"]
    assert tf.strings.as_string(tf.constant([1 + 2j, -0.5j])).numpy().tolist() == [b"(1.000000,2.000000)",
                                                                                   b"(-0.000000,-0.500000)"]
    assert tf.strings.as_string(tf.constant([1 + 2j], tf.complex64), precision=2).numpy().tolist() == [b"(1.00,2.00)"]
    assert tf.strings.as_string(tf.constant([1.5], tf.float16)).numpy().tolist() == [b"1.500000"]
    assert tf.strings.as_string(tf.constant(["a"]), width=3).numpy().tolist() == [b"  a"]
    assert tf.strings.as_string(tf.constant(3.5)).numpy() == b"3.500000"
    assert tf.strings.as_string(tf.ragged.constant([[1], [2, 3]])).to_list() == [[b"1"], [b"2", b"3"]]
    assert tf.function(lambda x: tf.strings.as_string(x, precision=1))(tf.constant([2.25])).numpy().tolist() == [b"2.2"]


def test_as_string_errors():
    ints = tf.constant([1, 2])
    for kwargs, msg in (({"fill": "x"}, 'Fill argument not supported: "x"'),
                        ({"precision": 2}, "precision not supported for datatype int32"),
                        ({"scientific": True}, "scientific and shortest format not supported for datatype int32"),
                        ({"shortest": True}, "scientific and shortest format not supported for datatype int32"),
                        ({"width": 5, "fill": "ab"}, "Fill string must be one or fewer characters")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
            tf.strings.as_string(ints, **kwargs)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot select both scientific and shortest notation"):
        tf.strings.as_string(tf.constant([1.0]), scientific=True, shortest=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="precision not supported for datatype bool"):
        tf.strings.as_string(tf.constant([True]), precision=1)
