"""The eager wrappers' shortcuts for their common calls (tf.matmul of two matrices, assign_* of a tensor
of the variable's dtype, the rank-2 sparse cross-entropy) give what the general path gives: the same
values, the same recorded ops and gradients, and the same errors."""
import numpy as np
import pytest

import eagerflow as tf

rng = np.random.default_rng(3)


def _f32(*s):
    return rng.standard_normal(s).astype(np.float32)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_matrices_with_flags(ta, tb):
    a, b = _f32(3, 4), _f32(4, 5)
    a_in, b_in = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
    out = tf.matmul(tf.constant(a_in), tf.constant(b_in), transpose_a=ta, transpose_b=tb)
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_matmul_errors_and_gradient_unchanged():
    a = tf.constant(_f32(2, 3))
    with pytest.raises(TypeError, match="Expected bool for argument 'transpose_a' not 1."):
        tf.matmul(a, a, transpose_a=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        tf.matmul(a, a)
    w = tf.Variable(_f32(3, 4))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.matmul(a, w))
    np.testing.assert_allclose(tape.gradient(y, w).numpy(), a.numpy().T @ np.ones((2, 4), np.float32), rtol=1e-6)


def test_assign_sub_tensor_of_own_and_other_dtype():
    v = tf.Variable(np.array([1.0, 2.0, 3.0], np.float32))
    v.assign_sub(tf.constant(np.array([0.5, 0.5, 0.5], np.float32)))
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5, 2.5])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype float64"):
        v.assign_sub(tf.constant(np.ones(3)))


def test_sparse_cross_entropy_rank_two_and_mismatch():
    logits = _f32(4, 3)
    labels = np.array([0, 2, 1, 2])
    out = tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant(labels), tf.constant(logits)).numpy()
    z = logits - logits.max(1, keepdims=True)
    want = np.log(np.exp(z).sum(1)) - z[np.arange(4), labels]
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match=r"`labels.shape` must equal `logits.shape` except for the last dimension. "
                                         r"Received: labels.shape=\(3,\) and logits.shape=\(4, 3\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([0, 1, 2]), tf.constant(logits))


def test_mean_of_vector_gradient():
    x = tf.constant(_f32(5))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.full(5, 0.2, np.float32))
