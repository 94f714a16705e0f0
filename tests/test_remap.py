"""The remapping pass: Conv2D -> BiasAdd (-> Relu) chains in traced functions become _FusedConv2D
nodes whose kernels add the bias and take the Relu on the convolution's sums; results are bitwise
those of the unfused ops, on every convolution kernel variant."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.config import _optimizer_options as _optimizer
from eagerflow.ops._execute import execute

import conv_kernels

rng = np.random.default_rng(5)


@pytest.fixture(autouse=True)
def _reset_options():
    yield
    _optimizer._options.clear()
    _optimizer._apply()


@pytest.fixture(params=conv_kernels.available(("avx512", "avx2", "generic", "im2col")))
def kernel(request):
    prev = _core.set_conv_kernel(request.param)
    yield request.param
    _core.set_conv_kernel(prev)


def _types(fn, *args):
    cf = fn.get_concrete_function(*args)
    g = cf.graph._graph
    og, _, _ = _core.optimize_graph(g, cf.graph.inputs, cf.graph.outputs, g.stateful_nodes())
    return [n.type for n in og.nodes()], og


def _run(py_fn, remapping, *args):
    _optimizer._options.clear()
    tf.config.optimizer.set_experimental_options({"remapping": remapping})
    return tf.function(py_fn)(*args)


CASES = [  # x shape, filter shape, strides, padding
    ((2, 12, 11, 1), (3, 3, 1, 16), 1, "VALID"),
    ((2, 10, 9, 16), (3, 3, 16, 16), 1, "VALID"),
    ((1, 9, 8, 5), (3, 3, 5, 37), 2, "SAME"),
    ((2, 7, 7, 64), (1, 1, 64, 70), 1, "SAME"),
]


@pytest.mark.parametrize("relu", [True, False], ids=["relu", "bias"])
@pytest.mark.parametrize("xs, fs, stride, padding", CASES)
def test_fused_equals_unfused_bitwise(kernel, xs, fs, stride, padding, relu):
    x = rng.standard_normal(xs).astype(np.float32)
    x.flat[::7] = np.nan  # NaN stays NaN through the Relu, as tf.nn.relu keeps it
    w = tf.constant(rng.standard_normal(fs).astype(np.float32))
    b = tf.constant(rng.standard_normal(fs[3]).astype(np.float32))

    def f(x):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, stride, padding), b)
        return tf.nn.relu(y) if relu else y

    types, og = _types(tf.function(f), x)
    assert "_FusedConv2D" in types and "Conv2D" not in types and "BiasAdd" not in types
    fused = next(n for n in og.nodes() if n.type == "_FusedConv2D")
    assert fused.attrs()["fused_ops"] == (["BiasAdd", "Relu"] if relu else ["BiasAdd"])
    assert ("Relu" in types) is False
    on, off, eager = _run(f, True, x).numpy(), _run(f, False, x).numpy(), f(x).numpy()
    np.testing.assert_array_equal(on, off)
    np.testing.assert_array_equal(on, eager)


def test_values_used_elsewhere_are_not_fused():
    x = rng.standard_normal((1, 6, 6, 3)).astype(np.float32)
    w = tf.constant(rng.standard_normal((3, 3, 3, 4)).astype(np.float32))
    b = tf.constant(np.ones(4, np.float32))

    def returns_conv(x):
        c = tf.nn.conv2d(x, w, 1, "SAME")
        return tf.nn.relu(tf.nn.bias_add(c, b)), c

    types, _ = _types(tf.function(returns_conv), x)
    assert "_FusedConv2D" not in types and "Conv2D" in types

    def bias_read_twice(x):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)
        return tf.nn.relu(y) + y

    types, og = _types(tf.function(bias_read_twice), x)
    assert "Conv2D" not in types  # the Relu is not folded in: BiasAdd's value is read twice
    fused = next(n for n in og.nodes() if n.type == "_FusedConv2D")
    assert fused.attrs()["fused_ops"] == ["BiasAdd"]
    np.testing.assert_array_equal(_run(bias_read_twice, True, x).numpy(), _run(bias_read_twice, False, x).numpy())


def test_channels_first_bias_is_not_fused():
    x = rng.standard_normal((1, 6, 6, 4)).astype(np.float32)
    w = tf.constant(rng.standard_normal((3, 3, 4, 4)).astype(np.float32))

    def f(x):  # BiasAdd over axis 1 of an NHWC convolution: not the fused op's bias
        return tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), tf.ones([6]), data_format="NCHW")

    types, _ = _types(tf.function(f), x)
    assert "_FusedConv2D" not in types


def test_keras_training_step_same_with_and_without_remapping():
    def train(remapping):
        _optimizer._options.clear()
        tf.config.optimizer.set_experimental_options({"remapping": remapping})
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, activation="relu"),
                                     tf.keras.layers.Conv2D(16, 3, activation="relu", padding="same"),
                                     tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.Adam()
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        x = tf.constant(np.random.default_rng(0).random((8, 12, 12, 1), dtype=np.float32))
        y = tf.constant(np.arange(8) % 10)

        @tf.function
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        losses = [step(x, y).numpy() for _ in range(3)]
        types, _ = _types(step, x, y)
        return losses, [v.numpy() for v in model.trainable_variables], types

    losses_on, weights_on, types_on = train(True)
    losses_off, weights_off, types_off = train(False)
    assert types_on.count("_FusedConv2D") == 2 and "_FusedConv2D" not in types_off
    np.testing.assert_array_equal(losses_on, losses_off)
    for a, b in zip(weights_on, weights_off):
        np.testing.assert_array_equal(a, b)


def test_fused_conv_errors():
    x = tf.constant(np.ones((1, 4, 4, 2), np.float32))
    w = tf.constant(np.ones((3, 3, 2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="as many biases"):
        execute("_FusedConv2D", [x, w, tf.ones([2])],
                      {"strides": [1, 1, 1, 1], "padding": "SAME", "fused_ops": ["BiasAdd"]})
    with pytest.raises(tf.errors.UnimplementedError, match="fused_ops"):
        execute("_FusedConv2D", [x, w, tf.ones([3])],
                      {"strides": [1, 1, 1, 1], "padding": "SAME", "fused_ops": ["BiasAdd", "Elu"]})
