"""RMSprop, Adagrad, gradient clipping and learning-rate schedules: three updates of two variables
compared with tf_keras (values recorded from TF 2.21 with tf_keras)."""
import numpy as np
import pytest

import eagerflow as tf

K = tf.keras.optimizers


def _sched():
    return K.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)


CASES = {
    "rmsprop_default": (lambda: K.RMSprop(),
                        [0.9952248, -1.9995295, 2.9979804], [0.49567559361457825, -0.5007001757621765]),
    "rmsprop_momentum_centered": (lambda: K.RMSprop(learning_rate=0.01, rho=0.8, momentum=0.9, centered=True),
                                  [0.92661494, -1.9588302, 2.926288], [0.3977530896663666, -0.48454344272613525]),
    "rmsprop_momentum": (lambda: K.RMSprop(learning_rate=0.05, momentum=0.5, epsilon=1e-3),
                         [0.6776211, -1.8795934, 2.7439907], [0.10960278660058975, -0.5744251012802124]),
    "adagrad_default": (lambda: K.Adagrad(),
                        [0.99862695, -1.9998078, 2.9993684], [0.4989774227142334, -0.500840961933136]),
    "adagrad_custom": (lambda: K.Adagrad(learning_rate=0.1, initial_accumulator_value=0.5, epsilon=1e-3),
                       [0.8900683, -1.9835732, 2.9418745], [0.437399297952652, -0.5814597606658936]),
    "sgd_clipnorm": (lambda: K.SGD(learning_rate=0.1, clipnorm=1.0),
                     [0.9684947, -2.0078313, 2.9207199], [0.4545299708843231, -0.5932050347328186]),
    "adam_clipvalue": (lambda: K.Adam(learning_rate=0.1, clipvalue=0.5),
                       [0.8023849, -1.9299843, 2.7738037], [0.2752426862716675, -0.52623051404953]),
    "rmsprop_global_clipnorm": (lambda: K.RMSprop(learning_rate=0.1, global_clipnorm=0.5),
                                [0.6087352, -1.9628093, 2.6940098], [-0.026462726294994354, -0.5335975289344788]),
    "adagrad_clipnorm": (lambda: K.Adagrad(learning_rate=0.1, clipnorm=0.3),
                         [0.97178066, -2.0034666, 2.932456], [0.4473230242729187, -0.5624098181724548]),
    "sgd_schedule": (lambda: K.SGD(learning_rate=_sched()),
                     [0.935, -1.895, 2.825], [0.44999998807907104, -0.5400000214576721]),
    "adagrad_schedule": (lambda: K.Adagrad(learning_rate=_sched()),
                         [0.9102927, -1.9281187, 2.89906], [0.40259110927581787, -0.5218677520751953]),
    "rmsprop_schedule": (lambda: K.RMSprop(learning_rate=_sched()),
                         [0.674164, -1.7724591, 2.6754794], [0.083292156457901, -0.3589668869972229]),
}
GRADS = [([0.5, -1.5, 2.0], [[0.3], [-0.1]]), ([-0.2, 0.4, 1.0], [[0.6], [0.9]]), ([1.0, 1.0, -3.0], [[-0.4], [0.2]])]


def _run(opt, in_function):
    a = tf.Variable([1.0, -2.0, 3.0])
    b = tf.Variable([[0.5], [-0.5]])

    def step(ga, gb):
        opt.apply_gradients([(ga, a), (gb, b)])

    if in_function:
        step = tf.function(step)
    for ga, gb in GRADS:
        step(tf.constant(ga), tf.constant(gb))
    return a.numpy(), b.numpy().ravel()


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_updates_match_tf_keras(name, in_function):
    make, want_a, want_b = CASES[name]
    a, b = _run(make(), in_function)
    np.testing.assert_allclose(a, want_a, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b, want_b, rtol=1e-5, atol=1e-6)


def test_defaults_and_config():
    r = K.RMSprop()
    assert (r.rho, r.momentum, r.epsilon, r.centered) == (0.9, 0.0, 1e-07, False)
    assert r.get_config()["name"] == "RMSprop"
    assert np.isclose(float(r.learning_rate.numpy()), 0.001)
    a = K.Adagrad()
    assert (a.initial_accumulator_value, a.epsilon) == (0.1, 1e-07)
    assert a.get_config()["initial_accumulator_value"] == 0.1


def test_get_by_name():
    assert isinstance(K.get("rmsprop"), K.RMSprop)
    assert isinstance(K.get("Adagrad"), K.Adagrad)
    with pytest.raises(ValueError, match="Unknown optimizer: 'foo'. Please ensure you are using a "
                                         "`keras.utils.custom_object_scope`"):
        K.get("foo")
    with pytest.raises(ValueError, match="Could not interpret optimizer identifier: 3"):
        K.get(3)


def test_only_one_clipping_argument():
    with pytest.raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set"):
        K.RMSprop(clipnorm=1.0, clipvalue=1.0)


def test_minimize_with_callable_and_tape():
    v = tf.Variable([1.0, 2.0])
    opt = K.SGD(learning_rate=0.5)
    opt.minimize(lambda: tf.reduce_sum(v * v), [v])
    np.testing.assert_allclose(v.numpy(), [0.0, 0.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(3.0 * v + 1.0)
    opt.minimize(loss, [v], tape=tape)
    np.testing.assert_allclose(v.numpy(), [-1.5, -1.5])
    with pytest.raises(ValueError, match="`tape` is required when a `Tensor` loss is passed"):
        opt.minimize(loss, [v])
