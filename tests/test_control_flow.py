"""tf.cond, tf.while_loop, tf.case, tf.switch_case: eager, in graphs (If/While nodes run by the
C++ executor), their errors, and the scalar loop interpreter against the general path."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core


def node_types(fn, *args):
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


# --- eager ---

def test_eager_cond_runs_python():
    assert tf.cond(True, lambda: 1, lambda: 2) == 1
    assert tf.cond(tf.constant(False), lambda: 1, lambda: 2) == 2
    with pytest.raises(TypeError, match="'true_fn' must be callable"):
        tf.cond(True, 1, lambda: 2)


def test_eager_while_loop_structures():
    assert tf.while_loop(lambda i: i < 10, lambda i: i + 1, [0]) == [10]
    assert tf.while_loop(lambda i: i < 10, lambda i: (i + 1,), (0,)) == (10,)
    r = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)], maximum_iterations=3)
    assert r[0].numpy() == 3
    with pytest.raises(TypeError, match="'cond' must be callable"):
        tf.while_loop(1, lambda i: i, [1])
    with pytest.raises(TypeError, match="'body' must be callable"):
        tf.while_loop(lambda i: True, 1, [1])
    with pytest.raises(ValueError, match="'loop_vars' must be provided"):
        tf.while_loop(lambda i: True, lambda i: i, [])


def test_eager_case_and_switch_case():
    assert tf.case([(tf.constant(False), lambda: 1)], default=lambda: 3) == 3
    assert tf.switch_case(tf.constant(5), [lambda: 1, lambda: 2]) == 2  # out of range: last branch
    assert tf.switch_case(tf.constant(-1), [lambda: 1, lambda: 2], default=lambda: 9) == 9
    assert tf.switch_case(tf.constant(0), {0: lambda: "a", 3: lambda: "b"}) == "a"
    assert tf.switch_case(tf.constant(1, tf.uint8), [lambda: 1, lambda: 2]) == 2


def test_switch_case_takes_an_integer_tensor_as_tf():
    # TF 2.21's texts: a Python number is refused too, before the branches are looked at.
    with pytest.raises(TypeError, match=r"^'branch_index' must be a Tensor, got <class 'int'>$"):
        tf.switch_case(0, "not branches")
    with pytest.raises(TypeError, match=r"^'branch_index' must be an integer Tensor, got <dtype: 'float32'>$"):
        tf.switch_case(tf.constant(3.5e38), [lambda: 1])
    with pytest.raises(ValueError, match=r"^Must provide at least one item in 'branch_fns'$"):
        tf.switch_case(tf.constant(1), [])


def test_eager_while_body_must_keep_the_structure():
    # A body that returns fewer variables than it was given raises (as TF's eager loop does) instead
    # of looping on the rest forever.
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda i, *a: i < 3, lambda *a: (tf.constant(1), tf.constant(2.0)),
                      [tf.constant([2], tf.uint16), tf.constant(1), tf.constant([-128], tf.int8)])
    with pytest.raises(ValueError, match="same number of elements"):
        tf.while_loop(lambda i: i < 3, lambda i: (i + 1, 2), [tf.constant(1)])
    assert tf.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1, j], (tf.constant(1), 2))[1] == 2


# --- graphs ---

def test_cond_in_function_takes_both_branches():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: x * 2.0)
    assert f(tf.constant(1.5)).numpy() == 1.5
    assert f(tf.constant(-1.5)).numpy() == -3.0
    assert "StatelessIf" in node_types(f, tf.constant(1.0))


def test_cond_with_print_is_stateful_and_runs_only_taken_branch(capsys):
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: (tf.print("pos"), x)[1], lambda: (tf.print("neg"), -x)[1])
    assert f(tf.constant(2)).numpy() == 2
    assert f(tf.constant(-3)).numpy() == 3
    err = capsys.readouterr().err
    assert err == "pos\nneg\n"
    assert "If" in node_types(f, tf.constant(1))


def test_cond_branch_structure_mismatch_errors():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: 2)
    with pytest.raises(TypeError, match="must have the same number, type, and overall structure"):
        f(tf.constant(1.0))

    @tf.function
    def g(x):
        return tf.cond(x > 0, lambda: (x, x), lambda: x)
    with pytest.raises(TypeError, match="same number, type, and overall structure"):
        g(tf.constant(1.0))


def test_cond_nested_and_capturing_outer_tensors():
    w = tf.constant([1.0, 2.0])

    @tf.function
    def f(x, y):
        def outer():
            return tf.cond(y > 0, lambda: x * w, lambda: x - w)
        return tf.cond(x[0] > 0, outer, lambda: w)
    np.testing.assert_allclose(f(tf.constant([1.0, 1.0]), tf.constant(1)).numpy(), [1.0, 2.0])
    np.testing.assert_allclose(f(tf.constant([1.0, 1.0]), tf.constant(-1)).numpy(), [0.0, -1.0])
    np.testing.assert_allclose(f(tf.constant([-1.0, 1.0]), tf.constant(1)).numpy(), [1.0, 2.0])


def test_cond_output_shape_is_most_specific_compatible():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: tf.zeros([2, 3]), lambda: tf.zeros([4, 3]))
    out = f.get_concrete_function(tf.constant(1)).outputs[0]
    assert out.shape.as_list() == [None, 3]
    assert f(tf.constant(0)).shape == (4, 3)


def test_while_loop_in_function():
    @tf.function
    def f(n):
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (0, 0))
    i, s = f(tf.constant(10))
    assert (i.numpy(), s.numpy()) == (10, 45)
    i, s = f(tf.constant(0))
    assert (i.numpy(), s.numpy()) == (0, 0)
    assert "StatelessWhile" in node_types(f, tf.constant(1))


def test_while_loop_maximum_iterations_and_single_var():
    @tf.function
    def f(x):
        return tf.while_loop(lambda i: i < 10, lambda i: i + 1, [x], maximum_iterations=3)
    assert [t.numpy() for t in f(tf.constant(1))] == [4]

    @tf.function
    def g(x):
        return tf.while_loop(lambda i: i < 10, lambda i: i + 2, x)
    assert g(tf.constant(1)).numpy() == 11


def test_while_loop_shape_invariants():
    @tf.function
    def bad(x):
        return tf.while_loop(lambda i: tf.size(i) < 10, lambda i: tf.concat([i, i], 0), [x])
    with pytest.raises(ValueError, match="enters the loop with shape \\(1,\\), but has shape \\(2,\\) after one "
                                         "iteration"):
        bad(tf.constant([1]))

    @tf.function
    def good(x):
        return tf.while_loop(lambda i: tf.size(i) < 10, lambda i: tf.concat([i, i], 0), [x],
                             shape_invariants=[tf.TensorShape([None])])
    assert good(tf.constant([1]))[0].shape == (16,)


def test_while_loop_dtype_and_structure_errors():
    @tf.function
    def f(x):
        return tf.while_loop(lambda i: i < 10, lambda i: tf.cast(i, tf.float32), [x])
    with pytest.raises(TypeError, match="enters the loop with type <dtype: 'int32'> but has type <dtype: 'float32'>"):
        f(tf.constant(1))

    @tf.function
    def g(x):
        return tf.while_loop(lambda i: i < 10, lambda i: (i, i), [x])
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        g(tf.constant(1))


def test_while_loop_with_variable_and_print_runs_every_iteration(capsys):
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        def body(i, acc):
            v.assign_add(1.0)
            tf.print("it", i)
            return i + 1, acc + v * x
        return tf.while_loop(lambda i, acc: i < 3, body, (0, 0.0))
    i, acc = f(tf.constant(2.0))
    assert acc.numpy() == 18.0 and v.numpy() == 4.0
    assert capsys.readouterr().err == "it 0\nit 1\nit 2\n"
    assert "While" in node_types(f, tf.constant(1.0))


def test_case_and_switch_case_in_function():
    @tf.function
    def f(x):
        return tf.case([(x > 0, lambda: 1), (x < -5, lambda: 2)], default=lambda: 3)
    assert [f(tf.constant(v)).numpy() for v in (1, -6, -1)] == [1, 2, 3]

    @tf.function
    def g(i):
        return tf.switch_case(i, [lambda: 10, lambda: 20, lambda: 30])
    assert [g(tf.constant(v)).numpy() for v in (0, 1, 2, 7, -1)] == [10, 20, 30, 30, 30]


def test_graph_function_attr_round_trip():
    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x + 1, lambda: x - 1)
    g = f.get_concrete_function(tf.constant(1)).graph
    node = [op for op in g.get_operations() if op.type == "StatelessIf"][0]
    attrs = node._node.attrs()
    assert isinstance(attrs["then_branch"], _core.GraphFunction)
    assert attrs["Tout"] == [tf.int32._type_enum]
    assert attrs["then_branch"]([tf.constant(5)])[0].numpy() == 6


# --- the scalar loop interpreter (tf.config.optimizer loop_optimization) against the plans ---

def _loops():
    def collatz(n):
        def body(n, steps):
            return tf.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1), steps + 1
        return tf.while_loop(lambda n, s: n > 1, body, (n, 0))

    def decay(n):
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 0.99 + 1.0), (0, 0.0))

    def wrap(n):  # int32 overflow wraps, as the kernels do
        return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, x * 3 + 7), (0, tf.constant(1)))

    def nan_compare(n):
        return tf.while_loop(lambda i, x: tf.logical_and(i < n, tf.logical_not(x > 1e30)),
                             lambda i, x: (i + 1, tf.maximum(x * 10.0, x)), (0, tf.constant(1.0, tf.float64)))

    def mixed(n):
        return tf.while_loop(lambda i, a, b: tf.logical_or(i < tf.cast(n, tf.int64), tf.equal(a, -1)),
                             lambda i, a, b: (i + 1, a - b, tf.abs(b) + 1), (tf.constant(0, tf.int64), 5, 2),
                             maximum_iterations=50)
    return [collatz, decay, wrap, nan_compare, mixed]


@pytest.mark.parametrize("loop", _loops(), ids=lambda f: f.__name__)
@pytest.mark.parametrize("n", [0, 1, 7, 100])
def test_scalar_loop_matches_plan_path(loop, n):
    from eagerflow.config import optimizer
    try:
        optimizer.set_experimental_options({"loop_optimization": False})
        want = tf.function(loop)(tf.constant(n))
        optimizer.set_experimental_options({"loop_optimization": None})
        got = tf.function(loop)(tf.constant(n))
    finally:
        optimizer.set_experimental_options({"loop_optimization": None})
    for a, b in zip(tf.nest.flatten(got), tf.nest.flatten(want)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_scalar_loop_falls_back_for_vectors_and_stateful_bodies():
    @tf.function
    def vec(x):
        return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2.0), (0, x))
    np.testing.assert_allclose(vec(tf.constant([1.0, 2.0]))[1].numpy(), [8.0, 16.0])

    v = tf.Variable(0)

    @tf.function
    def stateful(n):
        return tf.while_loop(lambda i: i < n, lambda i: (v.assign_add(1), i + 1)[1], [0])
    stateful(tf.constant(5))
    assert v.numpy() == 5


def _while_attrs(fn, *args):
    g = fn.get_concrete_function(*args).graph
    node = [op for op in g.get_operations() if op.type.endswith("While")][0]
    return node._node.attrs()


@pytest.mark.parametrize("name,expected", [("decay", True), ("wrap", True), ("nan_compare", True),
                                           ("collatz", False), ("mixed", False)])
def test_which_loops_the_scalar_interpreter_takes(name, expected):
    loop = {f.__name__: f for f in _loops()}[name]
    a = _while_attrs(tf.function(loop), tf.constant(3))
    assert _core.scalar_loop_supported(a["cond"], a["body"]) is expected
