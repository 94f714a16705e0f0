"""tf.keras.datasets.mnist.load_data reads mnist.npz from the Keras cache; a missing file is
downloaded, and without network the error names the file and where to put it."""
import os
import urllib.error
import urllib.request

import numpy as np
import pytest

import eagerflow as tf


def _write_mnist(path, n_train=12, n_test=5):
    rng = np.random.default_rng(0)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savez(path, x_train=rng.integers(0, 256, (n_train, 28, 28), dtype=np.uint8),
             y_train=rng.integers(0, 10, n_train, dtype=np.uint8),
             x_test=rng.integers(0, 256, (n_test, 28, 28), dtype=np.uint8),
             y_test=rng.integers(0, 10, n_test, dtype=np.uint8))


@pytest.fixture
def offline(monkeypatch):
    def fail(url, filename=None, *a, **k):
        if filename:
            with open(filename, "wb") as f:
                f.write(b"partial")
        raise urllib.error.URLError("Name or service not known")
    monkeypatch.setattr(urllib.request, "urlretrieve", fail)


def test_load_data_from_keras_home(tmp_path, monkeypatch, offline):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    _write_mnist(str(tmp_path / "datasets" / "mnist.npz"))
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
    assert x_train.shape == (12, 28, 28) and x_train.dtype == np.uint8
    assert y_train.shape == (12,) and y_train.dtype == np.uint8
    assert x_test.shape == (5, 28, 28) and y_test.shape == (5,)
    expected = np.load(str(tmp_path / "datasets" / "mnist.npz"))
    np.testing.assert_array_equal(x_test, expected["x_test"])


def test_load_data_path_and_cache_dir(tmp_path, offline):
    _write_mnist(str(tmp_path / "own" / "datasets" / "digits.npz"))
    (x_train, _), _ = tf.keras.datasets.mnist.load_data(path="digits.npz", cache_dir=str(tmp_path / "own"))
    assert x_train.shape == (12, 28, 28)
    absolute = str(tmp_path / "elsewhere.npz")
    _write_mnist(absolute, n_train=3)
    (x_train, _), _ = tf.keras.datasets.mnist.load_data(path=absolute)
    assert x_train.shape == (3, 28, 28)


def test_missing_file_without_network(tmp_path, monkeypatch, offline, capsys):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(Exception, match="URL fetch failure on https://storage.googleapis.com/tensorflow/"
                                        "tf-keras-datasets/mnist.npz") as e:
        tf.keras.datasets.mnist.load_data()
    assert str(tmp_path / "datasets" / "mnist.npz") in str(e.value)
    assert "Downloading data from" in capsys.readouterr().out
    assert os.listdir(tmp_path / "datasets") == []  # no partial file left behind


def test_pickled_objects_are_not_loaded(tmp_path, monkeypatch, offline):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    os.makedirs(tmp_path / "datasets")
    np.savez(str(tmp_path / "datasets" / "mnist.npz"), x_train=np.array([object()], dtype=object),
             y_train=np.zeros(1, np.uint8), x_test=np.zeros((1, 28, 28), np.uint8), y_test=np.zeros(1, np.uint8))
    with pytest.raises(ValueError, match="allow_pickle"):
        tf.keras.datasets.mnist.load_data()


def test_get_file_requires_origin():
    with pytest.raises(ValueError, match='Please specify the "origin" argument'):
        tf.keras.utils.get_file("x.npz")
