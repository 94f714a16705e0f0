"""tf.debugging: asserts eagerly and inside tf.function, Assert, check_numerics, enable_check_numerics."""
import re

import numpy as np
import pytest

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError


def test_assert_equal_passes_and_returns_none():
    assert tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2])) is None
    assert tf.debugging.assert_equal(1, 1) is None


def test_assert_equal_eager_message():
    with pytest.raises(IAE) as e:
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))
    assert str(e.value) == ("Condition x == y did not hold.\nIndices of first 1 different values:\n[[1]]\n"
                            "Corresponding x values:\n[2]\nCorresponding y values:\n[3]\nFirst 2 elements of x:\n"
                            "[1 2]\nFirst 2 elements of y:\n[1 3]")


def test_assert_equal_with_message():
    with pytest.raises(IAE) as e:
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="msg")
    assert str(e.value).startswith("msg\nCondition x == y did not hold.\n")


def test_assert_equal_incompatible_shapes():
    with pytest.raises(IAE, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        tf.debugging.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))


def test_assert_less_and_greater():
    with pytest.raises(IAE) as e:
        tf.debugging.assert_less(tf.constant([1, 2]), tf.constant([1, 3]))
    assert str(e.value).startswith("Condition x < y did not hold.\nIndices of first 1 different values:\n[[0]]\n")
    with pytest.raises(IAE, match="Condition x > y did not hold."):
        tf.debugging.assert_greater(tf.constant([1, 2]), tf.constant([0, 3]))
    assert tf.debugging.assert_less(tf.constant([1.0]), 2.0) is None
    assert tf.assert_greater(tf.constant([3]), 2) is None


def test_assert_non_negative_and_positive():
    with pytest.raises(IAE) as e:
        tf.debugging.assert_non_negative(tf.constant([1, -2]))
    assert str(e.value) == "\nCondition x >= 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['1', '-2']"
    with pytest.raises(IAE) as e:
        tf.debugging.assert_positive(tf.constant([1, 0]))
    assert str(e.value) == "\nCondition x > 0 did not hold element-wise:\nx (shape=(2,) dtype=int32) = \n['1', '0']"
    assert tf.debugging.assert_positive(tf.constant([1.0, 2.0])) is None


def test_assert_rank():
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_rank(tf.constant([1, 2]), 2)
    assert str(e.value) == "Tensor  must have rank 2.  Received rank 1, shape (2,)"
    assert tf.debugging.assert_rank(tf.constant([1, 2]), 1) is None


def test_assert_shapes():
    assert tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "D")), (tf.ones([3]), ("D",))]) is None
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "D")), (tf.ones([2]), ("D",))])
    assert str(e.value) == ("Specified by tensor shape=(2, 3) dtype=float32 dimension 1.  Tensor shape=(2,) "
                            "dtype=float32 dimension 0 must have size 3.  Received size 2, shape (2,)")


def test_eager_Assert():
    with pytest.raises(IAE) as e:
        tf.debugging.Assert(tf.constant(False), [tf.constant([1, 2]), "hello"])
    assert str(e.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 1, 2\n"
                            "b'hello'")
    assert tf.debugging.Assert(tf.constant(True), [1]) is None


def test_asserts_inside_function_raise_at_call_time():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        tf.debugging.assert_equal(x, 1, message="xx")
        tf.debugging.assert_less(x, 5)
        return x + 1

    assert f(tf.constant(1)).numpy() == 2
    with pytest.raises(IAE) as e:
        f(tf.constant(2))
    msg = str(e.value)
    assert "assertion failed: [xx] [Condition x == y did not hold element-wise:] [x (x:0) = ] [2]" in msg
    assert len(traces) == 1  # the assert is a graph op: no retrace, it raises when the graph runs


def test_graph_Assert_message():
    @tf.function
    def g(x):
        tf.debugging.Assert(x > 0, [x])
        return x

    assert g(tf.constant(3)).numpy() == 3
    with pytest.raises(IAE, match=r"assertion failed: \[-1\]"):
        g(tf.constant(-1))


def test_check_numerics():
    assert tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "m").numpy().tolist() == [1.0, 2.0]
    with pytest.raises(IAE, match="bad value : Tensor had NaN values"):
        tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad value")
    with pytest.raises(IAE, match="bad value : Tensor had Inf values"):
        tf.debugging.check_numerics(tf.constant([1.0, np.inf]), "bad value")

    @tf.function
    def h(x):
        return tf.debugging.check_numerics(tf.math.log(x), "logmsg")

    assert h(tf.constant(1.0)).numpy() == 0.0
    with pytest.raises(IAE, match="logmsg : Tensor had NaN values"):
        h(tf.constant(-1.0))


def test_enable_check_numerics():
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(IAE) as e:
            tf.math.log(tf.constant(-1.0))
        msg = str(e.value)
        assert ('!!! Detected Infinity or NaN in output 0 of eagerly-executing op "Log" (# of outputs: 1) !!!'
                in msg)
        assert "  Input tensor: tf.Tensor(-1.0, shape=(), dtype=float32)" in msg
        assert "Tensor had NaN values" in msg
        with pytest.raises(IAE) as e:
            tf.constant(1.0) / tf.constant(0.0)
        assert "# of +Inf elements: 1" in str(e.value) and "Tensor had +Inf values" in str(e.value)
        assert (tf.constant([1.0, 2.0]) * 2).numpy().tolist() == [2.0, 4.0]
        assert (tf.constant([1, 2]) // 1).numpy().tolist() == [1, 2]

        @tf.function
        def k(x):
            y = tf.math.log(x)
            return y * 2

        assert k(tf.constant(1.0)).numpy() == 0.0
        with pytest.raises(IAE) as e:
            k(tf.constant(-1.0))
        assert '!!! Detected Infinity or NaN in output 0 of graph op "Log" (# of outputs: 1) !!!' in str(e.value)
    finally:
        tf.debugging.disable_check_numerics()
    assert np.isnan(tf.math.log(tf.constant(-1.0)).numpy())


def test_graph_Assert_summarizes_like_tf():
    @tf.function
    def g(c, a, b, s, z):
        tf.debugging.Assert(c, [a, "str", b, s, z])
        return c

    with pytest.raises(IAE, match=re.escape("assertion failed: [-1 2 3...] [str] [[1 2][3...]...] [1 0] "
                                            "[[[0 0][0...]]...]")):
        g(tf.constant(False), tf.constant([-1, 2, 3, 4, 5]), tf.constant([[1, 2], [3, 4]]),
          tf.constant([True, False]), tf.zeros([2, 2, 2]))
    with pytest.raises(IAE, match=re.escape("assertion failed: [1.5 2.25 1e+10...]")):
        tf.function(lambda x: tf.debugging.Assert(False, [x]))(tf.constant([1.5, 2.25, 1e10, 1e-7]))


def test_assert_in_function_is_stateful_even_if_unused():
    @tf.function
    def f(x):
        tf.debugging.assert_non_negative(x)
        return tf.constant(0)

    assert f(tf.constant([1, 2])).numpy() == 0
    with pytest.raises(IAE, match=r"Condition x >= 0 did not hold element-wise:\] \[x \(x:0\) = \] \[1 -2\]"):
        f(tf.constant([1, -2]))
