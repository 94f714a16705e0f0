"""Models with several inputs and outputs in compile/fit/evaluate: losses, loss weights and metrics given as
one object, lists or dicts keyed by output name, and the log keys Keras 2 makes of them (`a_loss`,
`b_accuracy`, `val_a_mae`, ...). Expected values, printed lines and histories were recorded from tf_keras
(TF 2.21) for the same fixed weights."""
import contextlib
import io
import re

import numpy as np
import pytest

import eagerflow as tf

rng = np.random.RandomState(1)
X1 = rng.rand(12, 3).astype("float32")
X2 = rng.rand(12, 2).astype("float32")
YA = rng.rand(12).astype("float32")
YB = rng.randint(0, 3, 12)
SW = rng.rand(12).astype("float32")


def make():
    """Two Inputs joined by tf.concat, a hidden Dense, outputs `a` (regression) and `b` (3 classes)."""
    x1 = tf.keras.Input((3,), name="x1")
    x2 = tf.keras.Input((2,), name="x2")
    h = tf.keras.layers.Dense(4, activation="relu", name="hidden")(tf.concat([x1, x2], 1))
    a = tf.keras.layers.Dense(1, name="a")(h)
    b = tf.keras.layers.Dense(3, activation="softmax", name="b")(h)
    m = tf.keras.Model([x1, x2], [a, b])
    for layer in m.layers:
        layer.set_weights([np.linspace(-0.5, 0.7, w.size).reshape(w.shape).astype("float32")
                           for w in layer.get_weights()])
    return m


def normalized(text):
    text = re.sub(r"\d+(s|ms|us)/(step|epoch)", r"T/\2", text)
    return re.sub(r" - \d+s", " - Ts", text)


CASES = {
    "lists": (dict(loss=["mse", "sparse_categorical_crossentropy"], loss_weights=[0.5, 2.0],
                   metrics=["mae", "accuracy"]),
              [X1, X2], [YA, YB], dict(validation_data=([X1, X2], [YA, YB]))),
    "dicts": (dict(loss={"b": "sparse_categorical_crossentropy", "a": "mse"}, loss_weights={"a": 1.0, "b": 0.25},
                   metrics={"b": ["accuracy", "sparse_categorical_crossentropy"], "a": "mae"}),
              {"x1": X1, "x2": X2}, {"a": YA, "b": YB}, {}),
    "one_loss_per_output_lists": (dict(loss="mse", metrics=[["mae"], ["mse", "accuracy"]]),
                                  [X1, X2], [YA, np.eye(3, dtype="float32")[YB]], {}),
    "partial_loss": (dict(loss={"b": "sparse_categorical_crossentropy"}, metrics={"a": ["mae"]}),
                     [X1, X2], [YA, YB], {}),
    "sample_weight_weighted": (dict(loss=["mse", "sparse_categorical_crossentropy"], metrics=["mae"],
                                    weighted_metrics=["mae"]),
                               [X1, X2], [YA, YB], dict(sample_weight=SW)),
}

