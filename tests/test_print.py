"""tf.print and tf.strings.format: TF 2.21's formatting (expected strings checked against TF),
output streams, and printing semantics inside tf.function (every call, in program order)."""
import collections
import sys

import numpy as np
import pytest

import eagerflow as tf


def fmt(t, summarize=3):
    return tf.strings.format("{}", t, summarize=summarize).numpy().decode()


def printed(capsys, *args, **kwargs):
    """What tf.print writes to stderr (its default stream)."""
    capsys.readouterr()
    assert tf.print(*args, **kwargs) is None
    out, err = capsys.readouterr()
    assert out == ""
    return err


# --- element formatting ------------------------------------------------------------------------

@pytest.mark.parametrize("value,dtype,want", [
    (1, tf.int32, "1"),
    (1.1, tf.float32, "1.1"),
    (2.2, tf.float32, "2.2"),
    (1e-5, tf.float32, "1e-05"),
    (1e10, tf.float32, "1e+10"),
    (float("nan"), tf.float32, "nan"),
    (float("inf"), tf.float32, "inf"),
    (-float("inf"), tf.float32, "-inf"),
    (-0.0, tf.float32, "-0"),
    (1 / 3, tf.float32, "0.333333343"),
    (1 / 3, tf.float64, "0.33333333333333331"),
    (1.1, tf.float64, "1.1"),
    (0.1, tf.float64, "0.1"),
    (123456789.0, tf.float32, "123456792"),
    (1234567.0, tf.float32, "1234567"),
    (1234567.5, tf.float32, "1234567.5"),
    (123456.0, tf.float32, "123456"),
    (1e6, tf.float32, "1e+06"),
    (100000.0, tf.float32, "100000"),
    (0.0001, tf.float32, "0.0001"),
    (1e16, tf.float64, "1e+16"),
    (123456.789, tf.float64, "123456.789"),
    (1.7976931348623157e308, tf.float64, "1.7976931348623157e+308"),
    (1e-40, tf.float32, "0"),      # TF flushes denormals to zero
    (-1e-40, tf.float32, "-0"),
    (1e-310, tf.float64, "0"),
    (1.1, tf.float16, "1.09960938"),
    (0.1, tf.float16, "0.0999755859"),
    (65504, tf.float16, "65504"),
    (1e-7, tf.float16, "1.1920929e-07"),
    (True, tf.bool, "1"),
    (False, tf.bool, "0"),
    (200, tf.uint8, "200"),
    (-128, tf.int8, "-128"),
    (-5, tf.int16, "-5"),
    (2 ** 40, tf.int64, "1099511627776"),
    (1 + 2j, tf.complex64, "?"),
])
def test_scalar_elements(value, dtype, want):
    assert fmt(tf.constant(value, dtype)) == want


def test_vectors_of_each_kind():
    assert fmt(tf.constant([1.5, 2.0, -3.25])) == "[1.5 2 -3.25]"
    assert fmt(tf.constant([1e-20, 1e20, -2.5e-7])) == "[1e-20 1e+20 -2.5e-07]"
    assert fmt(tf.constant([1e-40, 1.0])) == "[0 1]"
    assert fmt(tf.constant([True, False])) == "[1 0]"
    assert fmt(tf.constant([5, 6], tf.int16)) == "[5 6]"
    assert fmt(tf.constant([1 + 2j, 3 - 4j], tf.complex64)) == "[? ?]"


def test_strings_are_quoted_and_escaped():
    assert fmt(tf.constant("hi")) == '"hi"'
    assert fmt(tf.constant("a\nb")) == '"a\\nb"'
    assert fmt(tf.constant(["a", "b c"])) == '["a" "b c"]'
    assert fmt(tf.constant([["a", "b"], ["c", "d"]])) == '[["a" "b"]\n ["c" "d"]]'
    got = fmt(tf.constant(['a"b', "c\nd", "é", "\\", "\x01", "'"]))
    assert got == '["a\\"b" "c\\nd" "é" "\\\\" "\\001" "\\\'"]'
    assert fmt(tf.constant(["a\x7fb\tc\rd"])) == '["a\\177b\\tc\\rd"]'


