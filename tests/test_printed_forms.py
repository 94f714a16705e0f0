"""TF 2.21's printed forms: the classes of tensors and variables, ConcreteFunction.function_type and
repr(), "in user code:" errors from tracing, eager kernel errors' function_node prefix, and the
tracing decisions that raise. Expected texts are what TensorFlow 2.21 printed for the same code."""
import collections
import re

import pytest

import eagerflow as tf

F32 = "TensorSpec(shape=(), dtype=tf.float32, name=None)"
I32 = "TensorSpec(shape=(), dtype=tf.int32, name=None)"


# --- tensor and variable classes -------------------------------------------------------------------

def test_tensor_class_names():
    x = tf.constant(1)
    assert type(x).__name__ == "EagerTensor"
    assert isinstance(x, tf.Tensor) and tf.is_tensor(x)
    assert repr(x) == "<tf.Tensor: shape=(), dtype=int32, numpy=1>"
    assert type(x + 1).__name__ == "EagerTensor"
    seen = []

    @tf.function
    def f(a):
        seen.append((type(a).__name__, isinstance(a, tf.Tensor), str(a), repr(a)))
        b = a + 1
        seen.append((type(b).__name__, isinstance(b, tf.Tensor), str(b)))
        return b

    f(tf.constant(1.0))
    assert seen == [("SymbolicTensor", True, 'Tensor("a:0", shape=(), dtype=float32)',
                     "<tf.Tensor 'a:0' shape=() dtype=float32>"),
                    ("SymbolicTensor", True, 'Tensor("add:0", shape=(), dtype=float32)')]
    with tf.Graph().as_default():
        c = tf.constant(2.0)
        assert type(c).__name__ == "SymbolicTensor" and str(c) == 'Tensor("Const:0", shape=(), dtype=float32)'


def test_tensors_come_from_ops_only():
    class Sub(tf.Tensor):
        def __init__(self):
            pass

    for make in (tf.Tensor, Sub):  # an instance holding no tensor must never reach C++
        with pytest.raises(TypeError, match="No constructor defined!$"):
            make()


def test_variable_class_name():
    v = tf.Variable(1.0)
    assert type(v).__name__ == "ResourceVariable"
    assert isinstance(v, tf.Variable) and tf.is_tensor(v)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert type(v.read_value()).__name__ == "EagerTensor"
    assert type(v.assign(2.0)).__name__ == "_UnreadVariable"


def test_symbolic_and_eager_tensors_in_the_call_cache():
    # The C++ call path keys eager tensors by their exact class; a graph tensor is never fed.
    @tf.function
    def f(x):
        return x * 2

    assert f(tf.constant([1, 2])).numpy().tolist() == [2, 4]
    assert f(tf.constant([3, 4])).numpy().tolist() == [6, 8]
    assert f.experimental_get_tracing_count() == 1


# --- function_type ---------------------------------------------------------------------------------

def _ids_out(text):
    return re.sub(r"\b\d{6,}\b", "ID", text)


def test_function_type_python_values_and_defaults():
    @tf.function
    def f(x, y=2, *, z=None):
        return x + y

    ft = f.get_concrete_function(tf.constant(1.0), 2).function_type
    assert repr(ft) == ("Input Parameters:\n"
                        f"  x (POSITIONAL_OR_KEYWORD): {F32}\n"
                        "  y (POSITIONAL_OR_KEYWORD): Literal[2]\n"
                        "  z (KEYWORD_ONLY): Literal[None]\n"
                        "Output Type:\n"
                        f"  {F32}\n"
                        "Captures:\n"
                        "  None")
    assert str(ft) == f"(x: {F32}, y: Literal[2], *, z: Literal[None]) -> {F32}"
    assert [p.kind.name for p in ft.parameters.values()] == ["POSITIONAL_OR_KEYWORD"] * 2 + ["KEYWORD_ONLY"]
    assert repr(ft.parameters["y"]) == ("Parameter(name=y, kind=POSITIONAL_OR_KEYWORD, optional=False, "
                                        "type_constraint=Literal[2])")
    assert repr(ft.output) == F32 and ft.captures == {}


