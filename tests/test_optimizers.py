"""tf.keras.optimizers SGD and Adam: updates against NumPy references (Keras 3 formulas), eagerly and in
tf.function; slot variables made on the first apply; TF's singleton-variable rule across optimizers."""
import logging

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import eagerflow as tf

GRADS = [np.array([0.5, -1.0], np.float32), np.array([0.1, 2.0], np.float32),
         np.array([-3.0, 0.0], np.float32), np.array([1e-3, -4.0], np.float32)]
W0 = np.array([1.0, -2.0], np.float32)


# --- NumPy references (the update rules of Keras 3's sgd.py / adam.py) -------------------------------
def sgd_ref(grads, w, lr, momentum=0.0, nesterov=False, dtype=np.float32):
    w, m = w.astype(dtype), np.zeros_like(w, dtype)
    lr, mo = dtype(lr), dtype(momentum)
    for g in grads:
        g = g.astype(dtype)
        if momentum:
            m = m * mo - g * lr
            w = w + (m * mo - g * lr if nesterov else m)
        else:
            w = w - g * lr
    return w, m


def adam_ref(grads, w, lr=0.001, b1=0.9, b2=0.999, eps=1e-7, amsgrad=False, dtype=np.float32):
    w = w.astype(dtype)
    m, v, vh = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    lr, b1, b2 = dtype(lr), dtype(b1), dtype(b2)
    for t, g in enumerate(grads, 1):
        g = g.astype(dtype)
        alpha = lr * np.sqrt(1 - b2 ** dtype(t)) / (1 - b1 ** dtype(t))
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        vh = np.maximum(vh, v)
        w = w - m * alpha / (np.sqrt(vh if amsgrad else v) + dtype(eps))
    return w, m, v


def _run(opt, grads, w, compiled):
    step = (lambda g: opt.apply_gradients([(g, w)]))
    if compiled:
        step = tf.function(step)
    for g in grads:
        step(tf.constant(g, dtype=w.dtype))


# --- update rules ------------------------------------------------------------------------------------
@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("momentum,nesterov", [(0.0, False), (0.9, False), (0.5, True), (1.0, True)])
def test_sgd_matches_numpy(compiled, momentum, nesterov):
    w = tf.Variable(W0)
    opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=momentum, nesterov=nesterov)
    _run(opt, GRADS, w, compiled)
    want_w, want_m = sgd_ref(GRADS, W0, 0.1, momentum, nesterov)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-6)
    assert opt.iterations.numpy() == len(GRADS) and opt.iterations.dtype == tf.int64
    if momentum:
        np.testing.assert_allclose(opt.variables[1].numpy(), want_m, rtol=1e-6)
    else:
        assert len(opt.variables) == 1  # the iteration counter; no slot variables without momentum


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("amsgrad", [False, True])
def test_adam_matches_numpy(compiled, amsgrad):
    w = tf.Variable(W0)
    opt = tf.keras.optimizers.Adam(learning_rate=0.1, amsgrad=amsgrad)
    _run(opt, GRADS, w, compiled)
    want_w, want_m, want_v = adam_ref(GRADS, W0, 0.1, amsgrad=amsgrad)
    np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-5)
    np.testing.assert_allclose(opt.variables[1].numpy(), want_m, rtol=1e-5)
    np.testing.assert_allclose(opt.variables[2].numpy(), want_v, rtol=1e-4)  # float32 rounding of 1 - beta_2


def test_adam_known_values_from_tensorflow():
    # TF 2.21 (Keras 3) after three amsgrad steps from [1, -2] with lr 0.1.
    w = tf.Variable(W0)
    opt = tf.keras.optimizers.Adam(0.1, amsgrad=True)
    for g in GRADS[:3]:
        opt.apply_gradients([(tf.constant(g), w)])
    np.testing.assert_allclose(w.numpy(), [0.87228644, -1.9648966], rtol=1e-6)


def test_adam_bias_correction_first_step_is_lr_times_sign():
    # With bias correction, the first Adam step moves each weight by about lr * sign(g).
    w = tf.Variable([0.0, 0.0, 0.0])
    tf.keras.optimizers.Adam(0.01).apply_gradients([(tf.constant([5.0, -0.2, 0.1]), w)])
    np.testing.assert_allclose(w.numpy(), [-0.01, 0.01, -0.01], rtol=1e-3)


