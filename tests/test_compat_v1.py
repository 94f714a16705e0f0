"""tf.compat.v1: Session.run over fetch structures and feeds, placeholders, the default graph and
session, InteractiveSession, disable_eager_execution, and TF's errors for bad fetches and feeds."""
import collections
import threading

import numpy as np
import pytest

import eagerflow as tf

tf1 = tf.compat.v1


def _graph():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, shape=(2,), name="x")
        y = x * 2
        c = tf.constant(3, name="c")
    return g, x, y, c


def test_wiki_example():
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(3)
        b = tf.constant(5)
        c = a + b
    sess = tf1.Session(graph=g)
    out = sess.run(c)
    assert out == 8 and isinstance(out, np.int32)
    assert not hasattr(tf, "Session")  # TF2 has only tf.compat.v1.Session


def test_run_tensor_operation_and_structures():
    g, x, y, c = _graph()
    with g.as_default():
        init = tf1.global_variables_initializer()
    with tf1.Session(graph=g) as s:
        assert s.graph is g
        np.testing.assert_array_equal(s.run(y, {x: [1, 2]}), np.array([2, 4], np.float32))
        assert s.run(y, {x: [1, 2]}).dtype == np.float32
        assert s.run(init) is None
        assert s.run([init, c]) == [None, 3]
        assert s.run((c, c)) == (3, 3)
        out = s.run([c, {"a": c, "b": (c, y)}], feed_dict={x: [1, 2]})
        assert out[0] == 3 and out[1]["a"] == 3 and out[1]["b"][0] == 3
        np.testing.assert_array_equal(out[1]["b"][1], [2, 4])
        P = collections.namedtuple("P", "a b")
        r = s.run(P(c, y), {x: [1, 1]})
        assert isinstance(r, P) and r.a == 3
        assert s.run([]) == [] and s.run({}) == {}


def test_run_by_name():
    g, x, y, c = _graph()
    with tf1.Session(graph=g) as s:
        assert s.run("c:0") == 3
        assert s.run("c") is None  # an operation name runs the op and returns None
        np.testing.assert_array_equal(s.run(y.name, {"x:0": [3, 4]}), [6, 8])


def test_feed_conversion_like_numpy():
    g = tf.Graph()
    with g.as_default():
        i = tf1.placeholder(tf.int32, shape=(2,), name="i")
        s = tf1.placeholder(tf.string, name="s")
        f = tf1.placeholder(tf.float32, shape=[], name="f")
        doubled = i * 2
        same = tf.identity(s)
        half = f / 2
    with tf1.Session(graph=g) as sess:
        r = sess.run(doubled, {i: [1.7, 2.2]})  # truncated to int32 as NumPy does
        np.testing.assert_array_equal(r, [2, 4])
        assert r.dtype == np.int32
        np.testing.assert_array_equal(sess.run(doubled, {i: np.array([1, 2], np.int64)}), [2, 4])
        assert sess.run(same, {s: "abc"}) == b"abc"
        assert list(sess.run(same, {s: ["abc", b"d"]})) == [b"abc", b"d"]
        assert sess.run(half, {f: 3}) == np.float32(1.5)


def test_partially_known_placeholder_shapes():
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
        y = tf.reduce_sum(tf.matmul(x, w), axis=1)
        assert y.shape.as_list() == [None]
    xs = np.random.RandomState(0).rand(5, 3).astype(np.float32)
    with tf1.Session(graph=g) as s:
        np.testing.assert_allclose(s.run(y, {x: xs}), (xs @ np.arange(12, dtype=np.float32).reshape(3, 4)).sum(1),
                                   rtol=1e-5)
        np.testing.assert_allclose(s.run(y, {x: xs[:2]}).shape, (2,))
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2, 2\) for Tensor x:0, which has "
                                             r"shape \(None, 3\)"):
            s.run(y, {x: np.ones((2, 2))})