def test_function_type_nested_structures():
    @tf.function
    def g(d, t=(1, 2.5), s="a"):
        return {"a": d["k"][0] * 2, "b": [d["k"][1]]}

    cf = g.get_concrete_function({"k": (tf.constant([1, 2]), tf.TensorSpec([None, 3], tf.float64, name="q"))})
    assert str(cf.function_type) == (
        "(d: Dict[['k', Tuple[TensorSpec(shape=(2,), dtype=tf.int32, name=None), "
        "TensorSpec(shape=(None, 3), dtype=tf.float64, name='q')]]], t: Tuple[Literal[1], Literal[2.5]], "
        "s: Literal['a']) -> Dict[['a', TensorSpec(shape=(2,), dtype=tf.int32, name=None)], "
        "['b', List[TensorSpec(shape=(None, 3), dtype=tf.float64, name=None)]]]")


def test_function_type_varargs_kwargs_namedtuples_variables():
    @tf.function
    def va(x, *args, **kw):
        return [x, args[0]]

    ft = va.get_concrete_function(tf.constant(1), tf.constant([1.0]), 3, k=tf.constant(2)).function_type
    assert repr(ft).splitlines()[:5] == [
        "Input Parameters:",
        f"  x (POSITIONAL_ONLY): {I32}",
        "  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(1,), dtype=tf.float32, name=None)",
        "  args_1 (POSITIONAL_ONLY): Literal[3]",
        f"  k (KEYWORD_ONLY): {I32}"]
    assert str(ft).startswith(f"(x: {I32}, args_0: TensorSpec(shape=(1,), dtype=tf.float32, name=None), "
                              f"args_1: Literal[3], /, *, k: {I32}) -> List[")

    P = collections.namedtuple("P", "a b")

    @tf.function
    def nt(p, w, u):
        return p.a, None, 3

    ft = nt.get_concrete_function(P(tf.constant(1), 2), tf.Variable(3.0),
                                  tf.Variable([1, 2], trainable=False)).function_type
    assert repr(ft) == (
        "Input Parameters:\n"
        f"  p (POSITIONAL_OR_KEYWORD): P[['a', {I32}], ['b', Literal[2]]]\n"
        "  w (POSITIONAL_OR_KEYWORD): VariableSpec(shape=(), dtype=tf.float32, trainable=True, alias_id=0)\n"
        "  u (POSITIONAL_OR_KEYWORD): VariableSpec(shape=(2,), dtype=tf.int32, trainable=False, alias_id=1)\n"
        "Output Type:\n"
        f"  Tuple[{I32}, Literal[None], {I32}]\n"
        "Captures:\n"
        "  None")


def test_function_type_captures_and_no_outputs():
    v = tf.Variable(3.0)
    c = tf.constant([1.0, 2.0])

    @tf.function
    def h(x):
        v.assign_add(1.0)
        return x * c + v

    cf = h.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert _ids_out(repr(cf.function_type)) == (
        f"Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): {F32}\n"
        "Output Type:\n  TensorSpec(shape=(2,), dtype=tf.float32, name=None)\n"
        "Captures:\n  ID: TensorSpec(shape=(), dtype=tf.resource, name=None)\n"
        "  ID: TensorSpec(shape=(2,), dtype=tf.float32, name=None)")
    assert list(cf.function_type.captures)[1] == id(c)

    @tf.function
    def n(x):
        v.assign(x)

    cf = n.get_concrete_function(tf.TensorSpec(None, tf.float32))
    assert str(cf.function_type) == "(x: TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)) -> Literal[None]"

    @tf.function
    def e():
        return tf.constant(1)

    cf = e.get_concrete_function()
    assert repr(cf.function_type) == f"Input Parameters:\nOutput Type:\n  {I32}\nCaptures:\n  None"
    assert re.fullmatch(rf"<ConcreteFunction \(\) -> {re.escape(I32)} at 0x[0-9A-F]+>", repr(cf))


def test_function_type_of_a_function():
    @tf.function
    def k(a, b=3, *, c=None):
        return a

    assert str(k.function_type) == "(a, b=<captured_default_value>, *, c=<captured_default_value>)"
    assert repr(k.function_type) == ("Input Parameters:\n  a (POSITIONAL_OR_KEYWORD): None\n"
                                     "  b (POSITIONAL_OR_KEYWORD): None\n  c (KEYWORD_ONLY): None\n"
                                     "Output Type:\n  None\nCaptures:\n  None")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def sig(x):
        return {"y": x}

    assert str(sig.function_type) == "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None))"
    assert str(sig.get_concrete_function().function_type) == (
        "(x: TensorSpec(shape=(None,), dtype=tf.float32, name=None)) -> "
        "Dict[['y', TensorSpec(shape=(None,), dtype=tf.float32, name=None)]]")