WANT = {
    "lists": dict(
        printed='Epoch 1/2\n3/3 - Ts - loss: 3.0447 - a_loss: 0.1922 - b_loss: 1.4743 - a_mae: 0.3597 - a_accuracy: 0.0000e+00 - b_mae: 0.6389 - b_accuracy: 0.1667 - val_loss: 2.4693 - val_a_loss: 0.1575 - val_b_loss: 1.1953 - val_a_mae: 0.3124 - val_a_accuracy: 0.0000e+00 - val_b_mae: 0.6389 - val_b_accuracy: 0.1667 - T/epoch - T/step\nEpoch 2/2\n3/3 - Ts - loss: 2.3949 - a_loss: 0.1628 - b_loss: 1.1567 - a_mae: 0.3304 - a_accuracy: 0.0000e+00 - b_mae: 0.6389 - b_accuracy: 0.1667 - val_loss: 2.1577 - val_a_loss: 0.1581 - val_b_loss: 1.0393 - val_a_mae: 0.3185 - val_a_accuracy: 0.0000e+00 - val_b_mae: 0.6389 - val_b_accuracy: 0.5833 - T/epoch - T/step\n',
        history={'loss': [3.0446997, 2.3948667], 'a_loss': [0.19218802, 0.16283834], 'b_loss': [1.4743028, 1.1567236], 'a_mae': [0.35973784, 0.33042744], 'a_accuracy': [0.0, 0.0], 'b_mae': [0.6388889, 0.6388889], 'b_accuracy': [0.16666667, 0.16666667], 'val_loss': [2.4693031, 2.157691], 'val_a_loss': [0.15748341, 0.1580953], 'val_b_loss': [1.1952807, 1.0393215], 'val_a_mae': [0.312399, 0.31854728], 'val_a_accuracy': [0.0, 0.0], 'val_b_mae': [0.6388889, 0.6388889], 'val_b_accuracy': [0.16666667, 0.58333331]},
        evaluate=[2.157691, 0.1580953, 1.0393215, 0.31854728, 0.0, 0.6388889, 0.58333331]),
    "dicts": dict(
        printed='Epoch 1/2\n3/3 - Ts - loss: 0.5972 - a_loss: 0.1973 - b_loss: 1.5997 - a_mae: 0.3677 - b_accuracy: 0.1667 - b_sparse_categorical_crossentropy: 1.5997 - T/epoch - T/step\nEpoch 2/2\n3/3 - Ts - loss: 0.5867 - a_loss: 0.2040 - b_loss: 1.5308 - a_mae: 0.3868 - b_accuracy: 0.1667 - b_sparse_categorical_crossentropy: 1.5308 - T/epoch - T/step\n',
        history={'loss': [0.59718353, 0.58671927], 'a_loss': [0.19726002, 0.20400983], 'b_loss': [1.5996939, 1.5308377], 'a_mae': [0.36770132, 0.38684914], 'b_accuracy': [0.16666667, 0.16666667], 'b_sparse_categorical_crossentropy': [1.5996939, 1.5308377]},
        evaluate=[0.52329206, 0.15164356, 1.4865942, 0.30719039, 0.16666667, 1.4865942]),
    "one_loss_per_output_lists": dict(
        printed='Epoch 1/2\n3/3 - Ts - loss: 0.5157 - a_loss: 0.1964 - b_loss: 0.3193 - a_mae: 0.3671 - b_mse: 0.3193 - b_accuracy: 0.1667 - T/epoch - T/step\nEpoch 2/2\n3/3 - Ts - loss: 0.5155 - a_loss: 0.2041 - b_loss: 0.3114 - a_mae: 0.3873 - b_mse: 0.3114 - b_accuracy: 0.1667 - T/epoch - T/step\n',
        history={'loss': [0.51573354, 0.51549929], 'a_loss': [0.19642203, 0.20412588], 'b_loss': [0.31931153, 0.31137344], 'a_mae': [0.367084, 0.38728094], 'b_mse': [0.31931153, 0.31137344], 'b_accuracy': [0.16666667, 0.16666667]},
        evaluate=[0.45820367, 0.15165599, 0.3065477, 0.30724201, 0.3065477, 0.16666667]),
    "partial_loss": dict(
        printed='Epoch 1/2\n3/3 - Ts - loss: 1.5402 - b_loss: 1.5402 - a_mae: 0.3289 - T/epoch - T/step\nEpoch 2/2\n3/3 - Ts - loss: 1.3144 - b_loss: 1.3144 - a_mae: 0.3187 - T/epoch - T/step\n',
        history={'loss': [1.5401707, 1.3144106], 'b_loss': [1.5401707, 1.3144106], 'a_mae': [0.32893085, 0.31867144]},
        evaluate=[1.2015625, 1.2015625, 0.32087475]),
    "sample_weight_weighted": dict(
        printed='Epoch 1/2\n3/3 - Ts - loss: 0.7602 - a_loss: 0.0416 - b_loss: 0.7186 - a_mae: 0.3378 - a_weighted_mae: 0.2574 - b_mae: 0.6389 - b_weighted_mae: 0.7196 - T/epoch - T/step\nEpoch 2/2\n3/3 - Ts - loss: 0.7145 - a_loss: 0.0378 - b_loss: 0.6767 - a_mae: 0.3131 - a_weighted_mae: 0.2334 - b_mae: 0.6389 - b_weighted_mae: 0.7196 - T/epoch - T/step\n',
        history={'loss': [0.76017374, 0.71454811], 'a_loss': [0.041600186, 0.037810631], 'b_loss': [0.71857357, 0.67673749], 'a_mae': [0.33784628, 0.31307414], 'a_weighted_mae': [0.25735846, 0.23343207], 'b_mae': [0.6388889, 0.6388889], 'b_weighted_mae': [0.71960533, 0.71960533]},
        evaluate=[1.5900563, 0.16004656, 1.4300095, 0.30764732, 0.30764732, 0.6388889, 0.6388889]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_fit_and_evaluate_like_keras2(case):
    compile_kwargs, x, y, fit_kwargs = CASES[case]
    want = WANT[case]
    m = make()
    m.compile(tf.keras.optimizers.SGD(0.1), **compile_kwargs)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        h = m.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=2, **fit_kwargs)
    assert normalized(out.getvalue()) == want["printed"]
    assert list(h.history) == list(want["history"])
    for key, values in want["history"].items():
        np.testing.assert_allclose(h.history[key], values, rtol=2e-5, atol=1e-6, err_msg=key)
    names = [k for k in want["history"] if not k.startswith("val_")]
    assert m.metrics_names == names
    results = m.evaluate(x, y, batch_size=4, verbose=0)
    np.testing.assert_allclose(results, want["evaluate"], rtol=2e-5, atol=1e-6)
    as_dict = m.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)
    assert list(as_dict) == names


