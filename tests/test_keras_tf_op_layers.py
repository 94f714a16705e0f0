"""TF API functions called on KerasTensors become TFOpLambda layers of the functional model (TF's fallback
dispatch, which Keras registers): layer names, shapes and the summary as tf_keras (TF 2.21) prints them,
every dispatchable function of the registry checked against its eager result."""
import contextlib
import io
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.framework._api_names import API_NAMES, DISPATCHABLE


def _resolve(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


# (call, Keras 2's layer name, output shape), recorded from tf_keras in this order on x, y = Input((4,))
CALLS = [
    (lambda x, y: tf.concat([x, y], 1), "tf.concat", (None, 8)),
    (lambda x, y: tf.nn.relu(x), "tf.nn.relu", (None, 4)),
    (lambda x, y: tf.reshape(x, (-1, 2, 2)), "tf.reshape", (None, 2, 2)),
    (lambda x, y: x + 1, "tf.__operators__.add", (None, 4)),
    (lambda x, y: tf.reduce_mean(x, axis=1), "tf.math.reduce_mean", (None,)),
    (lambda x, y: tf.matmul(x, tf.ones((4, 3))), "tf.linalg.matmul", (None, 3)),
    (lambda x, y: tf.add(x, y), "tf.math.add", (None, 4)),
    (lambda x, y: tf.abs(x), "tf.math.abs", (None, 4)),
    (lambda x, y: tf.math.abs(x), "tf.math.abs_1", (None, 4)),
    (lambda x, y: tf.concat([x, y], 1), "tf.concat_1", (None, 8)),
    (lambda x, y: x * y, "tf.math.multiply", (None, 4)),
    (lambda x, y: tf.nn.softmax(x), "tf.nn.softmax", (None, 4)),
    (lambda x, y: tf.expand_dims(x, -1), "tf.expand_dims", (None, 4, 1)),
    (lambda x, y: tf.transpose(x), "tf.compat.v1.transpose", (4, None)),
    (lambda x, y: tf.cast(x, "int32"), "tf.cast", (None, 4)),
    (lambda x, y: tf.square(x), "tf.math.square", (None, 4)),
    (lambda x, y: tf.maximum(x, 0.), "tf.math.maximum", (None, 4)),
    (lambda x, y: tf.split(x, 2, axis=1)[0], "tf.split", (None, 2)),
    (lambda x, y: tf.stack([x, y], 1), "tf.stack", (None, 2, 4)),
    (lambda x, y: tf.shape(x), "tf.compat.v1.shape", (2,)),
    (lambda x, y: x[:, 0], "tf.__operators__.getitem", (None,)),
    (lambda x, y: tf.gather(x, [0], axis=1), "tf.compat.v1.gather", (None, 1)),
]

SUMMARY = '''Model: "model"
__________________________________________________________________________________________________
 Layer (type)                Output Shape                 Param #   Connected to                  
==================================================================================================
 x (InputLayer)              [(None, 4)]                  0         []                            
                                                                                                  
 y (InputLayer)              [(None, 4)]                  0         []                            
                                                                                                  
 tf.concat (TFOpLambda)      (None, 8)                    0         ['x[0][0]',                   
                                                                     'y[0][0]']                   
                                                                                                  
 tf.nn.relu (TFOpLambda)     (None, 4)                    0         ['x[0][0]']                   
                                                                                                  
 tf.reshape (TFOpLambda)     (None, 2, 2)                 0         ['x[0][0]']                   
                                                                                                  
 tf.__operators__.add (TFOp  (None, 4)                    0         ['x[0][0]']                   
 Lambda)                                                                                          
                                                                                                  
 tf.math.reduce_mean (TFOpL  (None,)                      0         ['x[0][0]']                   
 ambda)                                                                                           
                                                                                                  
==================================================================================================
Total params: 0 (0.00 Byte)
Trainable params: 0 (0.00 Byte)
Non-trainable params: 0 (0.00 Byte)
__________________________________________________________________________________________________
'''


@pytest.fixture
def fresh_names():
    tf.keras.backend.clear_session()
    yield


def test_layer_names_shapes_and_summary_match_keras2(fresh_names):
    x = tf.keras.Input((4,), name="x")
    y = tf.keras.Input((4,), name="y")
    outs = []
    for call, name, shape in CALLS:
        out = call(x, y)
        outs.append(out)
        assert out._keras_history[0].name == name
        kind = "SlicingOpLambda" if name == "tf.__operators__.getitem" else "TFOpLambda"  # Keras 2's classes
        assert type(out._keras_history[0]).__name__ == kind
        assert tuple(out.shape.as_list()) == shape, name
    assert outs[14].dtype == tf.int32
    model = tf.keras.Model([x, y], outs[:5])
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        model.summary()
    assert text.getvalue() == SUMMARY


def test_model_of_tf_ops_computes_what_numpy_does(fresh_names):
    x = tf.keras.Input((4,), name="x")
    y = tf.keras.Input((4,), name="y")
    out = tf.reduce_mean(tf.nn.relu(tf.concat([x, y * 2.0], 1)) - 1, axis=1)
    w = tf.matmul(tf.ones((3, 4)), x, transpose_b=True)  # the KerasTensor in a later argument
    model = tf.keras.Model([x, y], [out, w])
    a = np.linspace(-1, 1, 8).reshape(2, 4).astype("float32")
    b = np.linspace(1, -2, 8).reshape(2, 4).astype("float32")
    got_out, got_w = model([a, b])
    np.testing.assert_allclose(got_out.numpy(), (np.maximum(np.concatenate([a, b * 2], 1), 0) - 1).mean(1),
                               rtol=1e-6)
    np.testing.assert_allclose(got_w.numpy(), np.ones((3, 4)) @ a.T, rtol=1e-6)
    np.testing.assert_allclose(tf.function(model)([a, b])[0].numpy(), got_out.numpy(), rtol=1e-6)


def test_every_dispatchable_function_is_wrapped_once():
    for path in DISPATCHABLE:
        fn = _resolve(path)
        assert fn._tf_api_name == API_NAMES.get(path, path), path
        assert fn.__wrapped__.__name__ == fn.__name__
    assert tf.abs is tf.math.abs and tf.sigmoid is tf.nn.sigmoid is tf.math.sigmoid
    assert not hasattr(tf.constant, "_tf_api_name")  # TF dispatches no call of tf.constant


def test_unary_functions_of_the_registry_on_keras_tensors(fresh_names):
    """Each dispatchable function that takes one float tensor gives one TFOpLambda named tf.<API name> whose
    model computes what the function computes eagerly."""
    value = np.linspace(0.1, 0.9, 8).reshape(2, 4).astype("float32")
    checked = 0
    for path in DISPATCHABLE:
        fn = _resolve(path)
        try:
            want = fn(tf.constant(value))
        except Exception:  # pylint: disable=broad-except
            continue  # needs other arguments
        if not isinstance(want, tf.Tensor):
            continue
        x = tf.keras.Input((4,), batch_size=2)  # add_n iterates over the first axis
        out = fn(x)
        layer = out._keras_history[0]
        assert layer.symbol == "tf." + API_NAMES.get(path, path), path
        if path.startswith("random."):
            continue  # another draw
        got = tf.keras.Model(x, out)(value)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6, err_msg=path)
        checked += 1
    assert checked > 60