def test_printed_signature_keeps_the_guides_form():
    # str(concrete function) and pretty_printed_concrete_signatures() print TF 2.11's form, which
    # the guide's examples show (TF 2.21 prints repr(function_type) after "ConcreteFunction ").
    @tf.function
    def double(a):
        return a + a

    cf = double.get_concrete_function(tf.constant(1))
    assert str(cf) == "ConcreteFunction double(a)\n  Args:\n    a: int32 Tensor, shape=()\n  Returns:\n" \
                      "    int32 Tensor, shape=()"


# --- errors while tracing: "in user code:" ---------------------------------------------------------

def _line_of(fn, text):
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def _raised(fn, *args):
    with pytest.raises(Exception) as info:
        fn(*args)
    return info.value


def _frame(fn, code, name=None):
    return '    File "%s", line %d, in %s  *\n        %s\n' % (__file__, _line_of(fn, code), name or fn.__name__, code)


def test_value_error_in_body():
    def body(x):
        raise ValueError("bad value")

    e = _raised(tf.function(body), tf.constant(1))
    assert type(e) is ValueError
    assert str(e) == "in user code:\n\n" + _frame(body, 'raise ValueError("bad value")') + \
        "\n    ValueError: bad value\n"


def _helper(x):
    return int("q")


def test_error_in_a_called_function_lists_each_frame():
    def body(x):
        y = x + 1
        return _helper(y)

    e = _raised(tf.function(body), tf.constant(1))
    assert type(e) is ValueError
    assert str(e) == ("in user code:\n\n" + _frame(body, "return _helper(y)") +
                      _frame(_helper, 'return int("q")') +
                      "\n    ValueError: invalid literal for int() with base 10: 'q'\n")


def test_type_error_from_an_op():
    def body(x):
        return x + "a"

    e = _raised(tf.function(body), tf.constant(1))
    assert type(e) is TypeError
    assert str(e) == ("in user code:\n\n" + _frame(body, 'return x + "a"') +
                      "\n    TypeError: Input 'y' of 'AddV2' Op has type string that does not match type int32 of "
                      "argument 'x'.\n")


def test_tf_errors_custom_classes_key_error_and_asserts():
    def raises_op_error(x):
        raise tf.errors.InvalidArgumentError(None, None, "custom message")

    e = _raised(tf.function(raises_op_error), tf.constant(1))
    assert type(e) is tf.errors.InvalidArgumentError
    assert e.message == str(e) == ("in user code:\n\n" +
                                   _frame(raises_op_error, 'raise tf.errors.InvalidArgumentError(None, None, '
                                                           '"custom message")') +
                                   "\n    InvalidArgumentError: custom message\n")

    class MyErr(Exception):
        pass

    def raises_custom(x):
        raise MyErr("a", "b")

    e = _raised(tf.function(raises_custom), tf.constant(1))
    assert type(e) is MyErr
    assert str(e).endswith("\n    MyErr: ('a', 'b')\n")

    def raises_key_error(x):
        return {}["missing"]

    e = _raised(tf.function(raises_key_error), tf.constant(1))
    assert isinstance(e, KeyError) and type(e).__name__ == "KeyError"
    assert str(e) == "in user code:\n\n" + _frame(raises_key_error, 'return {}["missing"]') + \
        "\n    KeyError: 'missing'\n"

    def asserts(x):
        assert False, "nope"

    e = _raised(tf.function(asserts), tf.constant(1))
    assert type(e) is AssertionError
    assert str(e) == "in user code:\n\n" + _frame(asserts, 'assert False, "nope"') + "\n    AssertionError: nope\n"


def test_other_classes_become_staging_errors():
    def body(x):
        return [][3]

    e = _raised(tf.function(body), tf.constant(1))
    assert type(e).__name__ == "StagingError" and isinstance(e, IndexError)
    assert str(e).endswith("\n    IndexError: list index out of range\n")


def test_no_rewriting_without_autograph():
    def body(x):
        raise ValueError("bad")

    e = _raised(tf.function(body, autograph=False), tf.constant(1))
    assert type(e) is ValueError and str(e) == "bad"


# --- errors while running --------------------------------------------------------------------------

CPU = "_device_/job:localhost/replica:0/task:0/device:CPU:0}} "