# --- shapes and summarization ------------------------------------------------------------------

R = lambda n, shape=None: tf.reshape(tf.range(n), shape or [n])  # noqa: E731

SHAPES = [
    (R(3), 3, "[0 1 2]"),
    (R(4, [2, 2]), 3, "[[0 1]\n [2 3]]"),
    (R(6), 3, "[0 1 2 3 4 5]"),
    (R(7), 3, "[0 1 2 ... 4 5 6]"),
    (R(10), 3, "[0 1 2 ... 7 8 9]"),
    (R(10), -1, "[0 1 2 3 4 5 6 7 8 9]"),
    (R(10), -2, "[0 1 2 3 4 5 6 7 8 9]"),
    (R(10), 0, "[ ...]"),
    (R(10), 1, "[0 ... 9]"),
    (R(7), 2, "[0 1 ... 5 6]"),
    (R(12, [1, 12]), 3, "[[0 1 2 ... 9 10 11]]"),
    (R(24, [2, 3, 4]), 3,
     "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]"),
    (R(100, [10, 10]), 3,
     "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
     " [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]"),
    (R(12, [3, 4]), 1, "[[0 ... 3]\n ...\n [8 ... 11]]"),
    (R(12, [4, 3]), 1, "[[0 ... 2]\n ...\n [9 ... 11]]"),
    (R(12, [4, 3]), 0, "[\n ...]"),
    (R(8, [2, 2, 2]), 0, "[\n\n ...]"),
    (R(4, [2, 2]), 1, "[[0 1]\n [2 3]]"),
    (R(10, [2, 5]), 3, "[[0 1 2 3 4]\n [5 6 7 8 9]]"),
    (R(10, [2, 5]), 2, "[[0 1 ... 3 4]\n [5 6 ... 8 9]]"),
    (R(14, [7, 2]), 3, "[[0 1]\n [2 3]\n [4 5]\n ...\n [8 9]\n [10 11]\n [12 13]]"),
    (R(8, [2, 2, 2]), 1, "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"),
    (R(27, [3, 3, 3]), 1,
     "[[[0 ... 2]\n  ...\n  [6 ... 8]]\n\n ...\n\n [[18 ... 20]\n  ...\n  [24 ... 26]]]"),
    (tf.zeros([1, 1, 1]), 3, "[[[0]]]"),
    (tf.constant(0.0), 0, "..."),
    (tf.zeros([1]), 0, "[ ...]"),
]


@pytest.mark.parametrize("t,summarize,want", SHAPES)
def test_shapes_and_summarize(t, summarize, want):
    assert fmt(t, summarize) == want


def test_large_3d_summary():
    got = fmt(R(1000, [10, 10, 10]))
    blocks = got.split("\n\n")
    assert len(blocks) == 7 and blocks[3] == " ..."
    assert blocks[0] == ("[[[0 1 2 ... 7 8 9]\n  [10 11 12 ... 17 18 19]\n  [20 21 22 ... 27 28 29]\n  ...\n"
                         "  [70 71 72 ... 77 78 79]\n  [80 81 82 ... 87 88 89]\n  [90 91 92 ... 97 98 99]]")
    assert blocks[-1].endswith("[990 991 992 ... 997 998 999]]]")


@pytest.mark.parametrize("shape,summarize,want", [
    ([0], 3, "[]"), ([0], -1, "[]"), ([0, 2], 3, "[]"), ([0, 0], 3, "[]"),
    ([2, 0], 3, "[\n ...]"), ([1, 0], 100, "[\n ...]"), ([2, 0], -1, "[]"),
    ([2, 3, 0], 3, "[\n\n ...]"), ([3, 0, 2], 3, "[\n\n ...]"), ([3, 0, 2], -1, "[]"),
])
def test_empty_tensors(shape, summarize, want):
    assert fmt(tf.zeros(shape), summarize) == want


# --- tf.print: Python values, structures, sep/end ----------------------------------------------

