"""tf.keras: Model subclassing, Layer/Dense (weights made on the first call), Sequential, losses,
initializers, activations; a linear-regression fit with hand-written gradients (guide E-16's model)."""
import numpy as np
import pytest

import eagerflow as tf


class Linear(tf.keras.Model):
    """The guide's E-16 model."""

    def __init__(self):
        super(Linear, self).__init__()
        self.W = tf.Variable(5., name='weight')
        self.B = tf.Variable(10., name='bias')

    def call(self, inputs):
        return inputs * self.W + self.B


class TwoDense(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.d1 = tf.keras.layers.Dense(3)
        self.d2 = tf.keras.layers.Dense(1)

    def call(self, x):
        return self.d2(self.d1(x))


# --- Model -------------------------------------------------------------------------------------------
def test_model_subclass_call_and_variables():
    m = Linear()
    out = m(tf.constant([1.0, 2.0]))
    np.testing.assert_allclose(out.numpy(), [15.0, 20.0])
    assert [v.name for v in m.variables] == ["weight:0", "bias:0"]  # assignment order
    assert [v.name for v in m.trainable_variables] == ["weight:0", "bias:0"]
    assert m.non_trainable_variables == []
    assert m.name.startswith("linear") and m.built
    assert isinstance(m, tf.Module) and isinstance(m, tf.keras.layers.Layer)
    assert m.submodules == ()


def test_model_tracks_non_trainable_and_nested_containers():
    class M(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.step = tf.Variable(0, trainable=False)
            self.blocks = [tf.keras.layers.Dense(2), {"out": tf.keras.layers.Dense(1)}]

        def call(self, x):
            return self.blocks[1]["out"](self.blocks[0](x))

    m = M()
    m(tf.ones([1, 3]))
    d1, d2 = m.blocks[0], m.blocks[1]["out"]
    assert [v.name for v in m.trainable_variables] == [f"m/{d1.name}/kernel:0", f"m/{d1.name}/bias:0",
                                                       f"m/{d2.name}/kernel:0", f"m/{d2.name}/bias:0"]
    assert m.non_trainable_variables == [m.step]
    assert m.variables[-1] is m.step  # Keras 2: the trainable weights, then the others
    assert len(m.layers) == 2 and len(m.submodules) == 2


def test_model_names_unique_and_paths():
    m1, m2 = TwoDense(), TwoDense()
    assert m1.name.startswith("two_dense") and m2.name != m1.name
    assert TwoDense(name="custom").name == "custom"
    m1(tf.ones([2, 2]))
    d1, d2 = m1.layers
    assert [v.name for v in m1.variables] == [f"{m1.name}/{d1.name}/kernel:0", f"{m1.name}/{d1.name}/bias:0",
                                             f"{m1.name}/{d2.name}/kernel:0", f"{m1.name}/{d2.name}/bias:0"]
    assert repr(m1).startswith("<test_keras.TwoDense object at 0x")


def test_layer_trainable_flag_moves_weights_to_non_trainable():
    m = TwoDense()
    m(tf.ones([2, 2]))
    m.d1.trainable = False
    assert m.trainable_variables == [m.d2.kernel, m.d2.bias]
    assert m.non_trainable_variables == [m.d1.kernel, m.d1.bias]
    m.trainable = False
    assert m.trainable_variables == [] and len(m.non_trainable_variables) == 4


def test_model_inside_tf_function_builds_on_first_trace():
    m = TwoDense()
    f = tf.function(lambda x: m(x))
    assert f(tf.ones([4, 2])).shape == (4, 1)
    assert f(tf.ones([4, 2])).shape == (4, 1)
    np.testing.assert_allclose(f(tf.ones([4, 2])).numpy(), m(tf.ones([4, 2])).numpy(), rtol=1e-6)
    assert len(m.variables) == 4 and all(not v.numpy().dtype == object for v in m.variables)


def test_model_without_call_and_functional_api():
    class Empty(tf.keras.Model):
        pass

    with pytest.raises(NotImplementedError, match=r"Unimplemented `tf.keras.Model.call\(\)`"):
        Empty()(tf.ones([1]))
    with pytest.raises(ValueError, match="Found unexpected instance while processing input tensors for keras "
                                         "functional model"):
        tf.keras.Model(tf.ones([1]), tf.ones([1]))


# --- Dense -------------------------------------------------------------------------------------------
def test_dense_builds_on_first_call():
    d = tf.keras.layers.Dense(4, activation="relu", name="dense_t")
    assert not d.built and d.variables == [] and d.units == 4
    y = d(tf.ones([2, 3]))
    assert d.built and y.shape == (2, 4) and y.dtype == tf.float32
    assert [v.name for v in d.weights] == ["dense_t/kernel:0", "dense_t/bias:0"]
    assert d.kernel.shape == (3, 4) and d.bias.shape == (4,)
    np.testing.assert_array_equal(d.bias.numpy(), np.zeros(4))
    limit = np.sqrt(6.0 / (3 + 4))  # glorot_uniform
    assert np.all(np.abs(d.kernel.numpy()) <= limit)
    assert d.count_params() == 16


def test_dense_values_and_activations():
    x = np.array([[1.0, -2.0, 0.5]], np.float32)
    k = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], np.float32)
    for act, fn in [(None, lambda a: a), ("relu", lambda a: np.maximum(a, 0)),
                    ("sigmoid", lambda a: 1 / (1 + np.exp(-a))), (tf.nn.tanh, np.tanh)]:
        d = tf.keras.layers.Dense(2, activation=act, kernel_initializer=tf.keras.initializers.Constant(0.0),
                                  bias_initializer="ones")
        d(x)
        d.kernel.assign(k)
        np.testing.assert_allclose(d(x).numpy(), fn(x @ k + 1), rtol=1e-6)


