"""Model.compile/fit/evaluate/predict against values recorded from tf_keras (TF 2.21, Keras 2): a Dense
model with fixed weights, SGD, no shuffling, so each history entry is deterministic."""
import numpy as np
import pytest

import eagerflow as tf

rng = np.random.RandomState(0)
X = rng.rand(50, 4).astype("float32")
Y = rng.randint(0, 3, 50)
SW = rng.rand(50).astype("float32")
KERNEL = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
BIAS = np.array([0.1, -0.2, 0.3], "float32")


def make(metrics=("accuracy",), loss=None, optimizer=None, **kwargs):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    m.build((None, 4))
    m(X[:1])
    m.set_weights([KERNEL, BIAS])
    m.compile(optimizer=optimizer or tf.keras.optimizers.SGD(0.1),
              loss=loss or tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=list(metrics), **kwargs)
    return m


def assert_history(history, want):
    assert list(history) == list(want)
    for k in want:
        assert all(isinstance(v, float) for v in history[k])
        np.testing.assert_allclose(history[k], want[k], rtol=2e-5, atol=1e-6, err_msg=k)


def test_fit_evaluate_predict():
    m = make()
    assert m.metrics == [] and m.metrics_names == []
    h = m.fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert isinstance(h, tf.keras.callbacks.History)
    assert_history(h.history, {"loss": [1.2132646, 1.1872211], "accuracy": [0.32, 0.32]})
    assert h.epoch == [0, 1] and h.params == {"verbose": 0, "epochs": 2, "steps": 4}
    assert m.metrics_names == ["loss", "accuracy"]
    assert [type(x).__name__ for x in m.metrics] == ["Mean", "MeanMetricWrapper"]
    np.testing.assert_allclose(m.evaluate(X, Y, batch_size=16, verbose=0), [1.173496127128601, 0.32], rtol=1e-5)
    d = m.evaluate(X, Y, verbose=0, return_dict=True)
    assert list(d) == ["loss", "accuracy"] and isinstance(d["loss"], float)
    p = m.predict(X, batch_size=16, verbose=0)
    assert isinstance(p, np.ndarray) and p.shape == (50, 3)
    np.testing.assert_allclose(p[:2], [[-0.2056078463792801, -0.29881200194358826, 0.6027876138687134],
                                       [0.15021903812885284, 0.06430162489414215, 0.9640637040138245]], rtol=1e-5)


@pytest.mark.parametrize("kwargs,want", [
    (dict(sample_weight=SW), {"loss": [0.6334352, 0.6207483], "accuracy": [0.32, 0.32]}),
    (dict(class_weight={0: 1.0, 1: 2.0, 2: 0.5}), {"loss": [1.4712625, 1.3590355], "accuracy": [0.32, 0.32]}),
    (dict(validation_split=0.2), {"loss": [1.2676136, 1.1921211], "accuracy": [0.25, 0.25],
                                  "val_loss": [0.9834074, 0.9952582], "val_accuracy": [0.6, 0.6]}),
    (dict(steps_per_epoch=2), {"loss": [1.2400873, 1.1655799], "accuracy": [0.28125, 0.3888889]}),
], ids=["sample_weight", "class_weight", "validation_split", "steps_per_epoch"])
def test_fit_options(kwargs, want):
    h = make().fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0, **kwargs)
    assert_history(h.history, want)


def test_optimizers_by_name():
    h = make(optimizer="rmsprop").fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [1.2231566, 1.2179919], "accuracy": [0.32, 0.32]})
    h = make(metrics=[], optimizer="adagrad").fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [1.223555, 1.2226063]})


def test_categorical_accuracy_resolved_from_shapes():
    m = make(loss="categorical_crossentropy")
    h = m.fit(X, np.eye(3)[Y], batch_size=16, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [5.3396816], "accuracy": [0.32]})
    assert m.metrics[1]._fn.__name__ == "categorical_accuracy"


@pytest.mark.parametrize("y,units,name,fn", [
    (np.eye(3)[Y], 3, "accuracy", "categorical_accuracy"),
    (Y.reshape(-1, 1), 3, "acc", "sparse_categorical_accuracy"),
    (Y, 3, "accuracy", "sparse_categorical_accuracy"),
    ((Y > 1).reshape(-1, 1).astype("float32"), 1, "accuracy", "binary_accuracy"),
])
def test_accuracy_resolution(y, units, name, fn):
    m = tf.keras.Sequential([tf.keras.layers.Dense(units)])
    m.compile("sgd", "mse", metrics=[name])
    m.fit(X, y, verbose=0)
    assert m.metrics_names == ["loss", name]
    assert m.metrics[1]._fn.__name__ == fn


