"""tf.gradients and tf.hessians in graphs (tf.function, tf.Graph): values TF 2.21 gave, finite
differences, and TF's RuntimeError when executing eagerly."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([1., 2.])
X2 = tf.constant([3., 4.])


def _np(ts):
    return [None if t is None else t.numpy() for t in ts]


def test_values_tf_printed():
    @tf.function
    def f(x, x2):
        y = x * x + tf.sin(x)
        z = tf.stop_gradient(x) * x
        w = x * 3.0
        return (tf.gradients(y, x), tf.gradients([y, z], [x, x2]),
                tf.gradients(y, [x, x2], unconnected_gradients="zero"),
                tf.gradients(y, x, grad_ys=tf.constant([2., 3.])), tf.gradients(w + y, x, stop_gradients=[w]),
                tf.hessians(tf.reduce_sum(x * x * x), x))
    r = f(X, X2)
    np.testing.assert_allclose(r[0][0].numpy(), [2.5403023, 3.5838532], rtol=1e-6)
    np.testing.assert_allclose(r[1][0].numpy(), [3.5403023, 5.5838532], rtol=1e-6)
    assert r[1][1] is None
    np.testing.assert_allclose(r[2][0].numpy(), [2.5403023, 3.5838532], rtol=1e-6)
    assert r[2][1].numpy().tolist() == [0., 0.]
    np.testing.assert_allclose(r[3][0].numpy(), [5.0806046, 10.751559], rtol=1e-6)
    np.testing.assert_allclose(r[4][0].numpy(), [2.5403023, 3.5838532], rtol=1e-6)
    assert r[5][0].numpy().tolist() == [[6., 0.], [0., 12.]]


@pytest.mark.parametrize("fn", [tf.gradients, tf.hessians])
def test_eager_is_runtime_error(fn):
    with pytest.raises(RuntimeError) as e:
        fn(tf.constant(1.), tf.constant(2.))
    assert str(e.value) == ("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                            "instead.")


def test_integer_target_and_constant_source_have_none():
    @tf.function
    def h(x):
        return tf.gradients(tf.cast(x, tf.int32), x)
    assert h(X) == [None]

    @tf.function
    def k(x):
        return tf.gradients(x * 2.0, [x, 3.0])
    r = k(X)
    assert r[0].numpy().tolist() == [2., 2.] and r[1] is None


def test_gradient_ops_are_under_the_gradients_scope():
    @tf.function
    def g(x):
        return tf.gradients(x * 2.0, [x], name="grads")
    names = [n.name for n in g.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph.as_graph_def().node]
    grad_nodes = [n for n in names if n not in ("x", "mul/y", "mul") and not n.startswith("Identity")]
    assert grad_nodes and all(n.startswith("grads/") for n in grad_nodes)
    assert any(n.startswith("grads/mul_grad/") for n in grad_nodes)


def _finite_difference(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        out.flat[i] = (f(x + d) - f(x - d)).sum() / (2 * eps)
    return out


@pytest.mark.parametrize("tf_fn,np_fn", [
    (lambda x: tf.reduce_sum(tf.tanh(x) * x), lambda x: np.tanh(x) * x),
    (lambda x: tf.reduce_mean(tf.exp(x) / (1 + x * x)), lambda x: np.mean(np.exp(x) / (1 + x * x))),
    (lambda x: tf.matmul(tf.reshape(x, [2, 3]), tf.transpose(tf.reshape(x, [2, 3]))),
     lambda x: x.reshape(2, 3) @ x.reshape(2, 3).T),
    (lambda x: tf.reduce_max(tf.reshape(x, [3, 2]), axis=1) * tf.reduce_sum(x),
     lambda x: x.reshape(3, 2).max(axis=1) * x.sum()),
])
def test_matches_finite_differences(tf_fn, np_fn):
    x0 = np.array([0.3, -1.2, 0.7, 2.0, -0.4, 1.1])

    @tf.function
    def grad(x):
        return tf.gradients(tf_fn(x), x)[0]
    got = grad(tf.constant(x0)).numpy()
    np.testing.assert_allclose(got, _finite_difference(np_fn, x0), rtol=1e-6, atol=1e-8)


def test_hessian_matches_finite_differences():
    x0 = np.array([0.5, -1.5, 2.0])

    @tf.function
    def hess(x):
        return tf.hessians(tf.reduce_sum(tf.sin(x) * x[0] * x), x)[0]
    got = hess(tf.constant(x0)).numpy()

    def grad_np(x):
        # d/dx_j sum_i sin(x_i) x_0 x_i
        s = np.sin(x) * x
        g = x[0] * (np.cos(x) * x + np.sin(x))
        g[0] += s.sum()
        return g
    want = np.stack([_finite_difference(lambda v, j=j: grad_np(v)[j], x0) for j in range(3)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_agrees_with_gradient_tape_through_cond_and_while():
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reduce_sum(x * x), lambda: tf.reduce_sum(x))
            i, z = tf.while_loop(lambda i, z: i < 3, lambda i, z: (i + 1, z * x), (0, tf.ones_like(x)))
            loss = y + tf.reduce_sum(z)
        return tf.gradients(loss, x)[0], tape.gradient(loss, x)
    g, t = f(tf.constant([0.5, 1.5]))
    np.testing.assert_allclose(g.numpy(), t.numpy(), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), 2 * np.array([0.5, 1.5]) + 3 * np.array([0.5, 1.5]) ** 2, rtol=1e-6)


def test_nested_function_call():
    @tf.function
    def inner(x):
        return tf.reduce_sum(x * x * x)

    @tf.function
    def outer(x):
        return tf.gradients(inner(x), x)[0]
    assert outer(X).numpy().tolist() == [3., 12.]


def test_variable_source():
    v = tf.Variable([1., 2.])

    @tf.function
    def f():
        return tf.gradients(tf.reduce_sum(v * v), v)[0]
    assert f().numpy().tolist() == [2., 4.]


def test_tf1_graph_session():
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [2])
        (dx,) = tf.compat.v1.gradients(tf.reduce_sum(x * x), x)
        with tf.compat.v1.Session() as sess:
            assert sess.run(dx, {x: [1., 3.]}).tolist() == [2., 6.]


def test_gather_gives_indexed_slices_and_grad_ys_may_hold_none():
    @tf.function
    def f(x):
        g = tf.gradients(tf.reduce_sum(tf.gather(x, [0, 0, 2])), x)[0]
        return isinstance(g, tf.IndexedSlices), tf.convert_to_tensor(g)
    sparse, dense = f(tf.constant([1., 2., 3.]))
    assert bool(sparse) and dense.numpy().tolist() == [2., 0., 1.]

    @tf.function
    def h(x):
        return tf.gradients([x * 2., x * x], x, grad_ys=[None, tf.constant([1., 0., 1.])])
    assert h(tf.constant([1., 2., 3.]))[0].numpy().tolist() == [4., 2., 8.]


def test_argument_errors():
    @tf.function
    def f(x):
        return tf.gradients(x * 2., x, grad_ys=[x, x])
    with pytest.raises(ValueError, match="Length mismatch. Passed 2 grad_ys for 1 ys"):
        f(X)

    @tf.function
    def g(x):
        return tf.gradients(x * 2., x, unconnected_gradients="bad")
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'bad'"):
        g(X)


def test_empty_ys_duplicate_xs_and_y_is_x():
    @tf.function
    def f(x):
        return tf.gradients([], x), tf.gradients(x * x, [x, x]), tf.gradients(x, x)
    empty, dup, same = f(X)
    assert empty == [None]
    assert [g.numpy().tolist() for g in dup] == [[2., 4.], [2., 4.]]
    assert same[0].numpy().tolist() == [1., 1.]


def test_signatures_are_tfs():
    import inspect
    assert str(inspect.signature(tf.hessians)) == "(ys, xs, gate_gradients=False, aggregation_method=None, name='hessians')"
    assert list(inspect.signature(tf.gradients).parameters) == [
        "ys", "xs", "grad_ys", "name", "gate_gradients", "aggregation_method", "stop_gradients",
        "unconnected_gradients"]
    assert list(inspect.signature(tf.compat.v1.gradients).parameters)[4] == "colocate_gradients_with_ops"
    assert str(inspect.signature(tf.compat.v1.hessians)) == (
        "(ys, xs, name='hessians', colocate_gradients_with_ops=False, gate_gradients=False, aggregation_method=None)")


def test_wrong_number_of_gradients_names_the_node_def():
    from eagerflow.framework import gradient_registry
    f = gradient_registry._GRADIENTS["Identity"]
    gradient_registry._GRADIENTS["Identity"] = lambda op, grad: [grad, grad]
    try:
        g = tf.Graph()
        with g.as_default():
            x = tf.constant([1.0, 2.0])
            y = tf.identity(x)
            # TF's message, with the node's NodeDef in text form.
            with pytest.raises(ValueError) as e:
                tf.gradients(y, x)
        assert str(e.value) == ('Num gradients 2 generated for op name: "Identity"\nop: "Identity"\ninput: "Const"\n'
                                'attr {\n  key: "T"\n  value {\n    type: DT_FLOAT\n  }\n}\n do not match num inputs 1')
    finally:
        gradient_registry._GRADIENTS["Identity"] = f


def test_gradient_function_sees_node_view():
    from eagerflow.framework import gradient_registry
    f = gradient_registry._GRADIENTS["Cast"]
    seen = {}

    def spy(op, grad):
        seen.update(type=op.type, dst=op.get_attr("DstT"), repr=repr(op), skip=op.skip_input_indices)
        with pytest.raises(ValueError, match=r"^Operation 'c' has no attr named 'nope'.$"):
            op.get_attr("nope")
        return f(op, grad)
    gradient_registry._GRADIENTS["Cast"] = spy
    try:
        g = tf.Graph()
        with g.as_default():
            x = tf.constant([1.0, 2.0])
            y = tf.cast(x, tf.float64, name="c")
            tf.gradients(y, x)
    finally:
        gradient_registry._GRADIENTS["Cast"] = f
    assert seen == {"type": "Cast", "dst": tf.float64, "repr": "<tf.Operation 'c' type=Cast>", "skip": None}


def test_complex_ys_need_grad_ys():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant([1 + 2j, 3 - 1j], tf.complex64)
        y = tf.reduce_sum(x * x)
        with pytest.raises(TypeError) as e:
            tf.gradients(y, x)
        gx = tf.gradients(y, x, grad_ys=tf.ones_like(y))[0]
    assert str(e.value) == ('Gradients of complex tensors (Tensor("Sum:0", shape=(), dtype=complex64)) must set '
                            'grad_ys (y.dtype = complex64)')
    assert gx.dtype == tf.complex64
