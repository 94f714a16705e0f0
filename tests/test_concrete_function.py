"""ConcreteFunction: get_concrete_function from tensors, TensorSpecs and Python values, calls,
printed signatures, structured signatures and every call error (the guide's F-09..F-21)."""
import collections

import numpy as np
import pytest

import eagerflow as tf


def _double():
    @tf.function
    def double(a):
        return a + a
    double(tf.constant(1))
    double(tf.constant(1.1))
    double(tf.constant("a"))
    return double


def _pow():
    @tf.function
    def pow(a, b):
        return a ** b
    return pow, pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)


# --- printed forms -----------------------------------------------------------------------------------

def test_pretty_printed_concrete_signatures():
    double = _double()
    sig = "double(a)\n  Args:\n    a: {0} Tensor, shape=()\n  Returns:\n    {0} Tensor, shape=()"
    assert double.pretty_printed_concrete_signatures() == "\n\n".join(sig.format(d) for d in
                                                                        ["int32", "float32", "string"])
    assert double.pretty_printed_concrete_signatures(verbose=False) == "double(a)\ndouble(a)\ndouble(a)"


def test_print_concrete_function():
    double = _double()
    cf = double.get_concrete_function(tf.constant("b"))
    assert str(cf) == ("ConcreteFunction double(a)\n  Args:\n    a: string Tensor, shape=()\n  Returns:\n"
                       "    string Tensor, shape=()")
    # str() keeps TF 2.11's form, which the guide shows; repr() is TF 2.21's.
    assert repr(cf).startswith("<ConcreteFunction (a: TensorSpec(shape=(), dtype=tf.string, name=None)) -> "
                               "TensorSpec(shape=(), dtype=tf.string, name=None) at 0x")
    _, square = _pow()
    assert str(square) == ("ConcreteFunction pow(a, b=2)\n  Args:\n    a: float32 Tensor, shape=<unknown>\n"
                           "  Returns:\n    float32 Tensor, shape=<unknown>")


def test_printed_signature_of_structures_keywords_and_none():
    @tf.function
    def f(x, pair, *, scale=2.0, flag=True):
        return {"y": x * scale, "n": None}

    cf = f.get_concrete_function(tf.TensorSpec([None, 3]), (tf.constant(1), tf.TensorSpec([], tf.string)))
    assert str(cf) == (
        "ConcreteFunction f(x, pair, *, scale=2.0, flag=True)\n"
        "  Args:\n"
        "    x: float32 Tensor, shape=(None, 3)\n"
        "    pair: (<1>, <2>)\n"
        "      <1>: int32 Tensor, shape=()\n"
        "      <2>: string Tensor, shape=()\n"
        "  Returns:\n"
        "    {'n': <1>, 'y': <2>}\n"
        "      <1>: NoneTensorSpec()\n"
        "      <2>: float32 Tensor, shape=(None, 3)")


def test_structured_input_signature_and_outputs():
    double = _double()
    cf = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
    assert repr(cf.structured_input_signature) == "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})"
    assert str(cf.structured_outputs) == 'Tensor("Identity:0", shape=(), dtype=string)'
    _, square = _pow()
    assert repr(square.structured_input_signature) == (
        "((TensorSpec(shape=<unknown>, dtype=tf.float32, name='a'), 2), {})")

    P = collections.namedtuple("P", "u v")

    @tf.function
    def g(p, d, *rest, k=1, **extra):
        return p.u

    cf = g.get_concrete_function(P(tf.constant(1.0), 3), {"z": tf.constant([1, 2])}, 7, k=tf.constant(2), w="s")
    args, kwargs = cf.structured_input_signature
    assert args == (P(tf.TensorSpec([], tf.float32, "p"), 3), {"z": tf.TensorSpec([2], tf.int32, "d")}, 7)
    assert kwargs == {"k": tf.TensorSpec([], tf.int32, "k"), "w": "s"}


# --- get_concrete_function -------------------------------------------------------------------------

def test_get_concrete_function_reuses_traces():
    double = _double()
    n = double.experimental_get_tracing_count()
    cf = double.get_concrete_function(tf.constant("a"))
    assert double.get_concrete_function(tf.TensorSpec([], tf.string)) is cf
    assert double.experimental_get_tracing_count() == n
    assert cf(tf.constant("a")).numpy() == b"aa"
    assert cf(a=tf.constant("b")).numpy() == b"bb"
    assert double.get_concrete_function(tf.TensorSpec([2], tf.string)) is not cf
    assert double.experimental_get_tracing_count() == n + 1


def test_get_concrete_function_with_python_values():
    pow, square = _pow()
    assert square(tf.constant(10.0)).numpy() == 100.0
    assert square(a=tf.constant([2.0, 3.0])).numpy().tolist() == [4.0, 9.0]
    assert square(tf.constant(3.0), b=2).numpy() == 9.0  # the traced value may be passed again
    assert square(tf.constant(3.0), 2).numpy() == 9.0
    cube = pow.get_concrete_function(tf.TensorSpec([], tf.float32), 3)
    assert cube(tf.constant(2.0)).numpy() == 8.0
    assert pow(tf.constant(2.0), 3).numpy() == 8.0


