"""Keras training benchmarks, eagerflow and tf_keras (Keras 2) side by side in one run (the TF rows are
skipped when TensorFlow/tf_keras is not installed):

- `model.fit`, one epoch on 60,000 MNIST-shaped rows (784 float32 features, 10 classes), Dense 784-128-10,
  Adam, batch 32, verbose=0: wall time;
- the fit loop's own cost per batch: the same fit with the train function replaced by one that only takes
  the next batch (data slicing, callbacks, logs; no step), and, for eagerflow, a fit epoch against the same
  number of direct calls of the compiled step (extra_info: overhead_us_per_batch);
- the E-12 MNIST conv net (Conv2D(16,3,relu), Conv2D(16,3,relu), GlobalAveragePooling2D, Dense(10)) training
  step with a GradientTape and Adam, batch 64, eager and as a tf.function: time per step.

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_fit.py --benchmark-only \
         --benchmark-columns=min,median --benchmark-sort=name --benchmark-time-unit=ms
"""
import time

import numpy as np
import pytest

import eagerflow as ef

try:  # pragma: no cover - optional
    import tensorflow as real_tf
    import tf_keras
except Exception:
    real_tf = tf_keras = None

_rng = np.random.default_rng(0)
X = _rng.random((60000, 784), dtype=np.float32)
Y = _rng.integers(0, 10, 60000).astype(np.int64)
STEPS = 1875  # 60000 / 32

_TF = pytest.mark.skipif(tf_keras is None, reason="TensorFlow/tf_keras is not installed")
FRAMEWORKS = [pytest.param("eagerflow", id="eagerflow"), pytest.param("tf_keras", id="tf_keras", marks=_TF)]


def _keras(name):
    return ef.keras if name == "eagerflow" else tf_keras


def _dense_model(name):
    keras = _keras(name)
    m = keras.Sequential([keras.layers.Dense(128, activation="relu"), keras.layers.Dense(10)])
    m.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
    m.fit(X[:64], Y[:64], batch_size=32, verbose=0)  # trace and build outside the timing
    return m


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_fit_dense_mnist_epoch(benchmark, name):
    m = _dense_model(name)
    h = benchmark.pedantic(lambda: m.fit(X, Y, batch_size=32, epochs=1, verbose=0), rounds=3, iterations=1)
    assert len(h.history["loss"]) == 1


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_fit_loop_without_step(benchmark, name):
    """fit's own per-batch cost: the train function only takes the next batch (µs per batch = time / 1875)."""
    m = _dense_model(name)
    logs = (m.train_function(iter([(ef.constant(X[:32]), ef.constant(Y[:32]))])) if name == "eagerflow"
            else None)

    def take_only(iterator):
        next(iterator)
        return logs if logs is not None else {"loss": 0.0}

    m.train_function = take_only
    benchmark.pedantic(lambda: m.fit(X, Y, batch_size=32, epochs=1, verbose=0), rounds=5, iterations=1)
    benchmark.extra_info["us_per_batch"] = benchmark.stats.stats.min / STEPS * 1e6


def test_fit_overhead_vs_direct_calls(benchmark):
    """eagerflow: fit epoch minus the same number of direct calls of the compiled step (extra_info)."""
    m = _dense_model("eagerflow")
    step = m.train_function.step_function
    batches = [(ef.constant(X[i:i + 32]), ef.constant(Y[i:i + 32])) for i in range(0, 60000, 32)]

    def direct():
        for b in batches:
            step(b)

    fit_times, direct_times = [], []
    for _ in range(3):  # interleaved, so both see the same machine load
        t = time.perf_counter()
        m.fit(X, Y, batch_size=32, epochs=1, verbose=0)
        fit_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        direct()
        direct_times.append(time.perf_counter() - t)
    benchmark.pedantic(direct, rounds=1, iterations=1)
    benchmark.extra_info["fit_s"] = min(fit_times)
    benchmark.extra_info["direct_s"] = min(direct_times)
    benchmark.extra_info["overhead_us_per_batch"] = (min(fit_times) - min(direct_times)) / STEPS * 1e6


def _conv_step(name, as_function):
    tf = ef if name == "eagerflow" else real_tf
    keras = _keras(name)
    model = keras.Sequential([keras.layers.Conv2D(16, [3, 3], activation="relu"),
                              keras.layers.Conv2D(16, [3, 3], activation="relu"),
                              keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
    optimizer = keras.optimizers.Adam()
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    images = tf.constant(_rng.random((64, 28, 28, 1), dtype=np.float32))
    labels = tf.constant(_rng.integers(0, 10, 64).astype(np.int64))

    def train_step(images, labels):
        with tf.GradientTape() as tape:
            loss_value = loss_object(labels, model(images, training=True))
        grads = tape.gradient(loss_value, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss_value

    if as_function:
        train_step = tf.function(train_step)
    train_step(images, labels)
    return lambda: train_step(images, labels).numpy()


@pytest.mark.parametrize("as_function", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", FRAMEWORKS)
def test_conv_mnist_train_step(benchmark, name, as_function):
    run = _conv_step(name, as_function)
    benchmark.pedantic(run, rounds=30, iterations=1, warmup_rounds=3)