def test_results_equal_eager_for_a_dense_network():
    rs = np.random.RandomState(1)
    xs = rs.rand(8, 6).astype(np.float32)
    ws = [rs.rand(6, 5).astype(np.float32), rs.rand(5, 3).astype(np.float32)]

    def net(x):
        h = tf.nn.relu(tf.matmul(x, ws[0]) - 1.0)
        return tf.reduce_mean(tf.matmul(h, ws[1]), axis=0)

    eager = net(tf.constant(xs)).numpy()
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [None, 6])
        out = net(x)
    with tf1.Session(graph=g) as s:
        np.testing.assert_allclose(s.run(out, {x: xs}), eager, rtol=1e-6)


def test_plans_are_cached_per_signature():
    g, x, y, c = _graph()
    s = tf1.Session(graph=g)
    for _ in range(3):
        s.run(y, {x: [1, 2]})
        s.run(c)
        s.run([c, y], {x: [0, 0]})
    assert len(s._plans) == 3
    s.close()


def test_tf1_graph_runs_only_what_is_fetched():
    g = tf.Graph()
    with g.as_default():
        r = tf.random.uniform([3], seed=1)
        c = tf.constant(1.0)
    with tf1.Session(graph=g) as s:
        a, b = s.run(r), s.run(r)
        assert not np.array_equal(a, b)  # a stateful op runs on every fetch
        assert s.run(c) == 1.0


def test_bad_fetches():
    g, x, y, c = _graph()
    g2 = tf.Graph()
    with g2.as_default():
        d = tf.constant(3, name="d")
    with tf1.Session(graph=g) as s:
        with pytest.raises(TypeError, match='Argument `fetch` = None has invalid type "NoneType". Cannot be None'):
            s.run(None)
        with pytest.raises(TypeError, match="Cannot be None"):
            s.run([c, None])
        with pytest.raises(TypeError, match='Argument `fetch` = 5 has invalid type "int" must be a string or Tensor.'):
            s.run(5)
        with pytest.raises(ValueError, match=r'Argument `fetch` = Tensor\("d:0", shape=\(\), dtype=int32\) cannot be '
                                             r'interpreted as a Tensor. \(Tensor Tensor\("d:0", shape=\(\), '
                                             r'dtype=int32\) is not an element of this graph.\)'):
            s.run(d)
        with pytest.raises(ValueError, match="is not an element of this graph"):
            s.run(d.op)
        with pytest.raises(ValueError, match="The name 'zz:0' refers to a Tensor which does not exist."):
            s.run("zz:0")
        with pytest.raises(ValueError, match="The name 'zz' refers to an Operation not in the graph."):
            s.run("zz")
        with pytest.raises(AttributeError, match="Tensor.graph is undefined when eager execution is enabled."):
            with tf.init_scope():
                e = tf.constant(1)
            s.run(e)


def test_bad_feeds():
    g, x, y, c = _graph()
    with tf1.Session(graph=g) as s:
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor x:0, which has shape "
                                             r"\(2,\)"):
            s.run(y, {x: [1, 2, 3]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="You must feed a value for placeholder tensor 'x' with dtype float"):
            s.run(y)
        with pytest.raises(ValueError, match="could not convert string to float"):
            s.run(y, {x: ["a", "b"]})
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object."):
            s.run(y, {x: tf.constant([1.0, 2.0])})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: Can not convert a int"):
            s.run(y, {5: [1, 2]})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor: The name 'q:0' refers to a "
                                            "Tensor which does not exist."):
            s.run(y, {"q:0": [1, 2]})
        # Feeding a computed tensor replaces its value.
        np.testing.assert_array_equal(s.run(y, {y: [5, 5]}), [5, 5])


def test_closed_session():
    g, x, y, c = _graph()
    s = tf1.Session(graph=g)
    s.close()
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        s.run(c)
    with tf1.Session(graph=g) as s2:
        pass
    with pytest.raises(RuntimeError, match="closed Session"):
        s2.run(c)


