"""Sequential as Keras 2 runs it: a functional network once its input shape is known (Functional's call:
the Input's dtype, a trailing axis of 1 squeezed), a shape inferred from the first call relaxed where later
calls differ. Expected shapes, dtypes and texts come from tf_keras (TF 2.21) on the same code."""
import contextlib
import io

import numpy as np
import pytest

import eagerflow as tf

L = tf.keras.layers

RELAXED_SUMMARY = '''Model: "s"
_________________________________________________________________
 Layer (type)                Output Shape              Param #   
=================================================================
 d1 (Dense)                  (None, 2)                 8         
                                                                 
 d2 (Dense)                  (None, 1)                 3         
                                                                 
=================================================================
Total params: 11 (44.00 Byte)
Trainable params: 11 (44.00 Byte)
Non-trainable params: 0 (0.00 Byte)
_________________________________________________________________
'''


def test_inferred_batch_size_is_relaxed_by_a_later_call():
    m = tf.keras.Sequential([L.Dense(2, name="d1"), L.Dense(1, name="d2")], name="s")
    m(np.ones((8, 3), "float32"))
    assert m.inputs[0].shape == (8, 3) and m.input_shape == (8, 3) and m.output_shape == (8, 1)
    assert m.layers[0].output_shape == (8, 2)
    out = m(np.ones((5, 3), "float32"))
    assert out.shape == (5, 1)
    assert m.input_shape == (None, 3) and m.output_shape == (None, 1)
    assert m.layers[0].output_shape == (None, 2) and len(m.layers[0]._inbound_nodes) == 1
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        m.summary()
    assert text.getvalue() == RELAXED_SUMMARY


def test_fit_with_a_partial_last_batch_relaxes_the_input():
    m = tf.keras.Sequential([L.Dense(2, name="e1")])
    m.compile("sgd", "mse")
    m.fit(np.ones((10, 3), "float32"), np.ones((10, 2), "float32"), batch_size=4, verbose=0)
    assert m.input_shape == (None, 3) and m.inputs[0].name == "e1_input"


def test_functional_call_squeezes_and_casts_like_keras2():
    m = tf.keras.Sequential([L.Dense(2, name="d1"), L.Flatten(name="f")])
    m(np.ones((8, 3), "float32"))
    assert m(np.ones((5, 3, 1), "float32")).shape == (5, 2)  # the trailing axis of 1 is squeezed
    assert m(np.ones((5, 3), "float64")).dtype == tf.float32  # conformed to the Input's dtype
    with_input = tf.keras.Sequential([tf.keras.Input((3,)), L.Dense(2)])
    assert with_input(np.ones((4, 3, 1), "float32")).shape == (4, 2)
    assert with_input(np.ones((4, 3), "int32")).dtype == tf.float32
    other_rank = tf.keras.Sequential([L.Dense(2)])
    other_rank(np.ones((4, 3), "float32"))
    assert other_rank(np.ones((4, 3, 1), "float32")).shape == (4, 2)  # the graph of rank 2 stays
    assert other_rank.input_shape == (4, 3)


def test_integer_data_gives_an_integer_input():
    m = tf.keras.Sequential([L.Dense(2)])
    out = m(np.ones((4, 3), "int32"))
    assert out.dtype == tf.float32 and m.inputs[0].dtype == tf.int32
    np.testing.assert_allclose(out.numpy(), np.ones((4, 3)) @ m.layers[0].kernel.numpy(), rtol=1e-6)


def test_data_that_does_not_fit_the_built_layers():
    m = tf.keras.Sequential([L.Dense(2)])
    m(np.ones((4, 3), "float32"))
    with pytest.raises(ValueError, match='Input 0 of layer "dense.*" is incompatible with the layer: expected axis -1 '
                                         r"of input shape to have value 3, but received input with shape \(4, 5\)"):
        m(np.ones((4, 5), "float32"))
    assert m(np.ones((2, 3), "float32")).shape == (2, 2)


def test_pop_and_add_rebuild_the_graph_without_stale_calls():
    d1, d2 = L.Dense(3, name="p1"), L.Dense(2, name="p2")
    m = tf.keras.Sequential([tf.keras.Input((4,)), d1, d2])
    m.pop()
    assert m.output_shape == (None, 3) and len(d1._inbound_nodes) == 1
    m.add(L.Dense(5, name="p3"))
    assert m.output_shape == (None, 5) and [l.name for l in m.layers] == ["p1", "p3"]
    x = np.ones((2, 4), "float32")
    np.testing.assert_allclose(m(x).numpy(), m.layers[1](m.layers[0](x)).numpy(), rtol=1e-6)
