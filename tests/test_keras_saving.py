"""Model.save_weights / load_weights in TF's checkpoint format and the ModelCheckpoint callback; file
lists, keys and printed lines are those tf_keras gives for the same code."""
import contextlib
import io
import os

import numpy as np
import pytest

import eagerflow as tf


def _model(**kw):
    return tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(4,), **kw)])


def _data():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 4)).astype(np.float32)
    return x, (x[:, 0] > 0).astype(np.int64)


def test_save_and_load_weights_round_trip(tmp_path):
    m = _model()
    m.compile("adam", "mse")
    m.fit(np.ones((4, 4)), np.ones((4, 2)), verbose=0)
    prefix = str(tmp_path / "w")
    assert m.save_weights(prefix) is None
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "w.data-00000-of-00001", "w.index"]
    assert [k for k, _ in tf.train.list_variables(prefix)] == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_variables/1/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE", "optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE"]
    assert open(tmp_path / "checkpoint").read() == 'model_checkpoint_path: "w"\nall_model_checkpoint_paths: "w"\n'
    fresh = _model()
    status = fresh.load_weights(prefix)
    assert type(status).__name__ == "CheckpointLoadStatus"
    status.expect_partial()  # the fresh model has no optimizer
    for a, b in zip(fresh.get_weights(), m.get_weights()):
        np.testing.assert_array_equal(a, b)
    # a model without weights yet gets them when it builds (deferred restoration)
    lazy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    lazy.load_weights(prefix).expect_partial()
    lazy(np.ones((1, 4), np.float32))
    np.testing.assert_array_equal(lazy.get_weights()[0], m.get_weights()[0])


def test_hdf5_needs_h5py_and_unknown_formats(tmp_path):
    m = _model()
    with pytest.raises(ImportError, match="`save_weights` requires h5py"):
        m.save_weights(str(tmp_path / "w.h5"))
    with pytest.raises(ValueError, match="Unknown format"):
        m.save_weights(str(tmp_path / "w"), save_format="zip")
    with pytest.raises(tf.errors.NotFoundError):
        m.load_weights(str(tmp_path / "missing"))


def test_model_checkpoint_callback(tmp_path):
    x, y = _data()
    m = _model(kernel_initializer="ones")
    m.compile(tf.keras.optimizers.SGD(0.1), tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    d = str(tmp_path)
    every = tf.keras.callbacks.ModelCheckpoint(d + "/cp-{epoch:02d}.ckpt", save_weights_only=True, verbose=1)
    best = tf.keras.callbacks.ModelCheckpoint(d + "/best", save_weights_only=True, save_best_only=True,
                                              monitor="loss", mode="max", verbose=1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        m.fit(x, y, epochs=2, batch_size=32, verbose=0, shuffle=False, callbacks=[every, best])
    assert out.getvalue() == (
        f"\nEpoch 1: saving model to {d}/cp-01.ckpt\n"
        f"\nEpoch 1: loss improved from -inf to 0.67838, saving model to {d}/best\n"
        f"\nEpoch 2: saving model to {d}/cp-02.ckpt\n"
        "\nEpoch 2: loss did not improve from 0.67838\n")
    assert sorted(os.listdir(d)) == ["best.data-00000-of-00001", "best.index", "checkpoint",
                                     "cp-01.ckpt.data-00000-of-00001", "cp-01.ckpt.index",
                                     "cp-02.ckpt.data-00000-of-00001", "cp-02.ckpt.index"]
    assert tf.train.latest_checkpoint(d) == f"{d}/cp-02.ckpt"
    with pytest.raises(NotImplementedError, match="save_weights_only=True"):
        tf.keras.callbacks.ModelCheckpoint(d + "/model")
