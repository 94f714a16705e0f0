"""tf.keras.metrics (Keras 2): values checked against NumPy and against figures from TF 2.21 with
tf_keras; state across calls, reset, weights, and updates inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf

M = tf.keras.metrics


def test_mean_accumulates_as_the_guide_shows():
    m = M.Mean("loss")
    assert float(m(0)) == 0.0 and float(m(5)) == 2.5
    assert float(m([8, 9])) == 5.5
    assert m.name == "loss" and m.dtype == "float32"
    assert [v.name for v in m.variables] == ["total:0", "count:0"]
    assert not any(v.trainable for v in m.variables) and m.trainable_weights == []


@pytest.mark.parametrize("seed", range(5))
def test_weighted_mean_and_sum_match_numpy(seed):
    rng = np.random.default_rng(seed)
    batches = [rng.standard_normal((rng.integers(1, 6), 3)).astype(np.float32) for _ in range(4)]
    weights = [rng.random(len(b)).astype(np.float32) for b in batches]
    mean, total = M.Mean(), M.Sum()
    for b, w in zip(batches, weights):
        mean.update_state(b, sample_weight=w)  # one weight per row: broadcast over the columns
        total.update_state(b)
    values = np.concatenate(batches)
    w = np.concatenate([np.repeat(w[:, None], 3, axis=1) for w in weights])
    np.testing.assert_allclose(mean.result().numpy(), (values * w).sum() / w.sum(), rtol=1e-5)
    np.testing.assert_allclose(total.result().numpy(), values.sum(), rtol=1e-5)


def test_reset_state_and_float64():
    m = M.Mean(dtype="float64")
    assert m(3).dtype == tf.float64
    m.reset_state()
    assert float(m.result()) == 0.0  # div_no_nan: no NaN for an empty mean
    m.reset_states()


@pytest.mark.parametrize("metric, y_true, y_pred, weight, want", [
    (M.Accuracy, [[1], [2], [3], [4]], [[0], [2], [3], [4]], None, 0.75),
    (M.BinaryAccuracy, [[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]], None, 0.75),
    (M.CategoricalAccuracy, [[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], None, 0.5),
    (M.SparseCategoricalAccuracy, [[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]], None, 0.5),
    (M.SparseCategoricalAccuracy, [2, 1], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]], [0.7, 0.3], 0.3),
])
def test_accuracy_metrics_as_tf(metric, y_true, y_pred, weight, want):
    m = metric()
    m.update_state(y_true, y_pred, sample_weight=weight)
    np.testing.assert_allclose(m.result().numpy(), want, rtol=1e-6)


def test_sparse_categorical_accuracy_matches_numpy():
    rng = np.random.default_rng(1)
    logits = rng.standard_normal((50, 7)).astype(np.float32)
    labels = rng.integers(0, 7, 50)
    m = M.SparseCategoricalAccuracy()
    m.update_state(labels[:20], logits[:20])
    m.update_state(labels[20:, None], logits[20:])
    np.testing.assert_allclose(m.result().numpy(), np.mean(logits.argmax(1) == labels), rtol=1e-6)
    np.testing.assert_array_equal(M.sparse_categorical_accuracy(labels, logits).numpy(),
                                  (logits.argmax(1) == labels).astype(np.float32))


def test_update_inside_function():
    m = M.Mean()

    @tf.function
    def step(x):
        m.update_state(x)
        return m.result()

    assert float(step(tf.constant([4.0, 6.0]))) == 5.0
    np.testing.assert_allclose(step(tf.constant([1.0])).numpy(), 11 / 3, rtol=1e-6)


def test_bad_values_raise_tf_errors():
    with pytest.raises(tf.errors.UnimplementedError):
        M.Mean()("a")
