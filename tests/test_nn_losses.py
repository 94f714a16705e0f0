"""tf.nn cross entropies, l2_loss, leaky_relu, bias_add, gelu, silu, l2_normalize, moments and
batch_normalization against NumPy, with TF's errors; gradients are checked by the op table."""
import math

import numpy as np
import pytest

import eagerflow as tf

rng = np.random.default_rng(3)


def _log_softmax(x, axis=-1):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("shape", [(5, 7), (2, 3, 4), (6,)])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy_matches_numpy(shape, label_dtype):
    logits = rng.standard_normal(shape).astype(np.float32) * 3
    labels = rng.integers(0, shape[-1], shape[:-1]).astype(label_dtype)
    got = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits).numpy()
    want = -np.take_along_axis(_log_softmax(logits.astype(np.float64)), labels[..., None].astype(np.int64), -1)[..., 0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("classes", [1, 10, 33])
def test_sparse_cross_entropy_is_the_dense_one_with_one_hot_labels_bitwise(dtype, classes):
    """The sparse kernel takes the label's term directly; loss and backprop are the dense kernel's
    bits with one-hot labels, -inf logits off the label included."""
    from eagerflow.ops import _execute
    logits = (rng.standard_normal((300, classes)) * 4).astype(dtype)
    labels = rng.integers(0, classes, 300)
    if classes > 1:
        logits[::7, 0] = -np.inf
        labels[::7] = np.maximum(labels[::7], 1)
    sparse = _execute.execute("SparseSoftmaxCrossEntropyWithLogits", [tf.constant(logits), tf.constant(labels)])
    dense = _execute.execute("SoftmaxCrossEntropyWithLogits",
                             [tf.constant(logits), tf.constant(np.eye(classes, dtype=dtype)[labels])])
    for s, d in zip(sparse, dense):
        np.testing.assert_array_equal(s.numpy().view(np.uint8), d.numpy().view(np.uint8))


@pytest.mark.parametrize("classes", [3, 10, 17, 1000])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_softmax_rows_same_bits_for_every_thread_count_and_close_to_numpy(classes, dtype):
    # Rows split into thread chunks anywhere; each chunk's exp is one pass over its rows.
    rows = 70000 // classes + 7
    x = rng.standard_normal((rows, classes)) * 4
    y = rng.integers(0, classes, rows)
    lab = rng.random((rows, classes))
    lab /= lab.sum(1, keepdims=True)
    xt = tf.constant(x.astype(dtype))
    results = []
    try:
        for threads in (1, 2, 3):
            tf.config.threading.set_intra_op_parallelism_threads(threads)
            r = [tf.nn.softmax(xt), tf.nn.log_softmax(xt)]
            if dtype != np.float16:
                r += tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=xt, labels=y)
                r += tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=xt, labels=lab.astype(dtype))
            results.append([t.numpy() for t in r])
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(0)
    for got in results[1:]:
        for g, w in zip(got, results[0]):
            assert g.tobytes() == w.tobytes()
    xr = x.astype(dtype).astype(np.float64)  # the inputs as rounded to dtype
    ls = _log_softmax(xr)
    want = [np.exp(ls), ls]
    if dtype != np.float16:
        want += [-ls[np.arange(rows), y], np.exp(ls) - np.eye(classes)[y]]
        want += [-(lab.astype(dtype) * ls).sum(1), np.exp(ls) - lab.astype(dtype)]
    tol = {np.float16: 2e-3, np.float32: 2e-6, np.float64: 1e-14}[dtype]
    for g, w in zip(results[0], want):
        np.testing.assert_allclose(g.astype(np.float64), w, rtol=tol * 8, atol=tol * max(1.0, np.abs(w).max()))


def test_sparse_softmax_cross_entropy_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Received a label value of 5 which is outside the "
                                                             r"valid range of \[0, 3\).  Label values: 1 5"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 5], logits=[[1., 2., 3.], [1., 2., 3.]])
    with pytest.raises(ValueError, match="must equal `logits.shape.rank - 1`"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1, 2]], logits=[[1., 2., 3.], [1., 2., 3.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Must have at least one class"):
        tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=tf.zeros([2, 0]), labels=[0, 0])


@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_cross_entropy_matches_numpy(axis):
    logits = rng.standard_normal((4, 5)).astype(np.float32)
    labels = rng.random((4, 5)).astype(np.float32)
    labels /= labels.sum(axis=axis, keepdims=True)
    got = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=axis).numpy()
    want = -(labels * _log_softmax(logits.astype(np.float64), axis)).sum(axis=axis)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_softmax_cross_entropy_broadcasts_labels():
    got = tf.nn.softmax_cross_entropy_with_logits(labels=[[0.2, 0.8, 0.]], logits=[[1., 2., 3.], [1., 2., 3.]])
    np.testing.assert_allclose(got.numpy(), [1.6076059, 1.6076059], rtol=1e-6)


