"""tf.GradientTape semantics (TF 2.x is the spec): watching, persistence, nesting, structures, errors."""
import logging
import threading

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.framework import gradient_registry


def close(t, want):
    np.testing.assert_allclose(t.numpy(), want, rtol=1e-6)


# --- watching ---------------------------------------------------------------------------------------
def test_watch_tensor():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    close(t.gradient(y, x), 6.0)


def test_unwatched_tensor_gives_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        y = x * x
    assert t.gradient(y, x) is None


def test_trainable_variable_watched_on_read():
    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    g = tape.gradient(loss, w)
    assert str(g) == "tf.Tensor([[2.]], shape=(1, 1), dtype=float32)"


def test_non_trainable_variable_not_watched():
    v = tf.Variable(2.0)
    w = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as t:
        y = v * w
    assert t.watched_variables() == (v,)
    gv, gw = t.gradient(y, [v, w])
    close(gv, 3.0)
    assert gw is None


def test_watch_non_trainable_variable_explicitly():
    v = tf.Variable(2.0)
    w = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as t:
        t.watch(w)
        y = v * w
    g = t.gradient(y, {"v": v, "w": w})
    close(g["v"], 3.0)
    close(g["w"], 2.0)


def test_watch_accessed_variables_false():
    v = tf.Variable(2.0)
    u = tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False) as t:
        t.watch(u)
        y = v * u
    assert t.gradient(y, v) is None
    assert t.watched_variables() == (u,)


def test_watch_structure_and_bad_object():
    a, b = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch({"a": a, "b": [b]})
        y = a * b
    ga, gb = t.gradient(y, (a, b))
    close(ga, 2.0)
    close(gb, 1.0)
    with tf.GradientTape() as t:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
            t.watch("x")


def test_watch_int_tensor_warns_and_gives_none(caplog):
    x = tf.constant(3)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
    assert "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32" in caplog.text
    assert t.gradient(y, x) is None


def test_variable_read_before_tape_is_a_constant():
    v = tf.Variable(3.0)
    a = v.read_value()  # read outside the tape: a constant for it
    with tf.GradientTape() as t:
        y = a * v
    close(t.gradient(y, v), 3.0)


def test_multiple_uses_sum():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x + x + tf.identity(x) * 3.0
    close(t.gradient(y, x), 2 * 2.0 + 1 + 3)


def test_intermediate_source():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2.0
        z = y * y
    close(t.gradient(z, y), 12.0)
    gx, gy = t.gradient(z, [x, y])
    close(gx, 24.0)
    close(gy, 12.0)


def test_same_source_twice():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    g = t.gradient(y, [x, x])
    close(g[0], 6.0)
    close(g[1], 6.0)


def test_target_is_source():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
    close(t.gradient(x, x), [1.0, 1.0])


# --- persistence and reuse ---------------------------------------------------------------------------
def test_non_persistent_second_call_raises():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    t.gradient(y, x)
    with pytest.raises(RuntimeError, match=r"^A non-persistent GradientTape can only be used to compute one set of "
                                           r"gradients \(or jacobians\)$"):
        t.gradient(y, x)


def test_persistent_tape():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        z = y * y
    close(t.gradient(z, x), 4 * 27.0)
    close(t.gradient(y, x), 6.0)
    del t


def test_gradient_inside_context_stops_non_persistent_recording():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        g = t.gradient(y, x)
        assert _core.tape_depth() == 0
    close(g, 6.0)


def test_persistent_gradient_inside_context_warns_and_records(caplog):
    x = tf.constant(3.0)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * x * x
            g = t.gradient(y, x)  # 3x^2, recorded on t itself
    from eagerflow.eager import backprop
    assert backprop._warned_persistent
    close(g, 27.0)
    close(t.gradient(g, x), 18.0)


def test_reset():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        t.reset()
        t.watch(x)
        z = x * 5.0
    assert t.gradient(z, x).numpy() == 5.0


def test_reset_forgets_earlier_ops():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        t.reset()
    assert t.gradient(y, x) is None


def test_stop_recording():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        with t.stop_recording():
            z = y * y
            assert _core.tape_depth() == 0
        w = y * 2.0
    assert t.gradient([z, w], x).numpy() == 12.0  # z is constant to the tape


def test_stop_recording_requires_recording():
    with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not recording."):
        with tf.GradientTape().stop_recording():
            pass


def test_tape_depth_is_zero_outside():
    with tf.GradientTape():
        with tf.GradientTape():
            assert _core.tape_depth() == 2
        assert _core.tape_depth() == 1
    assert _core.tape_depth() == 0


def test_reenter_active_tape_raises():
    t = tf.GradientTape()
    with t:
        with pytest.raises(ValueError, match="Tape is still recording"):
            t.__enter__()