def test_dense_no_bias_higher_rank_and_numpy_inputs():
    d = tf.keras.layers.Dense(2, use_bias=False)
    y = d(np.ones([5, 4, 3]))  # NumPy float64 in: a float32 tensor out (Keras autocast)
    assert y.shape == (5, 4, 2) and y.dtype == tf.float32
    assert d.bias is None and len(d.variables) == 1
    np.testing.assert_allclose(y.numpy()[0, 0], np.ones(3, np.float32) @ d.kernel.numpy(), rtol=1e-6)


def test_dense_bad_units_and_input():
    for u in (0, -1, 2.5, "3", True):
        with pytest.raises(ValueError, match="Received an invalid value for `units`, expected a positive integer"):
            tf.keras.layers.Dense(u)
    d = tf.keras.layers.Dense(2, name="dd")
    d(tf.ones([2, 3]))
    with pytest.raises(ValueError, match=r'^Input 0 of layer "dd" is incompatible with the layer: expected axis -1 '
                                         r"of input shape to have value 3, but received input with shape \(2, 5\)$"):
        d(tf.ones([2, 5]))
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: foo"):
        tf.keras.layers.Dense(2, activation="foo")


def test_custom_layer_with_build_and_add_weight():
    class Scale(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.s = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="s")
            self.n = self.add_weight(shape=(), initializer="zeros", dtype="int32", trainable=False, name="n")

        def call(self, x):
            self.n.assign_add(1)
            return x * self.s

    layer = Scale()
    np.testing.assert_allclose(layer(tf.constant([[2.0, 3.0]])).numpy(), [[2.0, 3.0]])
    assert layer.trainable_variables == [layer.s] and layer.non_trainable_variables == [layer.n]
    assert layer.n.numpy() == 1 and layer.get_weights()[0].tolist() == [1.0, 1.0]
    layer.set_weights([np.array([2.0, 2.0], np.float32), np.int32(5)])
    np.testing.assert_allclose(layer(tf.constant([[2.0, 3.0]])).numpy(), [[4.0, 6.0]])
    with pytest.raises(ValueError, match="expecting 2 weights"):
        layer.set_weights([])


# --- Sequential --------------------------------------------------------------------------------------
def test_sequential():
    s = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    assert s(tf.ones([2, 2])).shape == (2, 1)
    assert len(s.layers) == 2 and len(s.variables) == 4
    assert s.variables[0].name == s.layers[0].name + "/kernel:0"  # built outside the model's scope (Keras 2)
    s.add(tf.keras.layers.Dense(2))
    assert s(tf.ones([2, 2])).shape == (2, 2)
    s.pop()
    assert s(tf.ones([2, 2])).shape == (2, 1) and s.outputs[0].shape == (2, 1)
    with pytest.raises(TypeError, match="The added layer must be an instance of class Layer. Received: layer=x of "
                                        "type <class 'str'>."):
        s.add("x")
    with pytest.raises(TypeError, match="There are no layers in the model."):
        tf.keras.Sequential().pop()


# --- losses (values from TF 2.21) --------------------------------------------------------------------
A = [[1.0, 2.0], [3.0, 4.0]]
B = [[0.0, 2.0], [3.0, 6.0]]


def test_mean_squared_error():
    a, b = tf.constant(A), tf.constant(B)
    mse = tf.keras.losses.MeanSquaredError()
    assert mse.name == "mean_squared_error" and mse.reduction == "auto"
    assert float(mse(a, b)) == 1.25
    np.testing.assert_allclose(tf.keras.losses.MSE(a, b).numpy(), [0.5, 2.0])
    assert tf.keras.losses.mse is tf.keras.losses.MSE is tf.keras.losses.mean_squared_error
    assert float(tf.keras.losses.MeanSquaredError(reduction="sum")(a, b)) == 2.5
    np.testing.assert_allclose(tf.keras.losses.MeanSquaredError(reduction=None)(a, b).numpy(), [0.5, 2.0])
    np.testing.assert_allclose(tf.keras.losses.MeanSquaredError(reduction="none")(a, b).numpy(), [0.5, 2.0])
    assert float(mse(a, b, sample_weight=tf.constant([1.0, 0.0]))) == 0.25
    assert float(mse(a, b, sample_weight=tf.constant([1.0, 3.0]))) == 3.25
    assert float(tf.keras.losses.MeanSquaredError(reduction="mean_with_sample_weight")(
        a, b, sample_weight=tf.constant([1.0, 3.0]))) == 1.625
    out = mse([[1, 2]], [[0.0, 0.0]])
    assert out.dtype == tf.float32 and float(out) == 2.5
    assert mse(tf.constant([1, 2]), tf.constant([0, 0])).dtype == tf.float32
    assert mse.get_config() == {"name": "mean_squared_error", "reduction": "auto"}


