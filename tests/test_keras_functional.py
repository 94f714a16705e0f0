"""The functional API (tf.keras.Input, Model(inputs, outputs), KerasTensor), Sequential's graph, and
Model.summary(): expected texts and names come from tf_keras (Keras 2) run on the same code."""
import contextlib
import io

import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers

SUMMARY_CODE = 'import numpy as np\nL = tf.keras.layers\ninp = tf.keras.Input(shape=(28, 28, 1), name="img")\nx = L.Conv2D(16, 3, activation="relu", name="c1")(inp)\nx = L.GlobalAveragePooling2D(name="gap")(x)\nout = L.Dense(10, name="logits")(x)\nfm = tf.keras.Model(inp, out, name="fm")\nfm.summary()\nprint([w.name for w in fm.weights])\na = tf.keras.Input(shape=(4,), name="a"); b = tf.keras.Input(shape=(4,), name="b")\nc = L.Concatenate(name="cat")([a, b]); d = L.Dense(1, name="d")(c)\nmm = tf.keras.Model(inputs=[a, b], outputs=d, name="two_in")\nmm.summary()\ns = tf.keras.Sequential([L.Dense(3, input_shape=(4,), name="s1"), L.BatchNormalization(name="bn"), L.Dense(2, name="s2")], name="seq")\ns.summary()\ns2 = tf.keras.Sequential([L.Dense(3, name="t1"), L.Dense(2, name="t2")], name="seq2")\ns2.build((None, 5)); s2.summary()\nprint(repr(s2.inputs[0]), repr(s2.outputs[0]))\n'

SUMMARY_EXPECTED = 'Model: "fm"\n_________________________________________________________________\n Layer (type)                Output Shape              Param #   \n=================================================================\n img (InputLayer)            [(None, 28, 28, 1)]       0         \n                                                                 \n c1 (Conv2D)                 (None, 26, 26, 16)        160       \n                                                                 \n gap (GlobalAveragePooling2  (None, 16)                0         \n D)                                                              \n                                                                 \n logits (Dense)              (None, 10)                170       \n                                                                 \n=================================================================\nTotal params: 330 (1.29 KB)\nTrainable params: 330 (1.29 KB)\nNon-trainable params: 0 (0.00 Byte)\n_________________________________________________________________\n[\'c1/kernel:0\', \'c1/bias:0\', \'logits/kernel:0\', \'logits/bias:0\']\nModel: "two_in"\n__________________________________________________________________________________________________\n Layer (type)                Output Shape                 Param #   Connected to                  \n==================================================================================================\n a (InputLayer)              [(None, 4)]                  0         []                            \n                                                                                                  \n b (InputLayer)              [(None, 4)]                  0         []                            \n                                                                                                  \n cat (Concatenate)           (None, 8)                    0         [\'a[0][0]\',                   \n                                                                     \'b[0][0]\']                   \n                                                                                                  \n d (Dense)                   (None, 1)                    9         [\'cat[0][0]\']                 \n                                                                                                  \n==================================================================================================\nTotal params: 9 (36.00 Byte)\nTrainable params: 9 (36.00 Byte)\nNon-trainable params: 0 (0.00 Byte)\n__________________________________________________________________________________________________\nModel: "seq"\n_________________________________________________________________\n Layer (type)                Output Shape              Param #   \n=================================================================\n s1 (Dense)                  (None, 3)                 15        \n                                                                 \n bn (BatchNormalization)     (None, 3)                 12        \n                                                                 \n s2 (Dense)                  (None, 2)                 8         \n                                                                 \n=================================================================\nTotal params: 35 (140.00 Byte)\nTrainable params: 29 (116.00 Byte)\nNon-trainable params: 6 (24.00 Byte)\n_________________________________________________________________\nModel: "seq2"\n_________________________________________________________________\n Layer (type)                Output Shape              Param #   \n=================================================================\n t1 (Dense)                  (None, 3)                 18        \n                                                                 \n t2 (Dense)                  (None, 2)                 8         \n                                                                 \n=================================================================\nTotal params: 26 (104.00 Byte)\nTrainable params: 26 (104.00 Byte)\nNon-trainable params: 0 (0.00 Byte)\n_________________________________________________________________\n<KerasTensor: shape=(None, 5) dtype=float32 (created by layer \'t1_input\')> <KerasTensor: shape=(None, 2) dtype=float32 (created by layer \'t2\')>\n'