def test_default_session_and_graph():
    g, x, y, c = _graph()
    assert tf1.get_default_session() is None
    with tf1.Session(graph=g) as s:
        assert tf1.get_default_session() is s
        assert tf1.get_default_graph() is g
        assert c.eval() == 3
        np.testing.assert_array_equal(y.eval(feed_dict={x: [1, 1]}), [2, 2])
        new = tf.constant(7)  # the session's graph is the default graph inside `with`
        assert new.graph is g and s.run(new) == 7
    assert tf1.get_default_session() is None
    with g.as_default():
        op = tf.no_op(name="nothing")
    s = tf1.Session(graph=g)
    with s.as_default():
        assert op.run() is None and c.eval() == 3
    assert c.eval(session=s) == 3


def test_session_uses_default_graph():
    g, x, y, c = _graph()
    with g.as_default():
        s = tf1.Session()
    assert s.graph is g


def test_interactive_session():
    g, x, y, c = _graph()
    s = tf1.InteractiveSession(graph=g)
    try:
        assert tf1.get_default_session() is s
        assert c.eval() == 3
    finally:
        s.close()
    assert tf1.get_default_session() is None


def test_placeholder():
    with pytest.raises(RuntimeError, match=r"tf.placeholder\(\) is not compatible with eager execution."):
        tf1.placeholder(tf.float32)
    with tf.Graph().as_default():
        p = tf1.placeholder(tf.float32)
        q = tf1.placeholder("int32", [None, 3])
        r = tf1.placeholder(tf.float64, tf.TensorShape([2]), name="r")
        assert repr(p) == "<tf.Tensor 'Placeholder:0' shape=<unknown> dtype=float32>"
        assert repr(q) == "<tf.Tensor 'Placeholder_1:0' shape=(None, 3) dtype=int32>"
        assert repr(r) == "<tf.Tensor 'r:0' shape=(2,) dtype=float64>"
        assert p.op.type == "Placeholder"


def test_default_graph_and_reset():
    g = tf.Graph()
    with g.as_default():
        assert tf1.get_default_graph() is g
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            tf1.reset_default_graph()
    outer = tf1.get_default_graph()
    assert outer is tf1.get_default_graph()
    tf1.reset_default_graph()
    assert tf1.get_default_graph() is not outer
    assert tf1.get_default_graph().get_operations() == []


def test_disable_eager_execution_in_a_thread():
    # Graph mode is per thread; run it in its own thread so the rest of the suite stays eager.
    result = {}

    def body():
        tf1.disable_eager_execution()
        try:
            result["eager"] = tf.executing_eagerly()
            a = tf.constant(3)
            c = a * tf.constant(4)
            result["repr"] = str(c)
            x = tf1.placeholder(tf.float32, [None])
            y = tf.reduce_sum(x * 2)
            with tf1.Session() as sess:
                result["run"] = (sess.run(c), sess.run(y, {x: [1, 2, 3]}))
            tf1.reset_default_graph()
            result["after_reset"] = tf1.get_default_graph().get_operations()
        finally:
            tf1.enable_eager_execution()
            result["eager_after"] = tf.executing_eagerly()

    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert result == {"eager": False, "repr": 'Tensor("mul:0", shape=(), dtype=int32)', "run": (12, 12.0),
                      "after_reset": [], "eager_after": True}
    assert tf.executing_eagerly()


def test_compat_bytes_helpers():
    assert tf.compat.as_bytes("ab") == b"ab" and tf.compat.as_text(b"ab") == "ab"
    assert tf.compat.as_str(b"x") == "x"
    with pytest.raises(TypeError):
        tf.compat.as_bytes(3)


def test_v1_name_scope_default_name():
    with tf.Graph().as_default():
        with tf1.name_scope(None, "dflt") as s:
            assert s == "dflt/"
            assert tf.constant(1).name == "dflt/Const:0"
        with tf1.name_scope("given", "dflt") as s:
            assert s == "given/"