@pytest.mark.parametrize("make", [lambda: tf.keras.optimizers.SGD(0.1, momentum=0.9),
                                  lambda: tf.keras.optimizers.Adam(0.1)])
def test_float64_variables_keep_their_dtype(make):
    w = tf.Variable(W0.astype(np.float64))
    opt = make()
    _run(opt, GRADS, w, compiled=False)
    assert w.dtype == tf.float64
    assert all(v.dtype == tf.float64 for v in opt.variables[2:])
    assert opt.learning_rate.dtype == tf.float32
    # TF 2.21's values: Python-float hyperparameters become float32 before the cast to float64, as in Keras.
    want = [0.91534365, -1.92547465] if isinstance(opt, tf.keras.optimizers.Adam) else [1.37085001, -1.7981]
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-8)


def test_adam_float32_known_values_from_tensorflow():
    w = tf.Variable(W0)
    opt = tf.keras.optimizers.Adam(0.1)
    _run(opt, GRADS, w, compiled=True)
    np.testing.assert_allclose(w.numpy(), [0.91534394, -1.9254748], rtol=1e-6)


def test_several_variables_and_scalars():
    w, b = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w"), tf.Variable(0.5, name="b")
    opt = tf.keras.optimizers.SGD(0.1)
    for _ in range(3):
        opt.apply_gradients(zip([tf.ones([2, 2]), tf.constant(2.0)], [w, b]))
    np.testing.assert_allclose(w.numpy(), [[0.7, 1.7], [2.7, 3.7]], rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), -0.1, atol=1e-6)


def test_apply_with_separate_lists_and_without_variables():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.5, momentum=0.5)
    opt.apply([tf.constant([1.0, 1.0])], [w])
    opt.apply([tf.constant([1.0, 1.0])])  # built: the variables it was built with
    np.testing.assert_allclose(w.numpy(), [1.0 - 0.5 - 0.75, 2.0 - 0.5 - 0.75])
    with pytest.raises(ValueError, match="must already be built"):
        tf.keras.optimizers.SGD(0.1).apply([tf.constant(1.0)])


def test_apply_gradients_returns_iterations_and_empty_apply_is_noop():
    w = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1)
    step = opt.apply_gradients([(tf.constant(1.0), w)])  # Keras 2: the counter's updated value
    assert repr(step) == "<tf.Variable 'UnreadVariable' shape=() dtype=int64, numpy=1>"
    opt.apply([], [])
    assert opt.iterations.numpy() == 1
    with pytest.raises(ValueError):
        opt.apply_gradients([])  # zip(*[]) cannot unpack, as in Keras


# --- learning rate -----------------------------------------------------------------------------------
def test_learning_rate_is_a_variable_read_by_traced_steps():
    w = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1)
    step = tf.function(lambda: opt.apply_gradients([(tf.constant(1.0), w)]))
    step()
    opt.learning_rate = 0.5  # assigns the variable: the traced step sees it without retracing
    step()
    np.testing.assert_allclose(w.numpy(), 0.4, rtol=1e-6)
    assert step.experimental_get_tracing_count() == 1
    assert opt.learning_rate.numpy() == np.float32(0.5)
    assert opt.learning_rate.name == "learning_rate:0"


def test_callable_and_schedule_learning_rates():
    w = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(learning_rate=lambda: 0.3)
    assert opt.learning_rate == 0.3 and len(opt.variables) == 1
    opt.apply_gradients([(tf.constant(1.0), w)])
    np.testing.assert_allclose(w.numpy(), 0.7, rtol=1e-6)
    sched = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = tf.keras.optimizers.SGD(learning_rate=sched)
    v = tf.Variable(0.0)
    for _ in range(3):
        opt.apply_gradients([(tf.constant(1.0), v)])
    np.testing.assert_allclose(v.numpy(), -(0.1 + 0.05 + 0.025), rtol=1e-6)
    with pytest.raises(TypeError, match="not settable"):
        opt.learning_rate = 0.1


@pytest.mark.parametrize("lr, want", [(1, 1.0), (0, 0.0), (True, 1.0), (np.float32(0.1), 0.10000000149011612)])
def test_learning_rate_numbers(lr, want):
    assert float(tf.keras.optimizers.SGD(learning_rate=lr).learning_rate) == want  # as tf_keras