def test_targets_as_dict_for_list_outputs_and_predict():
    m = make()
    m.compile(tf.keras.optimizers.SGD(0.1), loss=["mse", "sparse_categorical_crossentropy"])
    by_list = m.evaluate([X1, X2], [YA, YB], batch_size=4, verbose=0)
    by_dict = m.evaluate({"x2": X2, "x1": X1}, {"b": YB, "a": YA}, batch_size=4, verbose=0)
    np.testing.assert_allclose(by_list, by_dict)
    a, b = m.predict([X1, X2], batch_size=5, verbose=0)
    assert a.shape == (12, 1) and b.shape == (12, 3)


def test_metric_object_given_once_is_copied_per_output():
    m = make()
    mae = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.mean_absolute_error, name="my_mae")
    m.compile("sgd", loss="mse", metrics=[mae])
    m.evaluate([X1, X2], [YA, np.eye(3, dtype="float32")[YB]], verbose=0)
    assert m.metrics_names == ["loss", "a_loss", "b_loss", "a_my_mae", "b_my_mae"]
    assert m.metrics[3] is not m.metrics[4]


def test_loss_for_an_unknown_output_name():
    m = make()
    m.compile("sgd", loss={"a": "mse", "c": "mse"})
    with pytest.raises(ValueError, match=re.escape(
            "Found unexpected losses or metrics that do not correspond to any Model output: dict_keys(['c']). "
            "Valid mode output names: ['a', 'b']. Received struct is: {'c': 'mse'}.")):
        m.fit([X1, X2], [YA, YB], verbose=0)


def test_duplicate_metric_names():
    m = make()
    m.compile("sgd", loss="mse", metrics=[["mae", "mae"], []])
    with pytest.raises(ValueError, match="Found two metrics with the same name: a_mae. All the metrics added to "
                                         "the model need to have unique names."):
        m.evaluate([X1, X2], [YA, YB], verbose=0)


class _TwoOutputs(tf.keras.Model):
    def __init__(self, as_dict):
        super().__init__()
        self.as_dict = as_dict
        self.d1 = tf.keras.layers.Dense(1, kernel_initializer="ones")
        self.d2 = tf.keras.layers.Dense(2, kernel_initializer="ones")

    def call(self, x):
        a, b = self.d1(x), self.d2(x)
        return {"z": a, "y": b} if self.as_dict else [a, b]


def test_subclassed_model_outputs_are_named_as_keras2_does():
    m = _TwoOutputs(as_dict=False)
    m.compile("sgd", loss=["mse", "mse"], metrics=["mae"])
    h = m.fit(np.ones((4, 3), "float32"), [np.ones((4, 1)), np.ones((4, 2))], verbose=0)
    assert list(h.history) == ["loss", "output_1_loss", "output_2_loss", "output_1_mae", "output_2_mae"]
    m = _TwoOutputs(as_dict=True)
    m.compile("sgd", loss={"z": "mse", "y": "mae"}, metrics={"y": "mse"})
    h = m.fit(np.ones((4, 3), "float32"), {"z": np.ones((4, 1)), "y": np.ones((4, 2))}, verbose=0)
    assert list(h.history) == ["loss", "y_loss", "z_loss", "y_mse"]
    np.testing.assert_allclose([v[0] for v in h.history.values()], [6.0, 2.0, 4.0, 4.0], rtol=1e-6)


def test_class_weight_needs_a_single_output():
    m = make()
    m.compile("sgd", loss=["mse", "sparse_categorical_crossentropy"])
    with pytest.raises(ValueError, match="`class_weight` is only supported for Models with a single output."):
        m.fit([X1, X2], [YA, YB], class_weight={0: 1.0, 1: 2.0, 2: 1.0}, verbose=0)