def test_dataset_input_and_validation():
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(16)
    h = make(metrics=["mae"]).fit(ds, epochs=2, verbose=0, validation_data=ds)
    assert_history(h.history, {"loss": [1.2132646, 1.1872211], "mae": [1.0573207, 1.0436856],
                               "val_loss": [1.1943043, 1.1734961], "val_mae": [1.0603092, 1.0502204]})


def test_dataset_with_sample_weights():
    ds = tf.data.Dataset.from_tensor_slices((X, Y, SW)).batch(16)
    h = make().fit(ds, epochs=2, verbose=0)
    assert_history(h.history, {"loss": [0.6334352, 0.6207483], "accuracy": [0.32, 0.32]})


def test_weighted_metrics():
    m = make(weighted_metrics=["accuracy"])
    h = m.fit(X, Y, sample_weight=SW, batch_size=16, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [0.6334352493286133], "accuracy": [0.32],
                               "weighted_accuracy": [0.3326341211795807]})


def test_train_and_test_on_batch():
    m = make()
    np.testing.assert_allclose(m.train_on_batch(X[:16], Y[:16]), [1.255770206451416, 0.25], rtol=1e-5)
    np.testing.assert_allclose(m.test_on_batch(X, Y), [1.2099108695983887, 0.32], rtol=1e-5)
    assert m.predict_on_batch(X[:3]).shape == (3, 3)
    assert set(m.test_on_batch(X, Y, return_dict=True)) == {"loss", "accuracy"}


def test_run_eagerly_gives_the_same_history():
    h = make(run_eagerly=True).fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [1.2132646, 1.1872211], "accuracy": [0.32, 0.32]})


def test_train_step_is_traced_once_per_shape():
    m = make()
    traces = []
    real = m.train_step

    def counting(data):
        traces.append(data)
        return real(data)

    m.train_step = counting
    m.fit(X, Y, batch_size=16, epochs=3, verbose=0)  # 3 full batches and a partial one per epoch
    # As in TF: the first call traces twice (creating variables, then without), the partial batch once more
    # with relaxed shapes; later epochs reuse them.
    assert [tuple(t[0].shape.as_list()) for t in traces] == [(16, 4), (16, 4), (None, 4)]


def test_tensor_and_dict_inputs():
    class TwoInputs(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(3)

        def call(self, inputs):
            return self.d(tf.concat([inputs["a"], inputs["b"]], axis=-1))

    m = TwoInputs()
    m.compile("sgd", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    h = m.fit({"a": tf.constant(X[:, :2]), "b": X[:, 2:]}, tf.constant(Y), batch_size=10, epochs=2, verbose=0)
    assert list(h.history) == ["loss"] and len(h.history["loss"]) == 2
    assert m.predict({"a": X[:, :2], "b": X[:, 2:]}, verbose=0).shape == (50, 3)


def test_custom_train_step():
    """The guide's pattern: train_step overridden with compiled_loss, compiled_metrics and the optimizer."""

    class CustomModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
            self.compiled_metrics.update_state(y, y_pred)
            return {m.name: m.result() for m in self.metrics}

    x = np.random.random((64, 4)).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    m = CustomModel()
    m.compile(optimizer="adam", loss="mse", metrics=["mae"])
    h = m.fit(x, y, epochs=3, verbose=0)
    assert list(h.history) == ["loss", "mae"]
    assert h.history["loss"][-1] < h.history["loss"][0]


def test_custom_metrics_property():
    """The guide's second pattern: own loss tracker, `metrics` listed so fit resets them each epoch."""

    class CustomModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(1)
            self.loss_tracker = tf.keras.metrics.Mean(name="loss")

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.loss_tracker.update_state(loss)
            return {"loss": self.loss_tracker.result()}

        @property
        def metrics(self):
            return [self.loss_tracker]

    x = np.random.random((64, 4)).astype("float32")
    m = CustomModel()
    m.compile(optimizer="adam")
    h = m.fit(x, x.sum(axis=1, keepdims=True), epochs=2, verbose=0)
    assert list(h.history) == ["loss"]


# --- bad input -------------------------------------------------------------------------------------
def test_fit_before_compile():
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    msg = r"You must compile your model before training/testing. Use `model.compile\(optimizer, loss\)`."
    with pytest.raises(RuntimeError, match=msg):
        m.fit(X, Y, verbose=0)
    with pytest.raises(RuntimeError, match=msg):
        m.evaluate(X, Y, verbose=0)
    assert m.predict(X, verbose=0).shape == (50, 3)  # predict needs no compile


def test_mismatched_lengths():
    with pytest.raises(ValueError) as e:
        make().fit(X, Y[:20], verbose=0)
    assert str(e.value) == ("Data cardinality is ambiguous:\n  x sizes: 50\n  y sizes: 20\n"
                            "Make sure all arrays contain the same number of samples.")


def test_unknown_loss_and_optimizer():
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    with pytest.raises(ValueError, match="Unknown optimizer: 'foo'. Please ensure"):
        m.compile(optimizer="foo", loss="mse")
    m.compile(optimizer="sgd", loss="foo")  # Keras 2 resolves the loss on the first step
    with pytest.raises(ValueError, match="Unknown loss function: 'foo'. Please ensure you are using a "
                                         "`keras.utils.custom_object_scope`"):
        m.fit(X, Y, verbose=0)


def test_labels_out_of_range():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Received a label value of \d+ which is outside "
                                                             r"the valid range of \[0, 3\)"):
        make().fit(X, Y + 5, verbose=0)


def test_missing_targets_and_dataset_with_y():
    with pytest.raises(ValueError, match="Target data is missing. Your model was compiled with loss="):
        make(loss="mse").fit(X, verbose=0)
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8)
    with pytest.raises(ValueError, match="`y` argument is not supported when using dataset as input."):
        make().fit(ds, Y, verbose=0)
    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors or NumPy arrays"):
        make().fit(ds, validation_split=0.5, verbose=0)