def test_summaries_and_weight_names_match_keras2():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SUMMARY_CODE, {"tf": tf})  # pylint: disable=exec-used
    assert buf.getvalue() == SUMMARY_EXPECTED


def _mlp():
    inp = tf.keras.Input(shape=(3,))
    h = L.Dense(4, activation="relu")(inp)
    return inp, h, L.Dense(2)(h)


def test_keras_tensor_forms_and_layer_shapes():
    inp = tf.keras.Input(shape=(4,), batch_size=3, name="q", dtype="int32")
    assert repr(inp) == "<KerasTensor: shape=(3, 4) dtype=int32 (created by layer 'q')>"
    assert str(inp) == ("KerasTensor(type_spec=TensorSpec(shape=(3, 4), dtype=tf.int32, name='q'), name='q', "
                        "description=\"created by layer 'q'\")")
    x = tf.keras.Input(shape=(4,))
    d = L.Dense(3, name="dd")
    with pytest.raises(AttributeError, match='The layer "dd" has never been called and thus has no defined output '
                                             'shape.'):
        d.output_shape
    y = d(x)
    assert y.name == "dd/BiasAdd:0" and y.shape == (None, 3) and y.dtype == tf.float32
    assert d.output_shape == (None, 3) and d.input_shape == (None, 4) and d.output is y
    assert d.kernel.name == "dd/kernel:0"
    z = 1 + y * 2
    assert repr(z) == "<KerasTensor: shape=(None, 3) dtype=float32 (created by layer 'tf.__operators__.add')>"
    with pytest.raises(ValueError, match="Please provide to Input a `shape` or a `tensor` or a `type_spec` argument"):
        tf.keras.Input()


def test_functional_call_matches_the_layers_and_trains():
    inp, h, out = _mlp()
    model = tf.keras.Model(inp, out)
    assert type(model).__name__ == "Functional" and isinstance(model, tf.keras.Model)
    d1, d2 = model.layers[1:]
    x = np.random.default_rng(0).normal(size=(5, 3)).astype(np.float32)
    want = np.maximum(x @ d1.kernel.numpy() + d1.bias.numpy(), 0) @ d2.kernel.numpy() + d2.bias.numpy()
    np.testing.assert_allclose(model(x).numpy(), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.function(model)(x).numpy(), want, rtol=1e-5, atol=1e-6)
    assert model.input_shape == (None, 3) and model.output_shape == (None, 2)
    assert len(model.trainable_weights) == 4 and model.count_params() == 3 * 4 + 4 + 4 * 2 + 2
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_weights)
    assert all(g is not None and g.shape == v.shape for g, v in zip(grads, model.trainable_weights))


def test_functional_multi_io_dicts_nesting_and_dtypes():
    a, b = tf.keras.Input((2,), name="fa"), tf.keras.Input((2,), name="fb")
    s = L.Add()([a, b])
    m = tf.keras.Model([a, b], [s, L.Dense(1)(s)])
    one = np.ones((3, 2), np.float32)
    r = m([one, 2 * one])
    assert [t.shape for t in r] == [(3, 2), (3, 1)]
    np.testing.assert_allclose(r[0].numpy(), 3 * one)
    r2 = m({"fa": one, "fb": one})  # inputs by name
    np.testing.assert_allclose(r2[0].numpy(), 2 * one)
    # a model is a layer: call it on KerasTensors inside another model
    inp, _, out = _mlp()
    inner = tf.keras.Model(inp, out)
    x = tf.keras.Input((3,))
    outer = tf.keras.Model(x, L.Activation("sigmoid")(inner(x)))
    assert outer(np.zeros((2, 3), np.float32)).shape == (2, 2)
    assert outer.layers[1] is inner and len(outer.weights) == 4
    # integer Input: float data is cast to its dtype (Keras 2 conforms inputs)
    ids = tf.keras.Input((3,), dtype="int32")
    emb = tf.keras.Model(ids, L.Embedding(10, 2)(ids))
    assert emb(np.array([[1.0, 2.0, 3.0]])).shape == (1, 3, 2)


