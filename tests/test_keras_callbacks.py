"""Callbacks and the progress bar, compared with tf_keras (TF 2.21, Keras 2): printed text character by
character except the timings, histories and the hooks called."""
import itertools
import re
import types

import numpy as np
import pytest

import eagerflow as tf

rng = np.random.RandomState(0)
X = rng.rand(50, 4).astype("float32")
Y = rng.randint(0, 3, 50)
KERNEL = np.linspace(-1, 1, 12).reshape(4, 3).astype("float32")
BIAS = np.array([0.1, -0.2, 0.3], "float32")
BS = "\b" * 80


@pytest.fixture(autouse=True)
def steady_clock(monkeypatch):
    """Each reading of the progress bar's clock is 1 ms after the last, so it redraws as on an idle
    machine: on a loaded one a step can outlast the bar's 0.05 s interval and add a redraw."""
    from eagerflow.keras._utils import progbar
    ticks = itertools.count()
    monkeypatch.setattr(progbar, "time", types.SimpleNamespace(time=lambda: 1e6 + next(ticks) * 1e-3))


def make(lr=0.1, metrics=("accuracy",)):
    m = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    m(X[:1])
    m.set_weights([KERNEL, BIAS])
    m.compile(optimizer=tf.keras.optimizers.SGD(lr),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=list(metrics))
    return m


def normalize(text):
    """Timings and the backspaces before a redraw (their count follows the previous line's length) vary."""
    text = re.sub(r"\x08+", "<BS>", text)
    text = re.sub(r"ETA: [\d:]+s?", "ETA: T", text)
    text = re.sub(r"\d+(s|ms|us)/(step|epoch)", r"T/\2", text)
    return re.sub(r" - \d+s", " - Ts", text)


def check_output(capsys, want):
    assert normalize(capsys.readouterr().out) == normalize(want)


# Recorded from tf_keras with stdout piped (Keras 2 redraws in place on any POSIX system).
FIT_V1 = ("Epoch 1/2\n"
          "\r1/4 [======>.......................] - ETA: 3s - loss: 1.2558 - accuracy: 0.2500" + BS +
          "\r4/4 [==============================] - 1s 146ms/step - loss: 1.2133 - accuracy: 0.3200 - val_loss: 1.1943 "
          "- val_accuracy: 0.3200\n"
          "Epoch 2/2\n"
          "\r1/4 [======>.......................] - ETA: 0s - loss: 1.2521 - accuracy: 0.2500" + BS +
          "\r4/4 [==============================] - 0s 22ms/step - loss: 1.1872 - accuracy: 0.3200 - val_loss: 1.1735 "
          "- val_accuracy: 0.3200\n")
FIT_V2 = ("Epoch 1/2\n"
          "4/4 - 3s - loss: 1.2133 - accuracy: 0.3200 - val_loss: 1.1943 - val_accuracy: 0.3200 - 3s/epoch "
          "- 647ms/step\n"
          "Epoch 2/2\n"
          "4/4 - 0s - loss: 1.1872 - accuracy: 0.3200 - val_loss: 1.1735 - val_accuracy: 0.3200 - 184ms/epoch "
          "- 46ms/step\n")
EVAL_PREDICT = ("\r1/4 [======>.......................] - ETA: 4s - loss: 1.2558 - accuracy: 0.2500" + BS +
                "\r4/4 [==============================] - 1s 6ms/step - loss: 1.2239 - accuracy: 0.3200\n"
                "4/4 - 0s - loss: 1.2239 - accuracy: 0.3200 - 64ms/epoch - 16ms/step\n"
                "\r1/4 [======>.......................] - ETA: 0s" + BS +
                "\r4/4 [==============================] - 0s 4ms/step\n"
                "4/4 - 0s - 101ms/epoch - 25ms/step\n")


def test_fit_progress_bar(capsys):
    make().fit(X, Y, batch_size=16, epochs=2, shuffle=False, validation_data=(X, Y))
    check_output(capsys, FIT_V1)


def test_fit_one_line_per_epoch(capsys):
    make().fit(X, Y, batch_size=16, epochs=2, shuffle=False, verbose=2, validation_data=(X, Y))
    check_output(capsys, FIT_V2)


def test_one_epoch_has_no_epoch_line(capsys):
    make().fit(X, Y, batch_size=16, epochs=1, shuffle=False)
    check_output(capsys, "\r1/4 [======>.......................] - ETA: 4s - loss: 1.2558 - accuracy: 0.2500" + BS +
                 "\r4/4 [==============================] - 1s 11ms/step - loss: 1.2133 - accuracy: 0.3200\n")