def test_learning_rate_string_is_refused():
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype float"):
        tf.keras.optimizers.SGD(learning_rate="x")


@pytest.mark.parametrize("momentum", [-1.0, 1.5, 1, 0])
def test_sgd_momentum_validation(momentum):
    with pytest.raises(ValueError, match=r"`momentum` must be a float between \[0, 1\]."):
        tf.keras.optimizers.SGD(momentum=momentum)


def test_unknown_arguments_and_clip_conflicts():
    with pytest.raises(TypeError, match="foo is not a valid argument, kwargs should be empty  for "
                                        "`optimizer_experimental.Optimizer`."):
        tf.keras.optimizers.SGD(foo=0.1)
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm`"):
        tf.keras.optimizers.Adam(clipnorm=1.0, global_clipnorm=1.0)


def test_defaults_and_config():
    adam = tf.keras.optimizers.Adam()
    assert (adam.beta_1, adam.beta_2, adam.epsilon, adam.amsgrad) == (0.9, 0.999, 1e-7, False)
    np.testing.assert_allclose(adam.learning_rate.numpy(), 0.001)
    sgd = tf.keras.optimizers.SGD()
    np.testing.assert_allclose(sgd.learning_rate.numpy(), 0.01)
    cfg = sgd.get_config()
    assert cfg["momentum"] == 0.0 and cfg["nesterov"] is False and cfg["name"] == sgd.name
    assert tf.keras.optimizers.SGD(name="SGD").name == "SGD"
    assert isinstance(tf.keras.optimizers.get("adam"), tf.keras.optimizers.Adam)


def test_names_are_the_class_names():
    assert tf.keras.optimizers.Adam().name == tf.keras.optimizers.Adam().name == "Adam"  # Keras 2
    assert tf.keras.optimizers.SGD().name == "SGD" and tf.keras.optimizers.Adam(name="myadam").name == "myadam"


# --- clipping and weight decay (values from TF 2.21) -------------------------------------------------
def test_clipnorm_clipvalue_weight_decay_global_clipnorm():
    w = tf.Variable([3.0, 4.0])
    tf.keras.optimizers.SGD(1.0, clipnorm=1.0).apply_gradients([(tf.constant([3.0, 4.0]), w)])
    np.testing.assert_allclose(w.numpy(), [2.4, 3.2], rtol=1e-6)
    tf.keras.optimizers.SGD(1.0, clipvalue=0.5).apply_gradients([(tf.constant([3.0, -4.0]), w)])
    np.testing.assert_allclose(w.numpy(), [1.9, 3.7], rtol=1e-6)
    tf.keras.optimizers.SGD(1.0, weight_decay=0.1).apply_gradients([(tf.constant([0.0, 0.0]), w)])
    np.testing.assert_allclose(w.numpy(), [1.71, 3.33], rtol=1e-6)
    w2 = tf.Variable([1.0])
    tf.keras.optimizers.SGD(1.0, global_clipnorm=1.0).apply_gradients(
        [(tf.constant([3.0, 4.0]), w), (tf.constant([12.0]), w2)])
    np.testing.assert_allclose(w.numpy(), [1.4792308, 3.0223076], rtol=1e-6)
    np.testing.assert_allclose(w2.numpy(), [0.07692301], rtol=1e-5)


def test_global_clipnorm_over_gradients_of_two_float_dtypes():
    # TF's clip_by_global_norm refuses mixed dtypes; eagerflow's optimizer takes the norm in float32
    w, w64 = tf.Variable([3.0, 4.0]), tf.Variable([1.0], dtype=tf.float64)
    tf.keras.optimizers.SGD(1.0, global_clipnorm=1.0).apply_gradients(
        [(tf.constant([3.0, 4.0]), w), (tf.constant([12.0], tf.float64), w64)])
    np.testing.assert_allclose(w.numpy(), np.array([3.0, 4.0]) * (1 - 1 / 13), rtol=1e-6)
    assert w64.dtype == tf.float64
    np.testing.assert_allclose(w64.numpy(), [1 - 12 / 13], rtol=1e-6)


# --- variables: made on the first apply, named like Keras ---------------------------------------------
def test_slot_variables_created_on_first_apply_in_keras_order():
    w, b = tf.Variable([1.0, 2.0], name="w"), tf.Variable(0.5)
    opt = tf.keras.optimizers.Adam(0.1, amsgrad=True)
    assert [v.name for v in opt.variables()] == ["iteration:0"]  # callable, as Keras 2's CallableList
    assert opt.iterations.trainable is False and opt.iterations.name == "iteration:0"
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w), (tf.constant(1.0), b)])
    assert [v.name for v in opt.variables] == [
        "iteration:0", "Adam/m/w:0", "Adam/v/w:0", "Adam/m/Variable:0", "Adam/v/Variable:0", "Adam/vhat/w:0",
        "Adam/vhat/Variable:0"]
    assert opt.variables[1].shape == (2,) and opt.variables[3].shape == ()
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    assert len(opt.variables) == 7  # nothing new on later applies


def test_slot_names_of_scoped_variables():
    w = tf.Variable([1.0], name="a/b")
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9, name="sgd")
    opt.apply_gradients([(tf.constant([1.0]), w)])
    assert opt.variables[1].name == "sgd/m/a/b:0"  # as tf_keras


def test_variables_are_tf_variables():
    opt = tf.keras.optimizers.SGD(0.1, name="sgd")
    with tf.name_scope("outer"):  # Keras 2 names its variables exactly, whatever the enclosing scope
        opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0, name="v"))])
    assert repr(opt.iterations) == "<tf.Variable 'iteration:0' shape=() dtype=int64, numpy=1>"
    assert repr(opt.learning_rate) == ("<tf.Variable 'learning_rate:0' shape=() dtype=float32, "
                                       "numpy=0.10000000149011612>")


def test_unknown_variable_after_build():
    w, c = tf.Variable([1.0, 1.0]), tf.Variable(3.0, name="c")
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    with pytest.raises(ValueError, match="Unknown variable: <tf.Variable 'c:0'.*This optimizer can only be called"):
        opt.apply_gradients([(tf.constant(1.0), c)])


def test_unread_variable_counts_as_its_variable():
    w = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
    opt.apply_gradients([(tf.constant(1.0), w)])
    opt.apply_gradients([(tf.constant(1.0), w.assign(1.0))])  # assign returns an _UnreadVariable view
    np.testing.assert_allclose(w.numpy(), 1.0 - 0.19, rtol=1e-6)


# --- None gradients ----------------------------------------------------------------------------------
def test_none_gradients_skipped_with_warning():
    w, b = tf.Variable(1.0, name="w"), tf.Variable(2.0, name="b")
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.5)
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("tensorflow").addHandler(handler)
    try:
        opt.apply_gradients([(None, w), (tf.constant(1.0), b)])
    finally:
        logging.getLogger("tensorflow").removeHandler(handler)
    assert [(r.levelname, r.getMessage()) for r in records] == [(
        "WARNING", "Gradients do not exist for variables ['w:0'] when minimizing the loss. If you're using "
        "`model.compile()`, did you forget to provide a `loss` argument?")]
    assert w.numpy() == 1.0 and np.isclose(b.numpy(), 1.9)
    assert len(opt.variables) == 3  # built for both variables
    with pytest.raises(ValueError, match=r"^No gradients provided for any variable: \(\['w:0'\],\). Provided "
                                         r"`grads_and_vars` is \(\(None, <tf.Variable 'w:0' shape=\(\) "
                                         r"dtype=float32, numpy=1.0>\),\).$"):
        opt.apply_gradients([(None, w)])
    assert opt.iterations.numpy() == 1


# --- tf.function: the singleton-variable rule (guide F-51) and its workaround (F-52) -------------------
def _grad(w, x, y):
    # d/dw sum((w*x - y)^2), by hand (no tape needed)
    return tf.reduce_sum(2.0 * (w * x - y) * x)


def test_second_optimizer_in_later_trace_raises_singleton_error():
    opt1, opt2 = tf.keras.optimizers.Adam(learning_rate=1e-2), tf.keras.optimizers.Adam(learning_rate=1e-3)

    @tf.function
    def train_step(w, x, y, optimizer):
        optimizer.apply_gradients(zip([_grad(w, x, y)], [w]))

    w, x, y = tf.Variable(2.0), tf.constant([-1.0]), tf.constant([2.0])
    train_step(w, x, y, opt1)
    train_step(w, x, y, opt1)
    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables created on the first "
                                         "call. Make sure the tf.Variable is only created once or created outside "
                                         "tf.function."):
        train_step(w, x, y, opt2)
    assert opt1.iterations.numpy() == 2


def test_optimizer_without_slots_needs_no_new_variables():
    # SGD without momentum has no slot variables: a second one in a later trace is fine (as in TF).
    @tf.function
    def step(w, optimizer):
        optimizer.apply_gradients([(tf.constant(1.0), w)])

    w = tf.Variable(1.0)
    step(w, tf.keras.optimizers.SGD(0.1))
    step(w, tf.keras.optimizers.SGD(0.2))
    np.testing.assert_allclose(w.numpy(), 0.7, rtol=1e-6)


def test_variables_in_non_first_trace_when_first_made_none():
    @tf.function
    def step(w, optimizer):
        if optimizer is not None:
            optimizer.apply_gradients([(tf.constant(1.0), w)])

    w = tf.Variable(1.0)
    step(w, None)
    with pytest.raises(ValueError, match="Creating variables on a non-first call to a function decorated with "
                                         "tf.function.$"):
        step(w, tf.keras.optimizers.Adam())


def test_per_optimizer_concrete_functions_f52():
    opt1, opt2 = tf.keras.optimizers.Adam(learning_rate=1e-2), tf.keras.optimizers.Adam(learning_rate=1e-3)

    def train_step(w, x, y, optimizer):
        optimizer.apply_gradients(zip([_grad(w, x, y)], [w]))

    w, x, y = tf.Variable(2.0), tf.constant([-1.0]), tf.constant([2.0])
    train_step_1 = tf.function(train_step).get_concrete_function(w, x, y, opt1)
    train_step_2 = tf.function(train_step).get_concrete_function(w, x, y, opt2)
    for i in range(10):
        (train_step_1 if i % 2 == 0 else train_step_2)(w, x, y)
    # NumPy: alternate the two Adams (each with its own moments and step count)
    state = {1: [0.0, 0.0, 0], 2: [0.0, 0.0, 0]}
    wv = np.float32(2.0)
    for i in range(10):
        k, lr = (1, 1e-2) if i % 2 == 0 else (2, 1e-3)
        m, v, t = state[k]
        g = np.float32(2 * (wv * -1 - 2) * -1)
        t += 1
        m = m + (g - m) * 0.1
        v = v + (g * g - v) * 0.001
        wv = wv - m * (lr * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)) / (np.sqrt(v) + 1e-7)
        state[k] = [m, v, t]
    np.testing.assert_allclose(w.numpy(), wv, rtol=1e-5)
    assert 1.94 < w.numpy() < 1.95
    assert opt1.iterations.numpy() == 5 and opt2.iterations.numpy() == 5


def test_slots_created_inside_first_trace_are_lifted():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)

    @tf.function
    def step(g):
        return opt.apply_gradients([(g, w)])

    assert step(tf.constant([1.0, 1.0])).numpy() == 1
    assert step(tf.constant([1.0, 1.0])).numpy() == 2
    assert not opt.variables[1].numpy().__class__.__name__.startswith("Symbolic")
    want = sgd_ref([np.ones(2, np.float32)] * 2, np.array([1.0, 2.0], np.float32), 0.1, 0.9)[0]
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-6)


# --- property: any gradients, learning rate and momentum ----------------------------------------------
_floats = st.floats(-10, 10, width=32)


@given(grads=st.lists(hnp.arrays(np.float32, 3, elements=_floats), min_size=1, max_size=4),
       lr=st.sampled_from([0.001, 0.01, 0.1, 1.0]), momentum=st.sampled_from([0.0, 0.5, 0.9]),
       nesterov=st.booleans(), adam=st.booleans())
def test_property_updates_match_numpy(grads, lr, momentum, nesterov, adam):
    w0 = np.array([0.5, -1.0, 2.0], np.float32)
    w = tf.Variable(w0)
    opt = tf.keras.optimizers.Adam(lr) if adam else tf.keras.optimizers.SGD(lr, momentum=momentum,
                                                                            nesterov=nesterov)
    for g in grads:
        opt.apply_gradients([(tf.constant(g), w)])
    want = adam_ref(grads, w0, lr)[0] if adam else sgd_ref(grads, w0, lr, momentum, nesterov)[0]
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-4, atol=1e-4)  # float32 1 - beta_2**t cancels: ~1e-5 at lr=1