def test_errors_without_keras_tensors_are_unchanged():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.concat([tf.ones((2, 3)), tf.ones((3, 2))], 0)
    for fn, args in ((tf.math.abs, ("a",)), (tf.reshape, ([1, 2, 3], (2, 2))), (tf.nn.relu, (None,))):
        with pytest.raises(Exception) as direct:
            fn.__wrapped__(*args)
        with pytest.raises(type(direct.value), match=re.escape(str(direct.value))):
            fn(*args)


def test_a_failing_symbolic_call_raises_its_own_error(fresh_names):
    x = tf.keras.Input((4,), batch_size=2)
    with pytest.raises(ValueError, match="Exception encountered when calling layer .tf.reshape. "
                                         r"\(type TFOpLambda\)") as info:
        tf.reshape(x, (3, 5))
    seen = info.value
    while seen is not None:  # not chained to the failed eager call on the KerasTensor
        assert "KerasTensor" not in str(seen)
        seen = seen.__context__



def test_errors_of_calls_on_keras_tensors_are_worded_as_keras2(fresh_names):
    class Boom(tf.keras.layers.Layer):
        def call(self, inputs, training=None):
            raise ValueError("boom")

    x = tf.keras.Input((3,), name="x")
    with pytest.raises(ValueError) as info:
        Boom(name="b")(x)
    assert str(info.value) == ('Exception encountered when calling layer "b" (type Boom).\n\nboom\n\n'
                               'Call arguments received by layer "b" (type Boom):\n'
                               "  • inputs=tf.Tensor(shape=(None, 3), dtype=float32)\n  • training=None")
    y = tf.keras.Input((3,), batch_size=2)
    with pytest.raises(ValueError) as info:
        tf.reduce_sum(y, axis=5)
    text = str(info.value)
    assert text.startswith('Exception encountered when calling layer "tf.math.reduce_sum" (type TFOpLambda).\n\n')
    assert text.endswith('Call arguments received by layer "tf.math.reduce_sum" (type TFOpLambda):\n'
                         "  • input_tensor=tf.Tensor(shape=(2, 3), dtype=float32)\n  • axis=5\n  • keepdims=False\n"
                         "  • name=None")
    with pytest.raises(ValueError) as info:
        tf.concat([y, tf.keras.Input((4,), batch_size=3)], 0)
    assert str(info.value).endswith(
        "Call arguments received by layer \"tf.concat\" (type TFOpLambda):\n"
        "  • values=['tf.Tensor(shape=(2, 3), dtype=float32)', 'tf.Tensor(shape=(3, 4), dtype=float32)']\n"
        "  • axis=0\n  • name=concat")