def test_evaluate_and_predict_bars(capsys):
    m = make()
    m.evaluate(X, Y, batch_size=16)
    m.evaluate(X, Y, batch_size=16, verbose=2)
    m.predict(X, batch_size=16)
    m.predict(X, batch_size=16, verbose=2)
    check_output(capsys, EVAL_PREDICT)


def test_verbose_zero_is_silent(capsys):
    m = make()
    m.fit(X, Y, batch_size=16, epochs=2, verbose=0, validation_split=0.2)
    m.evaluate(X, Y, verbose=0)
    m.predict(X, verbose=0)
    assert capsys.readouterr().out == ""


def test_terminate_on_nan(capsys):
    x = X.copy()
    x[20] = np.nan
    h = make().fit(x, Y, batch_size=16, epochs=3, shuffle=False, callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    assert list(h.history) == ["loss", "accuracy"] and np.isnan(h.history["loss"][0]) and h.epoch == [0]
    check_output(capsys, "Epoch 1/3\n"
                 "\r1/4 [======>.......................] - ETA: 3s - loss: 1.2558 - accuracy: 0.2500"
                 "Batch 1: Invalid loss, terminating training\n" + BS +
                 "\r4/4 [==============================] - 1s 4ms/step - loss: nan - accuracy: 0.2500\n")


def test_early_stopping_restores_best_weights(capsys):
    m = make(lr=5.0)
    es = tf.keras.callbacks.EarlyStopping(monitor="val_loss", patience=1, verbose=1, restore_best_weights=True)
    h = m.fit(X, Y, batch_size=16, epochs=10, shuffle=False, verbose=0, validation_data=(X, Y), callbacks=[es])
    assert h.epoch == [0, 1]
    np.testing.assert_allclose(h.history["val_loss"], [3.9066162109375, 4.16082239151001], rtol=1e-5)
    np.testing.assert_allclose(m.get_weights()[1], [0.1341865062713623, -2.1180503368377686, 2.1838643550872803],
                               rtol=1e-5)
    assert capsys.readouterr().out == ("Epoch 2: early stopping\n"
                                       "Restoring model weights from the end of the best epoch: 1.\n")


def test_early_stopping_min_delta_and_start_epoch(capsys):
    es = tf.keras.callbacks.EarlyStopping(monitor="accuracy", patience=2, verbose=1, min_delta=0.01,
                                          start_from_epoch=1)
    h = make().fit(X, Y, batch_size=16, epochs=6, shuffle=False, verbose=0, callbacks=[es])
    assert h.epoch == [0, 1, 2, 3]
    np.testing.assert_allclose(h.history["loss"], [1.2132645845413208, 1.1872210502624512, 1.1689670085906982,
                                                   1.156133770942688], rtol=1e-5)
    assert capsys.readouterr().out == "Epoch 4: early stopping\n"
    assert es.monitor_op is np.greater


def test_learning_rate_scheduler(capsys):
    cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)
    h = make().fit(X, Y, batch_size=16, epochs=3, shuffle=False, verbose=0, callbacks=[cb])
    np.testing.assert_allclose(h.history["loss"], [1.2181599140167236, 1.2043704986572266, 1.19797945022583],
                               rtol=1e-5)
    assert h.history["lr"] == [np.float32(0.05), np.float32(0.025), np.float32(0.0125)]
    assert capsys.readouterr().out == (
        "\nEpoch 1: LearningRateScheduler setting learning rate to 0.05000000074505806.\n"
        "\nEpoch 2: LearningRateScheduler setting learning rate to 0.02500000037252903.\n"
        "\nEpoch 3: LearningRateScheduler setting learning rate to 0.012500000186264515.\n")


def test_reduce_lr_on_plateau(capsys):
    cb = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=1, factor=0.5, verbose=1)
    h = make(lr=5.0).fit(X, Y, batch_size=16, epochs=6, shuffle=False, verbose=0, callbacks=[cb])
    np.testing.assert_allclose(h.history["loss"], [2.4265520572662354, 2.7521779537200928, 2.3397374153137207,
                                                   1.8908616304397583, 1.814183235168457, 1.781859278678894],
                               rtol=1e-4)
    assert h.history["lr"] == [5.0, 5.0, 2.5, 2.5, 2.5, 2.5]
    assert capsys.readouterr().out == "\nEpoch 2: ReduceLROnPlateau reducing learning rate to 2.5.\n"
    with pytest.raises(ValueError, match="ReduceLROnPlateau does not support a factor >= 1.0. Got 1.5"):
        tf.keras.callbacks.ReduceLROnPlateau(factor=1.5)