def test_validation_freq_and_initial_epoch():
    h = make().fit(X, Y, batch_size=16, epochs=4, shuffle=False, verbose=0, validation_data=(X, Y),
                   validation_freq=2, initial_epoch=1)
    assert h.epoch == [1, 2, 3]
    assert_history(h.history, {"loss": [1.2132645845413208, 1.1872210502624512, 1.1689670085906982],
                               "accuracy": [0.32, 0.32, 0.32], "val_loss": [1.194304347038269, 1.1588246822357178],
                               "val_accuracy": [0.32, 0.32]})


def test_metric_objects_and_loss_only():
    m = make(metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    h = m.fit(X, Y, batch_size=16, shuffle=False, verbose=0)
    assert_history(h.history, {"loss": [1.2132645845413208], "sparse_categorical_accuracy": [0.32]})
    assert m.metrics_names == ["loss", "sparse_categorical_accuracy"]
    m = make(metrics=[])
    m.fit(X, Y, verbose=0)
    loss = m.evaluate(X, Y, verbose=0)
    assert isinstance(loss, float) and m.metrics_names == ["loss"]


def test_shuffle_changes_batches_not_epoch_sums():
    """Shuffled, the epoch's loss differs from the unshuffled run's but stays a mean over all 50 samples."""
    np.random.seed(1)
    m = make(optimizer=tf.keras.optimizers.SGD(0.0))  # no update: every order gives the same mean loss
    h = m.fit(X, Y, batch_size=16, epochs=2, verbose=0)
    np.testing.assert_allclose(h.history["loss"], [m.evaluate(X, Y, verbose=0)[0]] * 2, rtol=1e-5)


def test_python_generator_input():
    def batches():
        while True:
            for i in range(0, 50, 16):
                yield X[i:i + 16], Y[i:i + 16]

    h = make().fit(batches(), steps_per_epoch=4, epochs=2, verbose=0)
    assert_history(h.history, {"loss": [1.2132646, 1.1872211], "accuracy": [0.32, 0.32]})
    with pytest.raises(ValueError, match="`y` argument is not supported when using python generator as input."):
        make().fit(batches(), Y, steps_per_epoch=1, verbose=0)


def test_unknown_metric_and_loss_identifiers():
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    m.compile("sgd", "mse", metrics=["foo"])  # as in Keras 2, names resolve on the first batch
    with pytest.raises(TypeError, match="'str' object is not callable"):
        m.fit(X, Y, verbose=0)
    m.compile("sgd", loss=3)
    with pytest.raises(ValueError, match="Could not interpret loss function identifier: 3"):
        m.fit(X, Y, verbose=0)