def test_persistent_tape_reentered_continues():
    x = tf.constant(2.0)
    t = tf.GradientTape(persistent=True)
    with t:
        t.watch(x)
        y = x * x
    with t:
        z = y * x
    close(t.gradient(z, x), 12.0)


# --- higher-order gradients -------------------------------------------------------------------------
def test_nested_tapes_second_derivative():
    x = tf.constant(3.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = x * x * x
        dy = t1.gradient(y, x)
    d2y = t2.gradient(dy, x)
    close(dy, 27.0)
    close(d2y, 18.0)


def test_third_derivative_of_variable():
    v = tf.Variable(2.0)
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = tf.sin(v) * v
            g1 = t1.gradient(y, v)
        g2 = t2.gradient(g1, v)
    g3 = t3.gradient(g2, v)
    x = 2.0
    close(g1, np.cos(x) * x + np.sin(x))
    close(g2, -np.sin(x) * x + 2 * np.cos(x))
    close(g3, -np.cos(x) * x - 3 * np.sin(x))


# --- targets, sources, output gradients -------------------------------------------------------------
def test_list_target_is_summed():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        z = y * 2.0
    close(t.gradient([y, z], x), 18.0)


def test_nested_sources_structure():
    x, v = tf.constant(1.0), tf.Variable(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * v
    g = t.gradient(y, {"a": x, "b": [v, (x,)]})
    assert set(g) == {"a", "b"}
    close(g["a"], 2.0)
    close(g["b"][0], 1.0)
    assert isinstance(g["b"][1], tuple)
    close(g["b"][1][0], 2.0)


def test_output_gradients():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * tf.ones([2])
    close(t.gradient(y, x, output_gradients=tf.constant([1.0, 2.0])), 3.0)


def test_output_gradients_shape_mismatch():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * tf.ones([2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes"):
        t.gradient(y, x, output_gradients=tf.ones([3]))


def test_broadcast_gradient_reduced_to_input_shape():
    x = tf.constant([[1.0], [2.0]])
    b = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch([x, b])
        y = x * b
    gx, gb = t.gradient(y, [x, b])
    close(gx, [[6.0], [6.0]])
    close(gb, [3.0, 3.0, 3.0])


def test_unconnected_gradients():
    x, z = tf.constant(2.0), tf.constant([1.0, 2.0])
    v = tf.Variable([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, z])
        y = x * 2.0
    assert t.gradient(y, z) is None
    close(t.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO), [0.0, 0.0])
    close(t.gradient(y, v, unconnected_gradients="zero"), [[0.0, 0.0]])
    assert t.gradient(y, z, unconnected_gradients="none") is None
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'bad'"):
        t.gradient(y, z, unconnected_gradients="bad")
    assert tf.UnconnectedGradients.ZERO.value == "zero"


def test_integer_target_and_path_give_none():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.int32)
    assert t.gradient(y, x) is None


def test_non_tensor_target_and_sources():
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
    with pytest.raises(AttributeError, match="'float' object has no attribute 'dtype'"):
        t.gradient(3.0, x)
    with pytest.raises(AttributeError, match="'float' object has no attribute 'dtype'"):
        t.gradient(y, 3.0)
    with pytest.raises(TypeError):
        t.gradient(y, None)


def test_missing_gradient_function_is_lookup_error():
    f = gradient_registry._GRADIENTS.pop("Exp")
    try:
        x = tf.constant(1.0)
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.exp(x) * 2.0
        with pytest.raises(LookupError, match="gradient registry has no entry for: Exp"):
            t.gradient(y, x)
        # An op with no registered gradient off the path is fine.
        with tf.GradientTape() as t:
            t.watch(x)
            tf.exp(x)
            y = x * 2.0
        close(t.gradient(y, x), 2.0)
    finally:
        gradient_registry._GRADIENTS["Exp"] = f


def test_register_gradient_and_no_gradient_exported():
    assert tf.RegisterGradient is gradient_registry.RegisterGradient
    assert tf.no_gradient is gradient_registry.no_gradient
    with pytest.raises(KeyError, match="Registering two gradient with name 'Exp'"):
        tf.RegisterGradient("Exp")(lambda op, g: [g])


def test_gradient_function_sees_op_view():
    seen = {}
    f = gradient_registry._GRADIENTS["Sum"]

    def spy(op, grad):
        seen.update(type=op.type, keep=op.get_attr("keep_dims"), inputs=len(op.inputs), outputs=len(op.outputs))
        with pytest.raises(ValueError, match="has no attr named 'nope'"):
            op.get_attr("nope")
        return f(op, grad)
    gradient_registry._GRADIENTS["Sum"] = spy
    try:
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(x, keepdims=True)
        close(t.gradient(y, x), [1.0, 1.0])
    finally:
        gradient_registry._GRADIENTS["Sum"] = f
    assert seen == {"type": "Sum", "keep": True, "inputs": 2, "outputs": 1}
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(x, tf.float64)
    entry = t._tape.entries()[0]
    from eagerflow.eager.backprop import _OpView
    assert _OpView(entry).get_attr("DstT") == tf.float64


# --- jacobians ---------------------------------------------------------------------------------------
def test_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    j = t.jacobian(y, x)
    close(j, np.diag([2.0, 4.0, 6.0]))


def test_jacobian_matrix_and_variable():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    x = tf.constant([1.0, -1.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.reduce_sum(v * x, axis=1)  # v @ x
    jx, jv = t.jacobian(y, [x, v])
    close(jx, v.numpy())
    want = np.zeros((2, 2, 2))
    want[0, 0] = [1.0, -1.0]
    want[1, 1] = [1.0, -1.0]
    close(jv, want)
    z = tf.constant(1.0)
    assert t.jacobian(y, z) is None
    close(t.jacobian(y, z, unconnected_gradients="zero"), [0.0, 0.0])


def test_batch_jacobian():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    w = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    j = t.batch_jacobian(y, x)
    assert j.shape == (3, 3, 2)
    xs = x.numpy()
    want = np.stack([(1 - np.tanh(xs[b] @ w.numpy()) ** 2)[:, None] * w.numpy().T for b in range(3)])
    np.testing.assert_allclose(j.numpy(), want, rtol=1e-5, atol=1e-6)


def test_jacobian_non_persistent_once():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * 3.0
    t.jacobian(y, x)
    with pytest.raises(RuntimeError, match="non-persistent"):
        t.jacobian(y, x)


# --- custom gradients and stop_gradient -------------------------------------------------------------
def test_stop_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * tf.stop_gradient(x)
    close(t.gradient(y, x), 3.0)
    close(tf.stop_gradient(x), 3.0)


def test_custom_gradient_clip():
    @tf.custom_gradient
    def clip_gradient_by_norm(x, norm):
        y = tf.identity(x)

        def grad_fn(dresult):
            return [tf.clip_by_norm(dresult, norm), None]
        return y, grad_fn
    x = tf.constant([3.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clip_gradient_by_norm(x, 1.0)
        loss = tf.reduce_sum(y * y)
    close(tape.gradient(loss, x), [0.6, 0.8])


def test_custom_gradient_log1pexp():
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(dy):
            return dy * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    for v, want in [(0.0, 0.5), (100.0, 1.0)]:
        x = tf.constant(v)
        with tf.GradientTape() as t:
            t.watch(x)
            y = log1pexp(x)
        assert t.gradient(y, x).numpy() == want
    assert log1pexp(tf.constant(0.0)).numpy() == pytest.approx(np.log(2.0))  # no tape: plain call


def test_custom_gradient_multiple_outputs_and_variables():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        def grad(da, db, variables=None):
            return da * 10.0 + db, [da * 100.0]
        return (x * v, x + 1.0), grad
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        a, b = f(x)
        y = a + b
    gx, gv = t.gradient(y, [x, v])
    close(gx, 11.0)
    close(gv, 100.0)


def test_custom_gradient_with_variables_needs_keyword():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy: dy
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        with pytest.raises(TypeError, match="grad_fn must accept a keyword argument 'variables'"):
            f(x)


def test_custom_gradient_wrong_count():
    @tf.custom_gradient
    def f(x, y):
        return x * y, lambda dy: dy
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        z = f(x, 2.0)
    with pytest.raises(ValueError, match="expected to return 2 gradients"):
        t.gradient(z, x)


def test_custom_gradient_second_order():
    @tf.custom_gradient
    def square(x):
        return x * x, lambda dy: dy * 2.0 * x
    x = tf.constant(3.0)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = square(x)
        g = t1.gradient(y, x)
    close(g, 6.0)
    close(t2.gradient(g, x), 2.0)


# --- graphs: a tape inside tf.function ---------------------------------------------------------------
def test_tape_inside_function():
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(x * x * v)
        return t.gradient(y, [x, v])
    gx, gv = f(tf.constant([3.0, 4.0]))
    close(gx, [6.0, 16.0])
    close(gv, [9.0, 16.0])
    gx, gv = f(tf.constant([1.0, 1.0]))
    close(gx, [2.0, 4.0])
    v.assign([2.0, 2.0])
    gx, gv = f(tf.constant([1.0, 1.0]))  # the graph reads the variable live
    close(gx, [4.0, 4.0])
    close(gv, [1.0, 1.0])


def test_train_step_in_function():
    w = tf.Variable([[0.5], [-0.5]])
    b = tf.Variable([0.0])
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
    y = tf.constant([[1.0], [2.0], [0.0]])

    def step():
        with tf.GradientTape() as t:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        gw, gb = t.gradient(loss, [w, b])
        w.assign_sub(0.05 * gw)
        b.assign_sub(0.05 * gb)
        return loss
    compiled = tf.function(step)
    w0, b0 = w.numpy(), b.numpy()
    eager_losses = [float(step()) for _ in range(5)]
    w.assign(w0)
    b.assign(b0)
    graph_losses = [float(compiled()) for _ in range(5)]
    np.testing.assert_allclose(graph_losses, eager_losses, rtol=1e-5)
    assert graph_losses[-1] < graph_losses[0]


def test_higher_order_inside_function():
    @tf.function
    def f(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = x * x * x
            g = t1.gradient(y, x)
        return t2.gradient(g, x)
    close(f(tf.constant(2.0)), 12.0)
    close(f(tf.constant(3.0)), 18.0)


def test_custom_gradient_inside_function():
    @tf.custom_gradient
    def clip(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -1.0, 1.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(clip(x) * 5.0)
        return t.gradient(y, x)
    close(f(tf.constant([1.0, 2.0])), [1.0, 1.0])


def test_eager_tape_does_not_record_graph_building():
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch(x)
        g = tf.Graph()
        with g.as_default():
            tf.constant(1.0) * 2.0
        y = x * 2.0
    assert t._tape.num_entries() == 1
    close(t.gradient(y, x), 2.0)


# --- threads ------------------------------------------------------------------------------------------
def test_tapes_are_thread_local():
    x = tf.constant(2.0)
    out = {}

    def other():
        out["depth"] = _core.tape_depth()
        out["y"] = x * x
    with tf.GradientTape() as t:
        t.watch(x)
        th = threading.Thread(target=other)
        th.start()
        th.join()
    assert out["depth"] == 0
    assert t.gradient(out["y"], x) is None


def test_jacobians_inside_function():
    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as t:
            t.watch(x)
            y = tf.tanh(x) * 2.0
        return t.jacobian(y, x), t.batch_jacobian(y, x)
    x = np.array([[1.0, 2.0], [0.5, 0.1]], np.float32)
    j, bj = f(tf.constant(x))
    d = 2.0 * (1 - np.tanh(x) ** 2)
    want = np.zeros((2, 2, 2, 2), np.float32)
    for i in range(2):
        for k in range(2):
            want[i, k, i, k] = d[i, k]
    np.testing.assert_allclose(j.numpy(), want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(bj.numpy(), np.stack([np.diag(d[0]), np.diag(d[1])]), rtol=1e-5, atol=1e-7)


def test_variable_argument_and_module_inside_function():
    v = tf.Variable(3.0)

    @tf.function
    def f(v):
        with tf.GradientTape() as t:
            y = v * v
        return t.gradient(y, v)
    close(f(v), 6.0)

    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([1.0, 2.0])

        @tf.function
        def __call__(self, x):
            with tf.GradientTape() as t:
                y = tf.reduce_sum(self.w * x)
            return t.gradient(y, self.trainable_variables)
    (g,) = M()(tf.constant([3.0, 4.0]))
    close(g, [3.0, 4.0])


def test_unwatched_source_of_a_recorded_op_gets_none_like_tf():
    v = tf.Variable(2.0)
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as tape:
        y = v * v * x
    assert tape.gradient(y, x) is None
    assert float(tape.gradient(y, v)) == 12.0
    assert float(tape.gradient(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)) == 0.0


def test_source_that_is_a_target_gets_its_output_gradient():
    # TF 2.21: a source that is also a target gets the target's output gradient, watched or not.
    v0, v1 = tf.Variable(2.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        result = v0
    dv0, dv1 = tape.gradient(result, [v0, v1])
    assert dv0.numpy() == 1.0 and dv1 is None
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        result = v0
    assert tape.gradient(result, v0).numpy() == 1.0
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(x, x).numpy() == 1.0
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    assert tape.gradient([y, x], x).numpy() == 3.0
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(tf.Variable(1, trainable=False), v0) is None


def test_wrong_number_of_gradients_is_tf_internal_error():
    # TF's tape words both directions "too few" (eagerly and in tf.function).
    f = gradient_registry._GRADIENTS["AddV2"]
    gradient_registry._GRADIENTS["AddV2"] = lambda op, grad: [grad]
    try:
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(x)
            y = x + x
        with pytest.raises(tf.errors.InternalError,
                           match=r"^Recorded operation 'AddV2' returned too few gradients. Expected 2 but received 1$"):
            t.gradient(y, x)

        @tf.function
        def traced(x):
            with tf.GradientTape() as t:
                t.watch(x)
                y = x + x
            return t.gradient(y, x)
        with pytest.raises(tf.errors.InternalError, match="returned too few gradients. Expected 2 but received 1"):
            traced(x)
    finally:
        gradient_registry._GRADIENTS["AddV2"] = f
