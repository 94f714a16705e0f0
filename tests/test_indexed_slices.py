"""tf.IndexedSlices: a gather's gradient as TF 2.21 returns it (printed forms from TF), densified where
TF densifies, and accepted by clip_by_global_norm, global_norm and the Keras optimizers."""
import numpy as np
import pytest

import eagerflow as tf


def gather_grad(indices, axis=0, extra_dense=False):
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, indices, axis=axis))
        if extra_dense:
            y += tf.reduce_sum(v)
    return tape.gradient(y, v)


def test_gather_gradient_is_indexed_slices_as_tf():
    g = gather_grad([0, 2, 0])
    assert type(g) is tf.IndexedSlices
    assert str(g) == ("IndexedSlices(indices=tf.Tensor([0 2 0], shape=(3,), dtype=int32), values=tf.Tensor(\n"
                      "[[1. 1.]\n [1. 1.]\n [1. 1.]], shape=(3, 2), dtype=float32), dense_shape=tf.Tensor([3 2], "
                      "shape=(2,), dtype=int32))")
    assert g.dtype == tf.float32 and g.shape.as_list() == [3, 2]
    assert tf.convert_to_tensor(g).numpy().tolist() == [[2., 2.], [0., 0.], [1., 1.]]
    assert (-g).values.numpy().tolist() == [[-1., -1.]] * 3


def test_when_tf_densifies():
    mixed = gather_grad([0], extra_dense=True)  # an IndexedSlices plus a dense gradient: dense
    assert isinstance(mixed, tf.Tensor) and mixed.numpy().tolist() == [[2., 2.], [1., 1.], [1., 1.]]
    along_1 = gather_grad([1], axis=1)  # only axis 0 gives slices
    assert isinstance(along_1, tf.Tensor) and along_1.numpy().tolist() == [[0., 1.]] * 3
    nested = gather_grad([[0, 1]])  # indices of any rank: flattened
    assert isinstance(nested, tf.IndexedSlices) and nested.indices.numpy().tolist() == [0, 1]
    assert nested.values.shape.as_list() == [2, 2]


def test_two_gathers_concatenate_in_program_order():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, [0])) + tf.reduce_sum(tf.gather(v, [1, 1]))
    g = tape.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices) and g.indices.numpy().tolist() == [0, 1, 1]


def test_watched_tensor_and_later_ops():
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x, [1]) ** 2)
    g = tape.gradient(y, x)
    assert isinstance(g, tf.IndexedSlices)
    assert tf.convert_to_tensor(g).numpy().tolist() == [[0., 0.], [6., 8.]]
    # An op between the source and the gather gets the gradient densified.
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x * 3., [1]))
    assert tape.gradient(y, x).numpy().tolist() == [[0., 0.], [3., 3.]]


def test_inside_function():
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [2, 2]))
        g = tape.gradient(y, v)
        return tf.convert_to_tensor(g), g.indices

    dense, indices = step()
    assert dense.numpy().tolist() == [[0., 0.], [0., 0.], [2., 2.]] and indices.numpy().tolist() == [2, 2]


def test_clip_by_global_norm_uses_the_rows_as_tf():
    g = gather_grad([0, 2, 0])
    assert float(tf.linalg.global_norm([g])) == pytest.approx(2.4494898319244385)  # TF: sqrt(6)
    clipped, norm = tf.clip_by_global_norm([g], 1.0)
    assert isinstance(clipped[0], tf.IndexedSlices) and float(norm) == pytest.approx(2.4494898319244385)
    np.testing.assert_allclose(clipped[0].values.numpy(), np.full((3, 2), 1 / np.sqrt(6)), rtol=1e-6)


@pytest.mark.parametrize("name, want", [
    # Keras 2's results for two steps at learning_rate=0.1 (sparse and dense alike).
    ("Adam", [[0.8004140257835388, 1.8001681566238403], [3.0, 4.0], [4.8000593185424805, 5.800048828125]]),
    ("SGD", [[0.36000001430511475, 0.7200000286102295], [3.0, 4.0], [3.200000047683716, 3.8400001525878906]]),
    ("RMSprop", [[0.4988705813884735, 1.4738752841949463], [3.0, 4.0], [4.461584568023682, 5.460329055786133]]),
    ("Adagrad", [[0.8335170149803162, 1.8312299251556396], [3.0, 4.0], [4.830074787139893, 5.829933166503906]])])
def test_optimizers_apply_indexed_slices(name, want):
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    opt = getattr(tf.keras.optimizers, name)(learning_rate=0.1)
    for _ in range(2):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [0, 2, 0]) ** 2)
        opt.apply_gradients([(tape.gradient(y, v), v)])
    np.testing.assert_allclose(v.numpy(), want, rtol=1e-6)


def test_embedding_model_trains():
    model = tf.keras.Sequential([tf.keras.layers.Embedding(5, 2), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    x = np.array([[0, 1], [2, 3], [4, 0]])
    history = model.fit(x, np.array([[1.], [0.], [1.]]), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3 and np.isfinite(history.history["loss"]).all()