def test_mean_squared_error_errors():
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        tf.keras.losses.MeanSquaredError(reduction="bad")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]"):
        tf.keras.losses.MeanSquaredError()(tf.constant([1.0, 2.0, 3.0]), tf.constant([0.0, 0.0]))


# --- initializers, activations -----------------------------------------------------------------------
def test_initializers():
    init = tf.keras.initializers
    assert init.get("zeros")((2, 3)).numpy().tolist() == [[0.0] * 3] * 2
    assert init.Ones()((2,), dtype="float64").dtype == tf.float64
    np.testing.assert_array_equal(init.Constant(3.0)((2,)).numpy(), [3.0, 3.0])
    g = init.GlorotUniform()((100, 50)).numpy()
    assert np.abs(g).max() <= np.sqrt(6 / 150) and g.std() > 0.05
    assert isinstance(init.get("GlorotUniform"), init.GlorotUniform)
    u = init.RandomUniform(-1.0, 1.0)((1000,)).numpy()
    assert -1 <= u.min() and u.max() <= 1
    with pytest.raises(ValueError, match="Could not interpret initializer identifier"):
        init.get("nope")


@pytest.mark.parametrize("name, limit_or_std, kind", [
    ("he_normal", np.sqrt(2 / 400), "std"), ("he_uniform", np.sqrt(6 / 400), "limit"),
    ("lecun_normal", np.sqrt(1 / 400), "std"), ("lecun_uniform", np.sqrt(3 / 400), "limit"),
    ("glorot_normal", np.sqrt(2 / 700), "std"), ("glorot_uniform", np.sqrt(6 / 700), "limit"),
    ("truncated_normal", 0.05 * 0.87962566, "std")])
def test_variance_scaling_family(name, limit_or_std, kind):
    v = tf.keras.initializers.get(name)((400, 300)).numpy()
    assert v.shape == (400, 300) and v.dtype == np.float32
    if kind == "std":  # truncated at 2 stddev of the underlying normal, whose stddev is corrected for it
        assert abs(v.std() - limit_or_std) < 0.03 * limit_or_std
        assert np.abs(v).max() <= 2 * limit_or_std / 0.87962566 * 1.0001
    else:
        assert np.abs(v).max() <= limit_or_std and v.std() > 0.5 * limit_or_std
    # Seeded: 7200 draws put the sample std within 3% only ~3.7 sigma (a test order could hit the tail).
    conv = tf.keras.initializers.VarianceScaling(2.0, "fan_out", "untruncated_normal", seed=1)((3, 3, 8, 100)).numpy()
    assert abs(conv.std() - np.sqrt(2 / 900)) < 0.03 * np.sqrt(2 / 900)  # fans count the receptive field
    with pytest.raises(ValueError, match="Invalid `mode` argument: fan"):
        tf.keras.initializers.VarianceScaling(mode="fan")
    np.testing.assert_array_equal(tf.keras.initializers.Identity(2.0)((2, 3)).numpy(), [[2, 0, 0], [0, 2, 0]])


def test_activations_get():
    act = tf.keras.activations
    assert act.get(None) is act.linear and act.get("relu") is act.relu
    fn = lambda x: x  # noqa: E731
    assert act.get(fn) is fn
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: 5"):
        act.get(5)
    np.testing.assert_allclose(act.softmax(tf.constant([[0.0, 0.0]])).numpy(), [[0.5, 0.5]])


# --- end to end: guide E-16's regression with hand-written gradients ---------------------------------
def _fit_linear(compiled):
    tf.random.set_seed(1)
    x = tf.random.normal([2000])
    y = x * 3 + 2 + tf.random.normal([2000])
    model, opt = Linear(), tf.keras.optimizers.SGD(learning_rate=0.01)

    def loss():
        return tf.reduce_mean(tf.square(model(x) - y))

    def step():
        err = model(x) - y
        grads = [tf.reduce_mean(2 * err * x), tf.reduce_mean(2 * err)]  # d loss / d W, d loss / d B
        opt.apply_gradients(zip(grads, [model.W, model.B]))

    if compiled:
        step = tf.function(step)
    first = float(loss())
    losses = []
    for i in range(300):
        step()
        if i % 20 == 0:
            losses.append(float(loss()))
    return first, losses, float(loss()), model


@pytest.mark.parametrize("compiled", [False, True])
def test_linear_regression_converges(compiled):
    first, losses, final, model = _fit_linear(compiled)
    assert 60 < first < 80
    assert all(a > b for a, b in zip(losses, losses[1:]))
    assert 0.85 < final < 1.15
    assert abs(model.W.numpy() - 3) < 0.1 and abs(model.B.numpy() - 2) < 0.1