def test_print_python_values_and_tensors(capsys):
    x = tf.constant([1, 2])
    assert printed(capsys, "a", 1, 2.5, True, None, x) == "a 1 2.5 True None [1 2]\n"
    assert printed(capsys, "a", x, sep=",", end="|\n") == "a,[1 2]|\n"
    assert printed(capsys, "a", x, sep="") == "a[1 2]\n"
    assert printed(capsys, 1, 2, sep="\n") == "1\n2\n"
    assert printed(capsys, x, end="") == "[1 2]"
    assert printed(capsys) == "\n"
    assert printed(capsys, 1.1) == "1.1\n"
    assert printed(capsys, 1e-5) == "1e-05\n"
    assert printed(capsys, 2 ** 70) == "1180591620717411303424\n"
    assert printed(capsys, b"x") == "b'x'\n"
    assert printed(capsys, 1 + 2j) == "(1+2j)\n"
    assert printed(capsys, np.array([1, 2, 3])) == "array([1, 2, 3])\n"  # NumPy values are not tensors


def test_print_nested_structures(capsys):
    x, y = tf.constant([1, 2]), tf.constant(1.5)
    assert printed(capsys, [x, 1, "s"]) == "[[1 2], 1, 's']\n"
    assert printed(capsys, (x, y)) == "([1 2], 1.5)\n"
    assert printed(capsys, {"b": x, "a": y}) == "{'a': 1.5, 'b': [1 2]}\n"  # keys sorted, like tf.nest
    assert printed(capsys, {"b": 1, "a": 2}) == "{'a': 2, 'b': 1}\n"
    assert printed(capsys, {"k": [x, {"z": 3}]}) == "{'k': [[1 2], {'z': 3}]}\n"
    assert printed(capsys, {1: x, 0: "q"}) == "{0: 'q', 1: [1 2]}\n"
    assert printed(capsys, collections.OrderedDict([("b", x), ("a", 1)])) == "OrderedDict([('b', [1 2]), ('a', 1)])\n"
    P = collections.namedtuple("P", "u v")
    assert printed(capsys, P(x, 2)) == "P(u=[1 2], v=2)\n"
    assert printed(capsys, ["s", x], "s") == "['s', [1 2]] s\n"
    assert printed(capsys, [[x]]) == "[[[1 2]]]\n"
    assert printed(capsys, [], (), {}) == "[] () {}\n"
    assert printed(capsys, ("t",), [None, True]) == "('t',) [None, True]\n"


def test_print_summarize_applies_to_every_tensor(capsys):
    a, b = tf.constant([10, 20, 30, 40, 50, 60, 70]), tf.constant([1, 2, 3, 4, 5, 6, 7])
    assert printed(capsys, a, [b], summarize=2) == "[10 20 ... 60 70] [[1 2 ... 6 7]]\n"
    assert printed(capsys, tf.range(10), summarize=None) == "[0 1 2 ... 7 8 9]\n"
    assert printed(capsys, tf.range(10), summarize=-1) == "[0 1 2 3 4 5 6 7 8 9]\n"


def test_print_strings(capsys):
    # A lone string (Python or scalar string tensor) prints raw; among other inputs it is quoted.
    assert printed(capsys, tf.constant("hello")) == "hello\n"
    assert printed(capsys, tf.constant("hel\nlo"), end="|\n") == "hel\nlo|\n"
    assert printed(capsys, tf.constant("hi"), sep="X", end="E\n") == "hiE\n"
    assert printed(capsys, "plain", end="E\n") == "plainE\n"
    assert printed(capsys, "a", tf.constant("hello")) == 'a "hello"\n'
    assert printed(capsys, tf.constant("hi"), tf.constant("ho")) == '"hi" "ho"\n'
    assert printed(capsys, tf.constant(["hi"])) == '["hi"]\n'
    assert printed(capsys, [tf.constant("hi")]) == '["hi"]\n'
    assert printed(capsys, tf.constant("a"), tf.constant(["b"]), sep=",") == '"a",["b"]\n'


def test_placeholder_text_in_user_strings_is_literal(capsys):
    x = tf.constant([1, 2])
    assert printed(capsys, "{}") == "{}\n"
    assert printed(capsys, "{}", x) == "{} [1 2]\n"
    assert printed(capsys, "x{}y", sep="") == "x{}y\n"
    assert printed(capsys, "%s", x) == "%s [1 2]\n"
    assert printed(capsys, "\\{}", x) == "\\{} [1 2]\n"
    assert printed(capsys, "{", x, "}", sep="") == "{[1 2]}\n"
    assert printed(capsys, "{}", tf.constant("{}")) == '{} "{}"\n'