def test_lambda_callback_events():
    ev = []
    cb = tf.keras.callbacks.LambdaCallback(
        on_epoch_begin=lambda e, l: ev.append(("eb", e, l)), on_epoch_end=lambda e, l: ev.append(("ee", e, sorted(l))),
        on_batch_end=lambda batch, logs: ev.append(("be", batch, sorted(logs))),
        on_train_begin=lambda l: ev.append(("tb", l)), on_train_end=lambda l: ev.append(("te", sorted(l))))
    make().fit(X, Y, batch_size=16, epochs=2, verbose=0, callbacks=[cb])
    batches = [("be", i, ["accuracy", "loss"]) for i in range(4)]
    assert ev == ([("tb", {}), ("eb", 0, {})] + batches + [("ee", 0, ["accuracy", "loss"]), ("eb", 1, {})] + batches
                  + [("ee", 1, ["accuracy", "loss"]), ("te", ["accuracy", "loss"])])


def test_batch_hooks_only_when_overridden():
    calls = []

    class Recorder(tf.keras.callbacks.Callback):
        def __getattribute__(self, name):
            if name.startswith("on_"):
                calls.append(name)
            return object.__getattribute__(self, name)

    m = make()
    m.fit(X, Y, batch_size=25, verbose=0, callbacks=[Recorder()], validation_data=(X, Y), validation_batch_size=50)
    assert calls == ["on_train_begin", "on_epoch_begin", "on_test_begin", "on_test_end", "on_epoch_end",
                     "on_train_end"]
    calls.clear()
    m.evaluate(X, Y, verbose=0, callbacks=[Recorder()])
    m.predict(X, verbose=0, callbacks=[Recorder()])
    assert calls == ["on_test_begin", "on_test_end", "on_predict_begin", "on_predict_end"]


def test_custom_callback_sees_python_floats_and_stops_training():
    seen = []

    class StopAtTwo(tf.keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(logs)
            if batch == 1:
                self.model.stop_training = True

    h = make().fit(X, Y, batch_size=16, epochs=3, verbose=0, callbacks=[StopAtTwo()])
    assert len(seen) == 2 and all(isinstance(v, float) for v in seen[0].values())
    assert h.epoch == [0]


def test_progbar_standalone(capsys):
    bar = tf.keras.utils.Progbar(3, verbose=2, stateful_metrics=["acc"])
    bar.update(1, [("loss", 1.0), ("acc", 0.5)])
    bar.update(3, [("loss", 2.0), ("acc", 0.75)])  # loss averaged over the steps, acc shown as is
    assert normalize(capsys.readouterr().out) == normalize("3/3 - 0s - loss: 1.6667 - acc: 0.7500 - 0s/epoch - "
                                                           "0s/step\n")
    bar = tf.keras.utils.Progbar(None, verbose=1)
    bar.update(5, [("loss", 1e-5)])
    assert "      5/Unknown - 0s " in capsys.readouterr().out


def test_unknown_step_count_then_known(capsys):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).filter(lambda a, b: True).batch(16)
    make().fit(ds, epochs=2)
    check_output(capsys, "Epoch 1/2\n"
                 "\r      1/Unknown - 1s 979ms/step - loss: 1.2558 - accuracy: 0.2500" + BS +
                 "\r4/4 [==============================] - 1s 5ms/step - loss: 1.2133 - accuracy: 0.3200\n"
                 "Epoch 2/2\n"
                 "\r1/4 [======>.......................] - ETA: 0s - loss: 1.2521 - accuracy: 0.2500" + BS +
                 "\r4/4 [==============================] - 0s 2ms/step - loss: 1.1872 - accuracy: 0.3200\n")


def test_progbar_without_dynamic_display(capsys, monkeypatch):
    """Off a terminal, Jupyter and POSIX (Keras 2's test), each redraw starts a new line instead."""
    import sys
    monkeypatch.delitem(sys.modules, "posix", raising=False)
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    monkeypatch.delenv("PYCHARM_HOSTED", raising=False)
    bar = tf.keras.utils.Progbar(2)
    bar.update(1, [("loss", 0.5)])
    bar.update(2, [("loss", 0.25)])
    out = normalize(capsys.readouterr().out)
    assert out == normalize("\n1/2 [==============>...............] - ETA: 0s - loss: 0.5000"
                            "\n2/2 [==============================] - 0s 1ms/step - loss: 0.3750\n")
