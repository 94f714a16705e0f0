"""One model.fit epoch (60,000 x 784 float32, Dense 784-128-10, Adam, batch 32, verbose=0), eagerflow and
tf_keras in one process, epochs interleaved so both see the same machine load. Wall time.

    TF_USE_LEGACY_KERAS=1 PYTHONPATH=python /tmp/tf/bin/python benchmarks/fit_interleaved.py
"""
import os
import time

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow as TF  # noqa: E402

import eagerflow as EF  # noqa: E402

rng = np.random.default_rng(0)
X = rng.random((60000, 784), dtype=np.float32)
Y = rng.integers(0, 10, 60000).astype(np.int64)


def model(tf):
    m = tf.keras.Sequential([tf.keras.layers.Dense(128, activation="relu"), tf.keras.layers.Dense(10)])
    m.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    m.fit(X[:64], Y[:64], batch_size=32, epochs=1, verbose=0)  # traced and warm
    return m


def main():
    models = {"eagerflow": model(EF), "tf_keras": model(TF)}
    times = {k: [] for k in models}
    for _ in range(int(os.environ.get("ROUNDS", "3"))):
        for name, m in models.items():
            t = time.perf_counter()
            m.fit(X, Y, batch_size=32, epochs=1, verbose=0)
            times[name].append(time.perf_counter() - t)
    for name, ts in times.items():
        print(f"{name}: epochs {', '.join(f'{t:.2f}' for t in ts)} s, min {min(ts):.2f} s")
    print(f"eagerflow / tf_keras (min): {min(times['eagerflow']) / min(times['tf_keras']):.2f}")


if __name__ == "__main__":
    main()