def test_sigmoid_cross_entropy_is_stable():
    x = np.array([-200., -2., 0., 3., 100.], np.float32)
    z = np.array([0., 1., 0.5, 0.25, 1.], np.float32)
    got = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x).numpy()
    want = np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert np.isfinite(got).all()


def test_small_ops_match_numpy():
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.l2_loss(x).numpy(), (x.astype(np.float64) ** 2).sum() / 2, rtol=1e-5)
    np.testing.assert_allclose(tf.nn.leaky_relu(x, 0.3).numpy(), np.where(x > 0, x, 0.3 * x), rtol=1e-6)
    b = rng.standard_normal(4).astype(np.float32)
    np.testing.assert_allclose(tf.nn.bias_add(x, b).numpy(), x + b, rtol=1e-6)
    v = rng.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.bias_add(v, b[:3], data_format="NCHW").numpy(), v + b[:3, None], rtol=1e-6)
    erf = np.vectorize(math.erf)
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(), 0.5 * x * (1 + erf(x / math.sqrt(2))), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.nn.silu(x).numpy(), x / (1 + np.exp(-x)), rtol=1e-5)
    np.testing.assert_allclose(tf.nn.l2_normalize(x, axis=1).numpy(),
                               x / np.sqrt((x ** 2).sum(1, keepdims=True)), rtol=1e-5)


def test_moments_and_batch_normalization_match_numpy():
    x = rng.standard_normal((8, 3)).astype(np.float32)
    mean, var = tf.nn.moments(x, axes=[0])
    np.testing.assert_allclose(mean.numpy(), x.mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.numpy(), x.var(0), rtol=1e-5)
    y = tf.nn.batch_normalization(x, mean, var, offset=0.5, scale=2.0, variance_epsilon=1e-3)
    np.testing.assert_allclose(y.numpy(), (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-3) * 2 + 0.5, rtol=1e-4, atol=1e-5)


def test_bias_add_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Must provide as many biases as the last dimension"):
        tf.nn.bias_add([[1., 2.]], [1., 2., 3.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input tensor must be at least 2D"):
        tf.nn.bias_add([1., 2.], [1., 2.])


def test_training_step_in_a_function():
    w = tf.Variable(tf.zeros([4, 3]))
    x = tf.constant(rng.standard_normal((16, 4)).astype(np.float32))
    y = tf.constant(rng.integers(0, 3, 16))

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(x, w)))
        w.assign_sub(0.5 * tape.gradient(loss, w))
        return loss

    losses = [float(step()) for _ in range(20)]
    assert losses[0] == pytest.approx(math.log(3), rel=1e-6) and losses[-1] < losses[0]


def test_top_k_and_in_top_k():
    x = tf.constant([[1.0, 3.0, 2.0, 3.0], [4.0, 0.0, 5.0, 1.0]])
    r = tf.math.top_k(x, 2)
    assert r.values.numpy().tolist() == [[3.0, 3.0], [5.0, 4.0]]
    assert r.indices.numpy().tolist() == [[1, 3], [2, 0]]  # ties: the lower index first
    v = rng.standard_normal((5, 9)).astype(np.float32)
    got = tf.math.top_k(v, 4)
    np.testing.assert_array_equal(got.indices.numpy(), np.argsort(-v, axis=1, kind="stable")[:, :4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must have at least k columns. Had 4, needed 5"):
        tf.math.top_k(x, 5)
    assert tf.math.in_top_k([1, 2], x, 1).numpy().tolist() == [True, True]  # a tie at the boundary counts
    assert tf.math.in_top_k([5, 2], x, 1).numpy().tolist() == [False, True]  # out of range: False
    xv = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.top_k(xv, 2).values * [[1.0, 2.0]])
    assert tape.gradient(y, xv).numpy().tolist() == [[0.0, 1.0, 0.0, 2.0], [2.0, 0.0, 1.0, 0.0]]