def test_training_flag_reaches_layers_of_a_functional_model():
    inp = tf.keras.Input((100,))
    m = tf.keras.Model(inp, L.Dropout(0.5)(inp))
    x = np.ones((4, 100), np.float32)
    np.testing.assert_array_equal(m(x).numpy(), x)
    dropped = m(x, training=True).numpy()
    assert set(np.unique(dropped)) <= {0.0, 2.0} and (dropped == 0).any()


def test_graph_disconnected_and_bad_outputs():
    a, b = tf.keras.Input((2,)), tf.keras.Input((2,))
    out = L.Dense(1, name="needs_b")(b)
    with pytest.raises(ValueError, match='Graph disconnected: cannot obtain value for tensor .* at layer "needs_b"'):
        tf.keras.Model(a, out)
    with pytest.raises(ValueError, match="Output tensors of a Functional model must be the output of a TensorFlow "
                                         "`Layer`"):
        tf.keras.Model(a, tf.constant(1.0))


def test_sequential_graph_and_summary_errors():
    s = tf.keras.Sequential([L.Dense(3), L.Dense(2)])
    with pytest.raises(ValueError, match="This model has not yet been built"):
        s.summary()
    assert s.inputs is None
    s(np.ones((5, 4), np.float32))  # the first call fixes the input shape (Keras 2: batch included)
    assert s.inputs[0].shape == (5, 4) and s.layers[0].output_shape == (5, 3)
    with_input = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3)])
    assert with_input.built and with_input.output_shape == (None, 3) and len(with_input.layers) == 1