def test_print_variable(capsys):
    assert printed(capsys, tf.Variable([1.0, 2.0])) == "[1 2]\n"


# --- output streams ------------------------------------------------------------------------------

def test_output_streams(capsys, tmp_path):
    tf.print("to out", tf.constant(1), output_stream=sys.stdout)
    tf.print("to err", output_stream=sys.stderr)
    out, err = capsys.readouterr()
    assert (out, err) == ("to out 1\n", "to err\n")
    path = tmp_path / "log.txt"
    tf.print("to file", tf.range(3), output_stream="file://" + str(path))
    tf.print("again", output_stream="file://" + str(path))
    assert path.read_text() == "to file [0 1 2]\nagain\n"
    assert capsys.readouterr() == ("", "")


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"Unsupported output stream, logging level, or file.bogus. Supported"):
        tf.print("a", output_stream="bogus")
    with pytest.raises(ValueError, match=r"Unrecognized keyword arguments for tf.print: \{'foo': 1\}"):
        tf.print("a", foo=1)


# --- tf.strings.format ---------------------------------------------------------------------------

def test_strings_format():
    x, y = tf.constant([1, 2]), tf.constant(1.5)
    assert tf.strings.format("{} and {}", [x, y]).numpy() == b"[1 2] and 1.5"
    assert tf.strings.format("{}", x).numpy() == b"[1 2]"
    assert tf.strings.format("x={}", tf.range(10), summarize=2).numpy() == b"x=[0 1 ... 8 9]"
    assert tf.strings.format("x=%", [x], placeholder="%").numpy() == b"x=[1 2]"
    assert tf.strings.format("x", []).numpy() == b"x"
    assert tf.strings.format("{}{}", [tf.constant(1), tf.constant(2)]).numpy() == b"12"
    assert tf.strings.format("{}", [[1, 2]]).numpy() == b"[1 2]"
    assert tf.strings.format("{}", tf.constant([[1.5, 2], [3, 4]], tf.float64)).numpy() == b"[[1.5 2]\n [3 4]]"
    r = tf.strings.format("{}", x)
    assert r.dtype == tf.string and r.shape == ()


def test_strings_format_errors():
    x = tf.constant([1, 2])
    with pytest.raises(ValueError, match=r"^The template expects 2 tensors, but the inputs only has 1\. Please "
                                         r"ensure the number of placeholders in template matches inputs length\.$"):
        tf.strings.format("{} {}", [x])
    with pytest.raises(ValueError, match="The template expects 1 tensors, but the inputs only has 2"):
        tf.strings.format("{}", [x, x])
    from eagerflow.ops import _execute
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"num placeholders in template and num inputs must match: 0 vs\. 1"):
        _execute.execute1("StringFormat", [x], {"template": "{} {}"})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input is expected to be scalar, but got \[2\]"):
        _execute.execute("PrintV2", [tf.constant(["a", "b"])], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a string tensor but is a int32 tensor"):
        _execute.execute("PrintV2", [tf.constant(1)], {})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Unknown output stream: bogus, Valid streams are: stdout stderr log\(info\)"):
        _execute.execute("PrintV2", [tf.constant("x")], {"output_stream": "bogus"})


# --- inside tf.function ----------------------------------------------------------------------------

def test_eager_and_graph_print_the_same(capsys):
    args = lambda x: ("y", x * 2, [x, {"k": x * 2}], 7, tf.constant("s"))  # noqa: E731
    for value in ([1.5, 2.0], np.arange(20.0, dtype=np.float32), 3):
        x = tf.constant(value)
        capsys.readouterr()
        tf.print(*args(x), summarize=2)
        eager = capsys.readouterr().err

        @tf.function
        def f(x):
            tf.print(*args(x), summarize=2)

        f(x)
        assert capsys.readouterr().err == eager
    assert eager == 'y 6 [3, {\'k\': 6}] 7 "s"\n'


def test_function_prints_every_call_and_python_print_only_on_trace(capsys):
    @tf.function
    def step(x):
        print("python print:", x)
        tf.print("tf print:", x)
        return x + 1

    for i in range(3):
        step(tf.constant(float(i)))
    out, err = capsys.readouterr()
    assert out == 'python print: Tensor("x:0", shape=(), dtype=float32)\n'
    assert err == "tf print: 0\ntf print: 1\ntf print: 2\n"


def test_print_with_python_argument_and_no_return_value(capsys):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)

    assert f(1) is None
    f(1)
    f(2)
    out, err = capsys.readouterr()
    assert out == "Traced with 1\nTraced with 2\n"
    assert err == "Executed with 1\nExecuted with 1\nExecuted with 2\n"


