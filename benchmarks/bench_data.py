"""tf.data benchmarks, eagerflow and TensorFlow side by side in one run (the TF rows are skipped
when TensorFlow is not installed):

- an MNIST-sized input pipeline (from_tensor_slices, shuffle, batch, prefetch): one epoch;
- a parallel map over range(1e6), batched: one pass (elements/s = 1e6 / time);
- eager per-element iteration overhead: `for x in range(1e5)`;
- a training loop in tf.function over a dataset, with and without prefetch, against the same
  steps on batches already in memory (the difference is the time spent waiting for input).

Run: pytest benchmarks/bench_data.py --benchmark-only --benchmark-columns=min,median \
         --benchmark-sort=name --benchmark-time-unit=ms
"""
import numpy as np
import pytest

import eagerflow as ef

try:  # pragma: no cover - optional
    import tensorflow as real_tf
except Exception:
    real_tf = None

FRAMEWORKS = [pytest.param(ef, id="eagerflow"),
              pytest.param(real_tf, id="tensorflow",
                           marks=pytest.mark.skipif(real_tf is None, reason="TensorFlow is not installed"))]

_rng = np.random.default_rng(0)
X = _rng.random((60000, 784), dtype=np.float32)
Y = _rng.integers(0, 10, 60000).astype(np.int64)


def _consume(ds):
    n = 0
    for _ in ds:
        n += 1
    return n


@pytest.mark.parametrize("tf", FRAMEWORKS)
def test_mnist_pipeline_epoch(benchmark, tf):
    ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(10000).batch(128).prefetch(tf.data.AUTOTUNE)
    assert benchmark(_consume, ds) == 469


@pytest.mark.parametrize("tf", FRAMEWORKS)
def test_parallel_map_batch(benchmark, tf):
    ds = tf.data.Dataset.range(1_000_000).map(lambda x: x * 2 + 1, num_parallel_calls=tf.data.AUTOTUNE).batch(1024)
    assert benchmark.pedantic(_consume, (ds,), rounds=3, iterations=1) == 977


@pytest.mark.parametrize("tf", FRAMEWORKS)
def test_eager_iteration_per_element(benchmark, tf):
    ds = tf.data.Dataset.range(100_000)
    assert benchmark.pedantic(_consume, (ds,), rounds=3, iterations=1) == 100_000


def _training(tf, prefetch):
    w = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.01 * gw)
        b.assign_sub(0.01 * gb)
        return loss

    @tf.function
    def epoch(ds):
        total = tf.constant(0.0)
        for x, y in ds:
            total += step(x, y)
        return total

    ds = tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(10000).batch(128, drop_remainder=True)
    if prefetch:
        ds = ds.prefetch(tf.data.AUTOTUNE)
    return epoch, ds, step


@pytest.mark.parametrize("prefetch", [False, True], ids=["no_prefetch", "prefetch"])
@pytest.mark.parametrize("tf", FRAMEWORKS)
def test_training_epoch_over_dataset(benchmark, tf, prefetch):
    epoch, ds, _ = _training(tf, prefetch)
    epoch(ds)
    benchmark.pedantic(epoch, (ds,), rounds=3, iterations=1)


@pytest.mark.parametrize("tf", FRAMEWORKS)
def test_training_steps_in_memory(benchmark, tf):
    """The same 468 steps on batches already in memory, in one function: the input-free baseline."""
    _, _, step = _training(tf, False)
    n = 60000 // 128
    xs = tf.constant(X[:n * 128].reshape(n, 128, 784))
    ys = tf.constant(Y[:n * 128].reshape(n, 128))

    @tf.function
    def epoch():
        total = tf.constant(0.0)
        for i in tf.range(n):
            total += step(xs[i], ys[i])
        return total

    epoch()
    benchmark.pedantic(epoch, rounds=3, iterations=1)