def test_concrete_function_with_input_signature():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(x):
        return x + 1

    cf = f.get_concrete_function()
    assert str(cf) == ("ConcreteFunction f(x)\n  Args:\n    x: int32 Tensor, shape=(None,)\n  Returns:\n"
                       "    int32 Tensor, shape=(None,)")
    np.testing.assert_array_equal(cf(tf.constant([1, 2])).numpy(), [2, 3])


# --- call errors ---------------------------------------------------------------------------------

def test_python_value_mismatch():
    _, square = _pow()
    with pytest.raises(TypeError) as e:
        square(tf.constant(10.0), b=3)
    assert str(e.value) == "ConcreteFunction pow(a, b) was constructed with int value 2 in b, but was called with int value 3."
    # as in TF, the flat-signature attempt is the context
    assert str(e.value.__context__) == "pow(a) got unexpected keyword arguments: b."
    with pytest.raises(TypeError, match=r"^ConcreteFunction pow\(a, b\) was constructed with int value 2 in b, but was "
                                        r"called with float value 2\.5\.$"):
        square(tf.constant(10.0), 2.5)


def test_python_value_where_a_tensor_is_expected():
    _, square = _pow()
    with pytest.raises(TypeError) as e:
        square(10.0)
    assert str(e.value) == "pow(a, b) expected a Tensor in a, but got float value 10.0."
    assert str(e.value.__context__) == "pow(a): expected argument #0(zero-based) to be a Tensor; got float (10.0)."


def test_argument_count_and_names():
    _, square = _pow()
    with pytest.raises(TypeError, match=r"^pow\(a, b\) missing required arguments: a\.$"):
        square()
    with pytest.raises(TypeError, match=r"^pow\(a, b\) got unexpected keyword arguments: c, d\.$"):
        square(tf.constant(1.0), d=1, c=2)
    with pytest.raises(TypeError, match=r"^pow\(a, b\) takes 2 positional arguments but 3 were given\.$"):
        square(tf.constant(1.0), 2, 3)
    with pytest.raises(TypeError, match=r"^pow\(a, b\) got two values for argument 'a'\.$"):
        square(tf.constant(1.0), a=tf.constant(1.0))


def test_structure_mismatch():
    @tf.function
    def f(pair):
        return pair[0] + pair[1]

    cf = f.get_concrete_function([tf.constant(1), tf.constant(2)])
    assert cf([tf.constant(3), tf.constant(4)]).numpy() == 7
    with pytest.raises(TypeError, match=r"^f\(pair\): argument pair had incorrect type\n  expected: \[Tensor, Tensor\]\n"
                                        r"       got: \[EagerTensor\]$"):  # the value's class name, as TF
        cf([tf.constant(3)])
    with pytest.raises(TypeError, match="argument pair had incorrect type"):
        cf((tf.constant(3), tf.constant(4)))
    assert cf(pair_1=tf.constant(1), pair=tf.constant(2)).numpy() == 3  # the flat signature: placeholder names


def test_wrong_dtype_and_shape():
    double = _double()
    double_strings = double.get_concrete_function(tf.constant("a"))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^cannot compute __inference_double as input #0\(zero-based\) was expected to be a "
                             r"string tensor but is a int32 tensor \[Op:__inference_double\]$"):
        double_strings(tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"as input #0\(zero-based\) was expected to have shape "
                                                              r"\(\) but has shape \(2,\)"):
        double_strings(tf.constant(["a", "b"]))


def test_guide_input_signature_example():
    """The guide's F-10: a fixed signature traces once and rejects other ranks and dtypes."""
    traces = []

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        traces.append(str(x))
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    np.testing.assert_array_equal(next_collatz(tf.constant([1, 2])).numpy(), [4, 1])
    assert traces == ['Tensor("x:0", shape=(None,), dtype=int32)']
    with pytest.raises(ValueError, match=r"^Python inputs incompatible with input_signature:\n  inputs: \(\n    tf.Tensor\("):
        next_collatz(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match=r"\n  input_signature: \(\n    TensorSpec\(shape=\(None,\), dtype=tf.int32, "
                                         r"name=None\)\)\.$"):
        next_collatz(tf.constant([1.0, 2.0]))


def test_variables_and_captured_inputs_list_the_variables_read():
    v = tf.Variable(2.0)
    frozen = tf.Variable(1.0, trainable=False)

    @tf.function
    def scale(x):
        return v * x + frozen

    cf = scale.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert cf.variables == (v, frozen) and cf.trainable_variables == (v,)
    assert [t.dtype for t in cf.captured_inputs] == [tf.resource, tf.resource]
    v.assign(4.0)
    assert cf(tf.constant(3.0)).numpy() == 13.0


def test_input_signature_of_a_method_leaves_out_self():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0], [2.0]])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return x @ self.w

    m = Model()
    assert m(tf.constant([[1.0, 1.0]])).numpy().tolist() == [[3.0]]
    assert repr(m.__call__.get_concrete_function().structured_input_signature) == (
        "((TensorSpec(shape=(None, 2), dtype=tf.float32, name='x'),), {})")
