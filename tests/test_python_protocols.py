"""copy, deepcopy and pickle of tensors and variables, as TF 2.21 does them (plotting libraries copy
what they plot)."""
import copy
import pickle

import numpy as np
import pytest

import eagerflow as tf


def test_tensors_are_their_own_copies():
    for t in (tf.constant([1.0, 2.0]), tf.constant("a"), tf.zeros([0, 3]), tf.Variable(1.0).handle):
        assert copy.copy(t) is t
        assert copy.deepcopy(t) is t
    nested = copy.deepcopy({"x": [tf.constant(1)]})
    assert nested["x"][0].numpy() == 1


def test_pickled_tensors_round_trip_their_values():
    for t in (tf.constant([1.0, 2.0]), tf.constant("a"), tf.constant([b"x", b"y"]), tf.zeros([0, 3]),
              tf.constant(np.arange(6).reshape(2, 3)), tf.constant([1 + 2j]), tf.constant(True)):
        for protocol in (2, pickle.HIGHEST_PROTOCOL):
            r = pickle.loads(pickle.dumps(t, protocol=protocol))
            assert isinstance(r, tf.Tensor) and r.dtype == t.dtype and r.shape == t.shape
            np.testing.assert_array_equal(r.numpy(), t.numpy())
    r = pickle.loads(pickle.dumps(tf.constant([1.0]).ref()))
    assert r.deref().numpy().tolist() == [1.0]


def test_handles_have_no_value_to_pickle():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot convert a Tensor of dtype resource to a NumPy"):
        pickle.dumps(tf.Variable(1.0).handle)


def test_symbolic_tensors_cannot_be_pickled_or_deep_copied():
    for fn in (lambda x: pickle.dumps(x), lambda x: copy.deepcopy(x)):
        with pytest.raises(TypeError, match="cannot pickle 'SymbolicTensor' object"):
            tf.function(fn)(tf.constant(1.0))


def test_variable_copy_is_itself_and_deepcopy_is_independent():
    v = tf.Variable([1.0, 2.0], name="w", trainable=False)
    assert copy.copy(v) is v
    d = copy.deepcopy(v)
    d.assign([3.0, 4.0])
    assert d is not v and v.numpy().tolist() == [1.0, 2.0] and d.numpy().tolist() == [3.0, 4.0]
    assert d.name == "w:0" and not d.trainable and d.dtype == tf.float32
    a, b = copy.deepcopy([v, v])
    assert a is b and a is not v  # the memo keeps shared variables shared
    m = tf.Module()
    m.v = tf.Variable(1.0)
    m2 = copy.deepcopy(m)
    assert m2.v is not m.v and m2.v.numpy() == 1.0
    with pytest.raises(NotImplementedError, match="__deepcopy__\\(\\) is only available when eager execution"):
        tf.function(lambda: copy.deepcopy(v))()


def test_pickled_variables_round_trip():
    v = tf.Variable([1.0, 2.0], name="w", trainable=False)
    w = pickle.loads(pickle.dumps(v))
    assert w is not v and w.name == "w:0" and not w.trainable and w.numpy().tolist() == [1.0, 2.0]
    with pytest.raises(NotImplementedError, match="numpy\\(\\) is only available when eager execution"):
        tf.function(lambda: pickle.dumps(v))()


def test_what_plotting_libraries_do_with_tensors():
    # matplotlib copies its inputs (copy.copy / deepcopy) and reads them with np.asarray.
    x = tf.linspace(-2.0, 2.0, 5)
    y = x ** 2
    for data in (copy.copy(y), copy.deepcopy(y), np.asarray(y), np.asarray(copy.deepcopy([x, y]))):
        assert np.asarray(data).shape[-1] == 5
    np.testing.assert_allclose(np.asarray(copy.deepcopy(y)), np.linspace(-2, 2, 5) ** 2)