def test_keras2_layer_tracking_order_and_add_weight_signature():
    class Inner(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__(name="inner")
            self.a = self.add_weight("a", shape=(2,))
            self.first = L.Dense(2, name="first")
            self.second = L.Dense(2, name="second")

        def build(self, input_shape):
            assert isinstance(input_shape, tf.TensorShape)
            self.first.build(input_shape)
            self.b = self.add_weight(name="b", shape=(2,), trainable=False)
            self.v = tf.Variable(1.0)

        def call(self, x):
            return self.second(self.first(x))

    layer = Inner()
    layer(np.ones((1, 2), np.float32))
    # values from tf_keras: own trainable weights, the sublayers', then the non-trainable ones
    assert [w.name for w in layer.weights] == ["a:0", "inner/Variable:0", "inner/kernel:0", "inner/bias:0",
                                               "inner/second/kernel:0", "inner/second/bias:0", "inner/b:0"]


def test_regularizers_and_add_loss_fill_layer_losses():
    # values from tf_keras on the same code
    d = L.Dense(2, kernel_regularizer=tf.keras.regularizers.l2(0.1), bias_regularizer="l1",
                activity_regularizer=tf.keras.regularizers.L1(0.5), kernel_initializer="ones")
    d(np.ones((4, 3), np.float32))
    np.testing.assert_allclose([float(v) for v in d.losses], [3.0, 0.6, 0.0], rtol=1e-6)
    d(np.ones((4, 3), np.float32))
    assert len(d.losses) == 3  # a new call replaces the activity loss of the last one

    class AddsLoss(L.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            self.add_loss(1.0)
            return x

    m = tf.keras.Sequential([AddsLoss(), L.Dense(1, kernel_regularizer="l2")])
    m(np.ones((2, 2), np.float32))
    assert [float(v) for v in m.losses[:2]] == [4.0, 1.0] and len(m.losses) == 3
    kernel = m.layers[1].kernel.numpy()
    np.testing.assert_allclose(float(m.losses[2]), 0.01 * np.sum(kernel ** 2), rtol=1e-5)
    assert tf.keras.regularizers.l2(0.1).get_config() == {"l2": 0.10000000149011612}
    assert tf.keras.regularizers.get("l1_l2").get_config() == {"l1": 0.009999999776482582,
                                                               "l2": 0.009999999776482582}
    with pytest.raises(ValueError, match="Unknown regularizer: 'l3'"):
        tf.keras.regularizers.get("l3")
    # the regularization loss has a gradient with respect to the kernel
    with tf.GradientTape() as tape:
        total = tf.add_n(d.losses[1:])
    g = tape.gradient(total, d.kernel)
    np.testing.assert_allclose(g.numpy(), 0.2 * d.kernel.numpy(), rtol=1e-6)


def test_fit_a_functional_model_with_a_regularizer_matches_keras2():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64)
    inp = tf.keras.Input((4,))
    h = L.Dense(8, activation="relu", kernel_regularizer=tf.keras.regularizers.l2(0.01),
                kernel_initializer=tf.keras.initializers.Constant(0.1))(inp)
    m = tf.keras.Model(inp, L.Dense(2, kernel_initializer="ones")(h))
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    history = m.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
    # tf_keras on the same code
    np.testing.assert_allclose(history.history["loss"], [0.69765, 0.69621, 0.69486], atol=1e-5)
    np.testing.assert_allclose(history.history["accuracy"], [0.46875, 0.54688, 0.57812], atol=1e-5)
    np.testing.assert_allclose(m.evaluate(x, y, verbose=0), [0.6921496391296387, 0.59375], rtol=1e-5)
    np.testing.assert_allclose(m.predict(x[:2], verbose=0), [[0.604, 0.5609], [1.6109, 1.5955]], atol=1e-4)


def test_every_layer_applies_its_weight_regularizers():
    # loss counts and values from tf_keras on the same layers
    layers = [L.Conv2D(2, 3, kernel_regularizer="l2", bias_regularizer="l1", bias_initializer="ones"),
              L.DepthwiseConv2D(3, depthwise_regularizer="l2"),
              L.SeparableConv2D(2, 3, depthwise_regularizer="l2", pointwise_regularizer="l1"),
              L.Conv2DTranspose(2, 3, kernel_regularizer="l2"),
              L.BatchNormalization(gamma_regularizer="l2", beta_regularizer="l1", beta_initializer="ones"),
              L.LayerNormalization(gamma_regularizer="l2")]
    for layer in layers:
        layer(np.ones((1, 5, 5, 2), np.float32))
    assert [len(layer.losses) for layer in layers] == [2, 1, 2, 1, 2, 1]
    np.testing.assert_allclose([float(v) for v in layers[4].losses], [0.02, 0.02], rtol=1e-6)
    np.testing.assert_allclose(float(layers[0].losses[1]), 0.02, rtol=1e-6)


def test_call_errors_name_the_layer_and_its_arguments_as_keras2():
    # texts from tf_keras for the same code
    class Reshapes(L.Layer):
        def call(self, x, flag=3):
            return tf.reshape(x, [7])

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        Reshapes(name="b")(tf.ones((2,)), flag=[1, 2])
    assert str(info.value) == (
        "Exception encountered when calling layer 'b' (type Reshapes).\n\n"
        "{{function_node __wrapped__Reshape_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
        "Input to reshape is a tensor with 2 values, but the requested shape has 7 [Op:Reshape]\n\n"
        "Call arguments received by layer 'b' (type Reshapes):\n"
        "  • x=tf.Tensor(shape=(2,), dtype=float32)\n"
        "  • flag=['1', '2']")
    inp = tf.keras.Input((3,))
    m = tf.keras.Model(inp, L.Dense(1, name="d")(inp), name="model_t")
    with pytest.raises(ValueError, match=r'^Input 0 of layer "model_t" is incompatible with the layer: expected '
                                         r"shape=\(None, 3\), found shape=\(2, 5\)$"):
        m(np.ones((2, 5), np.float32))
    assert m(np.ones((2, 3, 1), np.float32)).shape == (2, 1)  # a trailing axis of 1 is squeezed
    with pytest.raises(ValueError) as info:  # the inner layer's check, wrapped by the model's call
        m(np.ones((2, 3, 4), np.float32))
    assert str(info.value) == (
        "Exception encountered when calling layer 'model_t' (type Functional).\n\n"
        'Input 0 of layer "d" is incompatible with the layer: expected axis -1 of input shape to have value 3, but '
        "received input with shape (2, 3, 4)\n\n"
        "Call arguments received by layer 'model_t' (type Functional):\n"
        "  • inputs=tf.Tensor(shape=(2, 3, 4), dtype=float32)\n"
        "  • training=None\n"
        "  • mask=None")