def test_prints_run_in_program_order(capsys):
    @tf.function
    def f(x):
        y = x * 10
        tf.print("first", x)
        tf.print("second", y, output_stream=sys.stdout)
        tf.print("third")
        unused = y + 1  # noqa: F841  (pruned; the prints still run)
        tf.print("fourth", output_stream=sys.stdout)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    out, err = capsys.readouterr()
    assert err == "first 1\nthird\nfirst 2\nthird\n"
    assert out == "second 10\nfourth\nsecond 20\nfourth\n"

    @tf.function
    def g():
        for i in range(5):
            tf.print("line", i, output_stream=sys.stdout)

    g()
    assert capsys.readouterr().out == "".join(f"line {i}\n" for i in range(5))


def test_print_ordered_with_variable_assignments(capsys):
    v = tf.Variable(1)

    @tf.function
    def f(x):
        tf.print("a", x)
        tf.print(v)
        v.assign(5)
        tf.print(v)
        v.assign_add(x)
        tf.print("b", v.read_value())

    f(tf.constant(2))
    f(tf.constant(3))
    assert capsys.readouterr().err == "a 2\n1\n5\nb 7\na 3\n7\n5\nb 8\n"


def test_print_in_graph_returns_its_operation():
    captured = {}

    @tf.function
    def f():
        captured["op"] = tf.print("x", tf.constant(1), name="myprint")
        captured["plain"] = tf.print("y")

    graph = f.get_concrete_function().graph
    op = captured["op"]
    assert isinstance(op, tf.Operation) and op.type == "PrintV2" and op.name == "myprint"
    names = [o.name for o in graph.get_operations()]
    assert "myprint_format" in names and "PrintV2" in names
    assert graph.get_operation_by_name("myprint_format").type == "StringFormat"
    assert captured["plain"].type == "PrintV2"


def test_nested_function_prints(capsys):
    @tf.function
    def inner(x):
        tf.print("inner", x)
        return x + 1

    @tf.function
    def outer(x):
        tf.print("outer", x)
        return inner(x)

    outer(tf.constant(1))
    outer(tf.constant(5))
    assert capsys.readouterr().err == "outer 1\ninner 1\nouter 5\ninner 5\n"


def test_run_functions_eagerly_prints_too(capsys):
    @tf.function
    def f(x):
        tf.print("v", x)

    from eagerflow.function.polymorphic_function import run_functions_eagerly
    run_functions_eagerly(True)
    try:
        f(tf.constant(4))
    finally:
        run_functions_eagerly(False)
    assert capsys.readouterr().err == "v 4\n"


def test_function_printing_from_another_thread(capsys):
    import threading

    @tf.function
    def f(x):
        tf.print("thread", x)

    f(tf.constant(0))
    t = threading.Thread(target=lambda: [f(tf.constant(i)) for i in range(1, 4)])
    t.start()
    t.join()
    assert capsys.readouterr().err == "thread 0\nthread 1\nthread 2\nthread 3\n"


def test_huge_summarize_and_huge_empty_dims():
    # Found by the ASan/UBSan run: 2 * summarize and the row strides of an empty tensor overflowed.
    assert fmt(tf.reshape(tf.range(6), [2, 3]), summarize=2 ** 62) == "[[0 1 2]\n [3 4 5]]"
    assert fmt(tf.zeros([0, 2 ** 40, 2 ** 40]), summarize=3) == "[]"
