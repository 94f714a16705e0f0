"""Numerical checks of tape gradients of whole computations (functions, cond, while loops): the
gradient of sum(w * f(*args)) from a GradientTape against float64 central differences of f."""
import numpy as np

import eagerflow as tf


def _weights(out, rng):
    return [rng.uniform(0.5, 1.5, size=np.shape(o.numpy())) for o in out]


def _as_list(out):
    return list(out) if isinstance(out, (list, tuple)) else [out]


def _scalar(f, args, weights):
    out = _as_list(f(*[tf.constant(a) for a in args]))
    return sum(float(np.sum(o.numpy() * w)) for o, w in zip(out, weights))


def numeric_gradients(f, args, weights, delta=1e-6):
    grads = []
    for i, a in enumerate(args):
        a = np.array(a, dtype=np.float64)
        g = np.zeros_like(a)
        for k in range(a.size):
            plus, minus = [np.array(x, dtype=np.float64) for x in args], [np.array(x, dtype=np.float64) for x in args]
            plus[i].flat[k] += delta
            minus[i].flat[k] -= delta
            g.flat[k] = (_scalar(f, plus, weights) - _scalar(f, minus, weights)) / (2 * delta)
        grads.append(g)
    return grads


def tape_gradients(f, args, weights):
    xs = [tf.constant(np.array(a, dtype=np.float64)) for a in args]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        out = _as_list(f(*xs))
        loss = tf.add_n([tf.reduce_sum(o * tf.constant(w)) for o, w in zip(out, weights)])
    return tape.gradient(loss, xs)


def check(f, *args, atol=1e-6, rtol=1e-5, seed=0):
    """Asserts the tape gradient of f at float64 `args` matches central differences; returns it."""
    args = [np.array(a, dtype=np.float64) for a in args]
    rng = np.random.default_rng(seed)
    weights = _weights(_as_list(f(*[tf.constant(a) for a in args])), rng)
    got = tape_gradients(f, args, weights)
    want = numeric_gradients(f, args, weights)
    for g, w in zip(got, want):
        g = np.zeros_like(w) if g is None else g.numpy()
        np.testing.assert_allclose(g, w, atol=atol, rtol=rtol)
    return got
