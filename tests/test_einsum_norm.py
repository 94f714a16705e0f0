"""tf.einsum / tf.tensordot against NumPy, tf.norm / trace / matvec against NumPy and TF's messages, and
their gradients (composed of ops) against finite differences."""
import numpy as np
import pytest

import eagerflow as tf

rng = np.random.default_rng(7)

EINSUM_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),  # implicit output
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("i,i->", [(4,), (4,)]),
    ("i,j->ij", [(3,), (2,)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 4)]),  # "..." dims broadcast
    ("...i->...", [(2, 3, 4)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 5)]),
    ("ab,cd->", [(2, 3), (4, 5)]),
    ("ba,ca->bc", [(3, 2), (4, 2)]),
    # operands already laid out transposed: the matmul takes its transpose flags instead
    ("ji,jk->ik", [(3, 2), (3, 4)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ji,kj->ik", [(3, 2), (4, 3)]),
    ("bji,bkj->bik", [(2, 3, 2), (2, 4, 3)]),
    ("jli,jkm->ilkm", [(3, 4, 2), (3, 2, 5)]),
]


@pytest.mark.parametrize("eq, shapes", [c for c in EINSUM_CASES if c[0].count(",") == 1])
def test_einsum_complex_matches_numpy(eq, shapes):
    xs = [(rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype(np.complex64) for s in shapes]
    np.testing.assert_allclose(tf.einsum(eq, *xs).numpy(), np.einsum(eq, *xs), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("eq, shapes", EINSUM_CASES)
def test_einsum_matches_numpy(eq, shapes):
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    np.testing.assert_allclose(tf.einsum(eq, *xs).numpy(), np.einsum(eq, *xs), rtol=1e-5, atol=1e-5)
    graph = tf.function(lambda *a: tf.einsum(eq, *a))
    np.testing.assert_allclose(graph(*xs).numpy(), np.einsum(eq, *xs), rtol=1e-5, atol=1e-5)


def _numeric_grad(f, xs, i, eps=1e-6):
    g = np.zeros_like(xs[i])
    for idx in np.ndindex(*xs[i].shape):
        up = [x.copy() for x in xs]
        down = [x.copy() for x in xs]
        up[i][idx] += eps
        down[i][idx] -= eps
        g[idx] = (np.sum(f(*up)) - np.sum(f(*down))) / (2 * eps)
    return g


@pytest.mark.parametrize("eq, shapes", [c for c in EINSUM_CASES if c[0] not in ("ab,cd->",)])
def test_einsum_gradients(eq, shapes):
    xs = [rng.standard_normal(s) for s in shapes]
    ts = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = tf.reduce_sum(tf.einsum(eq, *ts))
    grads = tape.gradient(y, ts)
    for i, g in enumerate(grads):
        np.testing.assert_allclose(g.numpy(), _numeric_grad(lambda *a: np.einsum(eq, *a), xs, i), rtol=1e-5,
                                   atol=1e-6)


def test_einsum_errors():
    with pytest.raises(ValueError, match="expected 2 operands but got 1"):
        tf.einsum("ij,jk->ik", tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="to have rank 2 but got: 1"):
        tf.einsum("ij->ji", tf.ones([2]))
    with pytest.raises(NotImplementedError, match="diagonal"):
        tf.einsum("ii->i", tf.ones([2, 2]))


def test_tensordot():
    a, b = rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 3, 5))
    np.testing.assert_allclose(tf.tensordot(a, b, [[1, 2], [1, 0]]).numpy(), np.tensordot(a, b, [[1, 2], [1, 0]]))
    np.testing.assert_allclose(tf.tensordot(a, b, 1).numpy(), np.tensordot(a, b, 1))
    np.testing.assert_allclose(tf.tensordot(a, a, 0).numpy(), np.tensordot(a, a, 0))
    with pytest.raises(ValueError, match="Different number of contraction axes"):
        tf.tensordot(a, b, [[1, 2], [1]])


def test_norm_values_and_messages_from_tf():
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    # values printed by TF 2.21 for the same calls
    assert np.isclose(tf.norm(x).numpy(), 5.477226)
    assert tf.norm(x, ord=1).numpy() == 10.0 and tf.norm(x, ord=np.inf).numpy() == 4.0
    np.testing.assert_allclose(tf.norm(x, axis=1).numpy(), [2.236068, 5.0], rtol=1e-6)
    np.testing.assert_allclose(tf.norm(x, ord=3, axis=0).numpy(), [3.0365891, 4.1601677], rtol=1e-6)
    assert tf.norm(x, ord=1, axis=[0, 1]).numpy() == 6.0 and tf.norm(x, ord=np.inf, axis=[-2, -1]).numpy() == 7.0
    assert tf.norm(x, axis=1, keepdims=True).shape == (2, 1) and tf.linalg.norm is tf.norm
    for kw, msg in [(dict(ord="fro"), "'ord' must be a supported vector norm, got fro"),
                    (dict(ord=0), "'ord' must be a supported vector norm, got 0"),
                    (dict(ord="nuc", axis=[0, 1]), r"'ord' must be a supported matrix norm in \['euclidean', "
                                                   r"'fro', 1, 2, inf\], got nuc"),
                    (dict(axis=[0, 1, 2]), r"'axis' must be None, an integer, or a tuple of 2 unique integers, "
                                           r"got \[0, 1, 2\]")]:
        with pytest.raises(ValueError, match=msg):
            tf.norm(x, **kw)
    v = tf.Variable([3.0, 4.0])
    with tf.GradientTape() as tape:
        n = tf.norm(v)
    np.testing.assert_allclose(tape.gradient(n, v).numpy(), [0.6, 0.8], rtol=1e-6)


def test_trace_and_matvec():
    m = rng.standard_normal((2, 3, 4))
    np.testing.assert_allclose(tf.linalg.trace(m).numpy(), np.trace(m, axis1=-2, axis2=-1))
    np.testing.assert_allclose(tf.linalg.trace(m.transpose(0, 2, 1)).numpy(), np.trace(m, axis1=-2, axis2=-1))
    v = rng.standard_normal((2, 4))
    np.testing.assert_allclose(tf.linalg.matvec(m, v).numpy(), np.einsum("bij,bj->bi", m, v))
    t = tf.constant(m)
    with tf.GradientTape() as tape:
        tape.watch(t)
        s = tf.reduce_sum(tf.linalg.trace(t))
    want = np.zeros_like(m)
    want[:, range(3), range(3)] = 1
    np.testing.assert_array_equal(tape.gradient(s, t).numpy(), want)
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.linalg.trace([1.0])
