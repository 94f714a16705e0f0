"""Bad input reaches the user as TF's exception class, never as an error of the implementation
(pybind11 cast errors, RuntimeError, OverflowError, AttributeError of symbolic tensors)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."


# ---- op names ----

def test_eager_ops_ignore_their_name():
    assert tf.add(1, 2, name=7).numpy() == 3
    assert tf.reduce_sum([1, 2], name=[1]).numpy() == 3


def test_graph_op_names_must_be_text_and_valid_scopes():
    with pytest.raises(TypeError, match="expected string or bytes-like object, got 'int'"):
        tf.function(lambda: tf.add(1, 2, name=7))()
    with pytest.raises(TypeError, match="expected string or bytes-like object, got 'list'"):
        tf.function(lambda: tf.reduce_sum([1, 2], name=[1]))()
    with pytest.raises(ValueError, match="'a b' is not a valid root scope name"):
        tf.function(lambda: tf.add(1, 2, name="a b"))()
    assert tf.function(lambda: tf.add(1, 2, name=b"x"))().numpy() == 3


# ---- integers beyond int64 ----

@pytest.mark.parametrize("index", [lambda t: t[2 ** 63], lambda t: t[1:2 ** 63], lambda t: t[-2 ** 63 - 1],
                                   lambda t: t[::2 ** 63], lambda t: t[2 ** 63:]])
def test_huge_python_indices_are_value_errors(index):
    with pytest.raises(ValueError, match=OUT_OF_RANGE):
        index(tf.range(5))


def test_huge_python_ints_in_inputs_and_attrs_are_value_errors():
    with pytest.raises(ValueError, match=OUT_OF_RANGE):
        tf.linspace(0.0, 1.0, 2 ** 70)
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.linspace(0.0, 1.0, 2 ** 40)  # int64 num: the allocation fails, not the conversion
    # Int attrs (TF itself raises OverflowError for the first two).
    for call in (lambda: tf.squeeze([[1]], axis=2 ** 70), lambda: tf.print(1, summarize=2 ** 70),
                 lambda: tf.split([1, 2], 2 ** 70), lambda: tf.unstack([1, 2], num=2 ** 70)):
        with pytest.raises(ValueError, match="int too big to convert"):
            call()
    tf.random.set_seed(2 ** 70)  # TF keeps any int seed
    assert tf.random.uniform([2]).shape == (2,)
    tf.random.set_seed(None)


def test_axis_of_softmax_out_of_range_before_int_conversion():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received: dim=inf"):
        tf.nn.softmax([1.0], float("inf"))


def test_binding_cast_errors_are_type_errors():
    # A value a binding cannot take reaches Python as TypeError (the translator's safety net).
    saved = _core.get_optimizer_options()
    try:
        with pytest.raises(TypeError, match="Unable to cast"):
            _core.set_optimizer_options({1: True})
    finally:
        _core.set_optimizer_options(saved)
    with pytest.raises(TypeError, match="Expected float32, but got \ud800 of type 'str'"):
        tf.function(lambda: tf.less(float("inf"), "\ud800"))()


# ---- symbolic tensors and variables have no NumPy value while tracing ----

def test_symbolic_tensor_to_numpy_is_not_implemented():
    msg = (r"Cannot convert a symbolic tf.Tensor \(x:0\) to a numpy array. This error may indicate that you're "
           r"trying to pass a Tensor to a NumPy call, which is not supported.")
    for fn in (lambda x: x.__array__(), lambda x: np.asarray(x), lambda x: np.array(x)):
        with pytest.raises(NotImplementedError, match=msg):
            tf.function(fn)(tf.constant([1.0]))


def test_symbolic_tensor_is_not_a_python_number():
    with pytest.raises(TypeError, match="int\\(\\) argument must be .* not 'SymbolicTensor'"):
        tf.function(lambda x: int(x))(tf.constant(1))
    with pytest.raises(TypeError, match="float\\(\\) argument must be .* not 'SymbolicTensor'"):
        tf.function(lambda x: float(x))(tf.constant(1.0))
    with pytest.raises(TypeError, match="complex\\(\\) first argument must be .* not 'SymbolicTensor'"):
        tf.function(lambda x: complex(x))(tf.constant(1.0))
    with pytest.raises(TypeError, match="unsupported format string passed to SymbolicTensor.__format__"):
        tf.function(lambda x: format(x, ".2f"))(tf.constant(1.0))


def test_variables_while_tracing():
    v = tf.Variable([1.0, 2.0])
    for fn in (lambda: v.numpy(), lambda: np.asarray(v), lambda: np.array([1, 2])[tf.Variable(1)]):
        with pytest.raises(NotImplementedError, match="numpy\\(\\) is only available when eager execution"):
            tf.function(fn)()
    assert tf.function(lambda: tf.constant(repr(v)))().numpy() == b"<tf.Variable 'Variable:0' shape=(2,) dtype=float32>"
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`"):
        tf.function(lambda: tf.cast(1, v))()


def _bool_in_helper(x):
    return bool(x)


@pytest.mark.parametrize("autograph", [True, False])
def test_bool_of_symbolic_tensor_keeps_its_class_through_autograph(autograph):
    @tf.function(autograph=autograph)
    def f(x):
        return _bool_in_helper(x)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="as a Python `bool` is not allowed") as e:
        f(tf.constant(True))
    assert type(e.value) is tf.errors.OperatorNotAllowedInGraphError

    @tf.function(autograph=autograph)
    def g(x):
        y = bool(x)
        return y

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as e:
        g(tf.constant(True))
    assert type(e.value) is tf.errors.OperatorNotAllowedInGraphError


# ---- assert_rank with a tensor rank ----

def test_assert_rank_with_tensor_rank_inside_function():
    def f(x, r=None):
        tf.debugging.assert_rank(x, tf.constant(1) if r is None else r)
        return x

    assert tf.function(f)(tf.constant([1.0])).numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match=r"Tensor x:0 must have rank 2.  Received rank 1, shape \(1,\)"):
        tf.function(lambda x: tf.debugging.assert_rank(x, tf.constant(2)))(tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Tensor x:0 must have rank\] \[2\]"):
        tf.function(f)(tf.constant([1.0]), tf.constant(2))  # a rank known only at run time
    assert tf.function(f)(tf.constant([1.0]), tf.constant(1)).shape == (1,)
    with pytest.raises(ValueError, match="Rank must be a scalar."):
        tf.function(lambda x: tf.debugging.assert_rank(x, tf.constant([1])))(tf.constant([1.0]))
    with pytest.raises(ValueError, match="Rank must be a scalar."):
        tf.debugging.assert_rank(tf.constant([1.0]), [1])
    with pytest.raises(TypeError, match="tensor must be of type tf.int32; got tf.float32"):
        tf.debugging.assert_rank(tf.constant([1.0]), 1.5)


def test_strings_format_template_must_be_text():
    with pytest.raises(TypeError, match="Expected string for argument 'template'"):
        tf.strings.format(1, [1])


def test_tensor_spec_with_values_that_are_not_tensors():
    spec = tf.TensorSpec([2])
    for value in (1, 2 ** 63, "a", [1.0, 2.0], None, tf.TensorShape([2]), np.array([1.0, 2.0], np.float32),
                  tf.Variable([1.0, 2.0])):
        assert spec.is_compatible_with(value) is False
    assert spec.is_compatible_with(tf.constant([1.0, 2.0])) and spec.is_compatible_with(tf.TensorSpec([None]))
    with pytest.raises(ValueError, match="`tensor` should be a tf.Tensor, but got type <class 'int'>."):
        tf.TensorSpec.from_tensor(-1)