def test_eager_kernel_errors_name_the_wrapped_function():
    e = _raised(lambda: tf.reshape(tf.constant([1, 2]), [3, 5]))
    assert type(e) is tf.errors.InvalidArgumentError
    assert str(e) == ("{{function_node __wrapped__Reshape" + CPU +
                      "Input to reshape is a tensor with 2 values, but the requested shape has 15 [Op:Reshape]")
    e = _raised(lambda: tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0]))
    assert str(e) == "{{function_node __wrapped__AddV2" + CPU + "Incompatible shapes: [2] vs. [3] [Op:AddV2]"
    # List sizes are part of the name (TF's number attrs).
    e = _raised(lambda: tf.stack([tf.ones([2]), tf.ones([3])]))
    assert str(e).startswith("{{function_node __wrapped__Pack_N_2" + CPU + "Shapes of all inputs must match")
    e = _raised(lambda: tf.add_n([tf.ones([2]), tf.ones([3])]))
    assert str(e).startswith("{{function_node __wrapped__AddN_N_2" + CPU)
    e = _raised(lambda: tf.split(tf.ones([5]), 2))
    assert str(e).startswith("{{function_node __wrapped__Split_num_split_2" + CPU)
    e = _raised(lambda: tf.unstack(tf.ones([2, 3]), num=3))
    assert str(e).startswith("{{function_node __wrapped__Unpack_num_3" + CPU)


def test_signature_errors_have_no_function_node():
    e = _raised(lambda: tf.constant(1) + tf.constant(1.0))
    assert str(e) == ("cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a "
                      "float tensor [Op:AddV2]")


def test_graph_kernel_errors_name_the_node():
    @tf.function(input_signature=[tf.TensorSpec(None, tf.int32)])
    def f(x):
        return tf.reshape(x, [3, 5])

    e = _raised(f, tf.constant([1, 2]))
    assert type(e) is tf.errors.InvalidArgumentError
    assert "{{function_node" not in str(e) and "[[{{node Reshape}}]]" in str(e)


# --- tracing decisions -----------------------------------------------------------------------------

def test_iterating_a_symbolic_tensor_is_not_allowed():
    message = ("Iterating over a symbolic `tf.Tensor` is not allowed. You can attempt the following resolutions "
               "to the problem: If you are running in Graph mode, use Eager execution mode or decorate this "
               "function with @tf.function. If you are using AutoGraph, you can try decorating this function "
               "with @tf.function. If that does not work, then you may be using an unsupported feature or your "
               "source code may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/"
               "master/tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-source-code for "
               "more information.")

    def body(x):
        for i, v in enumerate(x):
            pass
        return x

    e = _raised(tf.function(body), tf.constant([1, 2]))
    assert type(e) is tf.errors.OperatorNotAllowedInGraphError
    assert str(e) == ("in user code:\n\n" + _frame(body, "for i, v in enumerate(x):") +
                      "\n    OperatorNotAllowedInGraphError: " + message + "\n")

    @tf.function(autograph=False)
    def unconverted(x):
        a, b = x
        return a

    e = _raised(unconverted, tf.constant([1, 2]))
    assert type(e) is tf.errors.OperatorNotAllowedInGraphError and str(e) == message
    with tf.Graph().as_default():
        e = _raised(list, tf.constant([1, 2]))
        assert str(e) == message

    @tf.function
    def converted_loop(x):  # AutoGraph makes `for` over a tensor a while loop
        s = 0
        for v in x:
            s += v
        return s

    assert converted_loop(tf.constant([1, 2])).numpy() == 3
    assert [int(v) for v in tf.constant([1, 2])] == [1, 2]  # eager tensors iterate


def test_returning_an_op_is_a_type_error():
    @tf.function
    def p(x):
        return tf.print(x)

    e = _raised(p, tf.constant(1))
    assert type(e) is TypeError
    assert re.fullmatch(r"To be compatible with tf.function, Python functions must return zero or more Tensors or "
                        r"ExtensionTypes or None values; in compilation of <function .*p at 0x[0-9a-f]+>, found "
                        r"return value of type Operation, which is not a Tensor or ExtensionType.", str(e))


def test_unhashable_objects_cannot_be_traced():
    class Unhashable:
        __hash__ = None

    @tf.function
    def g(u):
        return 1

    u = Unhashable()
    e = _raised(g, u)
    assert type(e) is TypeError
    assert str(e) == (f"Could not generate a generic TraceType for {u!r}.Please verify that it is immutable/hashable. "
                      "Otherwise, consider implementing the Tracing Protocol for it.")


def test_symbolic_tensor_of_unknown_rank_prints_without_shape():
    # TF 2.21: str() leaves an unknown shape out; repr() shows it.
    seen = []

    @tf.function
    def f(a):
        seen.append((str(a), repr(a)))
        return a
    f.get_concrete_function(tf.TensorSpec(None, tf.string))
    assert seen == [('Tensor("a:0", dtype=string)', "<tf.Tensor 'a:0' shape=<unknown> dtype=string>")]
