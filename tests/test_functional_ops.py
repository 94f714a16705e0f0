"""tf.foldl, tf.foldr, tf.scan, tf.group and tf.tuple: values, structures, gradients and graphs as TF
2.21 gives them (the expected values below are TF's own output for the same calls)."""
import numpy as np
import pytest

import eagerflow as tf

E = [1, 2, 3, 4, 5, 6]


def test_folds_and_scans_of_a_vector():
    e = tf.constant(E)
    assert tf.foldl(lambda a, x: a + x, e).numpy() == 21
    assert tf.foldl(lambda a, x: a * 10 + x, e, initializer=tf.constant(7)).numpy() == 7123456
    assert tf.foldr(lambda a, x: a * 10 + x, e).numpy() == 654321
    assert tf.foldr(lambda a, x: a - x, e, initializer=tf.constant(100)).numpy() == 79
    assert tf.scan(lambda a, x: a + x, e).numpy().tolist() == [1, 3, 6, 10, 15, 21]
    assert tf.scan(lambda a, x: a + x, e, reverse=True).numpy().tolist() == [21, 20, 18, 15, 11, 6]
    assert tf.scan(lambda a, x: a * 2 + x, e, initializer=tf.constant(1)).numpy().tolist() == [3, 8, 19, 42, 89, 184]
    # Rows of a matrix; an empty scan with an initializer is empty.
    assert tf.foldl(lambda a, x: a + x, tf.constant([[1, 2], [3, 4]])).numpy().tolist() == [4, 6]
    assert tf.scan(lambda a, x: a + x, tf.constant([], tf.float32), initializer=tf.constant(0.)).shape == [0]


def test_structures():
    elems = (tf.constant([1., 2., 3.]), tf.constant([[1., 1.], [2., 2.], [3., 3.]]))
    r = tf.scan(lambda a, x: (a[0] + x[0], a[1] * x[1]), elems)
    assert [t.numpy().tolist() for t in r] == [[1.0, 3.0, 6.0], [[1.0, 1.0], [2.0, 2.0], [6.0, 6.0]]]
    r = tf.scan(lambda a, x: {"s": a["s"] + x}, tf.constant([1., 2.]), initializer={"s": tf.constant(0.)})
    assert r["s"].numpy().tolist() == [1.0, 3.0]
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.scan(lambda a, x: (a, a), tf.constant([1, 2]))


def test_in_a_function_with_an_unknown_length():
    @tf.function
    def f(x):
        return (tf.foldl(lambda a, v: a + v * v, x), tf.scan(lambda a, v: a + v, x, reverse=True),
                tf.foldr(lambda a, v: a * v, x))
    assert [np.asarray(t).tolist() for t in f(tf.constant([1., 2., 3.]))] == [14.0, [6.0, 5.0, 3.0], 6.0]
    c = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    assert [np.asarray(t).tolist() for t in c(tf.constant([2., 5.]))] == [27.0, [7.0, 5.0], 10.0]
    assert [o.shape.as_list() for o in c.structured_outputs] == [[], [None], []]
    loops = [op.type for op in c.graph.get_operations() if op.type.endswith("While")]
    assert loops == ["StatelessWhile"] * 3  # one loop each, whatever the length (TF: the same op)


def test_gradients_are_dense_and_back_prop_false_stops_them_only_in_a_graph():
    x = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.scan(lambda a, v: a * v, x))
    g = t.gradient(y, x)
    assert y.numpy() == 9.0 and isinstance(g, tf.Tensor) and g.numpy().tolist() == [9.0, 4.0, 2.0]
    with tf.GradientTape() as t:
        y = tf.foldl(lambda a, v: a * v, x, initializer=tf.constant(2.))
    assert t.gradient(y, x).numpy().tolist() == [12.0, 6.0, 4.0]
    with tf.GradientTape() as t:  # TF 2.21 ignores it eagerly (and warns that it is deprecated)
        y = tf.foldl(lambda a, v: a * v, x, initializer=tf.constant(2.), back_prop=False)
    assert t.gradient(y, x).numpy().tolist() == [12.0, 6.0, 4.0]

    @tf.function
    def no_grad():
        with tf.GradientTape() as t:
            y = tf.foldl(lambda a, v: a * v, x, initializer=tf.constant(2.), back_prop=False)
        return t.gradient(y, x)
    assert no_grad() is None


def test_errors_as_tf():
    with pytest.raises(AttributeError, match="'int' object has no attribute '__name__'"):
        tf.foldl(3, tf.constant(E))  # TF names the function in its TypeError and fails on a non-function
    with pytest.raises(IndexError):
        tf.scan(lambda a, x: a, [])


def test_group_and_tuple():
    a, b = tf.constant(1), tf.constant(2)
    assert tf.group(a) is None
    pair = [a, b]
    assert tf.tuple(pair) is pair  # eagerly nothing waits

    @tf.function
    def f(x):
        g = tf.group(x, x + 1)
        assert (g.name, g.type, [c.name for c in g.control_inputs]) == ("group_deps", "NoOp", ["x", "add"])
        t = tf.tuple([x, x * 2])
        assert [v.name for v in t] == ["tuple/control_dependency:0", "tuple/control_dependency_1:0"]
        assert [c.name for c in t[0].op.control_inputs] == ["tuple/group_deps"] and t[0].op.type == "Identity"
        return t[1]
    assert f(tf.constant([1., 2.])).numpy().tolist() == [2.0, 4.0]

    g = tf.Graph()
    with g.as_default():
        a, b = tf.constant(1), tf.constant(2)
        t = tf.tuple([b, a])
        assert [c.name for c in t[0].op.control_inputs[0].control_inputs] == ["Const", "Const_1"]  # creation order
        assert tf.group(name="mine").name == "mine"
        with pytest.raises(TypeError, match=r"^'inputs' should be zero or more \(nested\) Tensors. Received '3' with "
                                            r"type '<class 'int'>'.$"):
            tf.group(3)
        with pytest.raises(ValueError, match="^Unknown keyword arguments: foo$"):
            tf.group(a, foo=1)
