"""The E-12 conv net's convolutions and its Keras training step, eagerflow and TensorFlow in one
process, rounds interleaved so both see the same machine load (this machine's load swings timings
of separate runs by more than the differences measured). Per core, CPU time, min of the rounds.

    TF_USE_LEGACY_KERAS=1 PYTHONPATH=python /tmp/tf/bin/python benchmarks/conv_interleaved.py
"""
import os
import time

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow as TF  # noqa: E402

import eagerflow as EF  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "9"))
for mod in (TF, EF):
    mod.config.threading.set_intra_op_parallelism_threads(1)
    mod.config.threading.set_inter_op_parallelism_threads(1)
rng = np.random.default_rng(0)
ARRAYS = dict(x1=rng.random((64, 28, 28, 1), dtype=np.float32), w1=rng.random((3, 3, 1, 16), dtype=np.float32),
              x2=rng.random((64, 26, 26, 16), dtype=np.float32), w2=rng.random((3, 3, 16, 16), dtype=np.float32),
              d2=rng.random((64, 24, 24, 16), dtype=np.float32), d1=rng.random((64, 26, 26, 16), dtype=np.float32))


def ops(tf):
    a = {k: tf.constant(v) for k, v in ARRAYS.items()}
    s, v = [1, 1, 1, 1], "VALID"
    raw = tf.raw_ops
    return {
        "layer 1 (1->16) forward": lambda: tf.nn.conv2d(a["x1"], a["w1"], 1, v),
        "layer 1 filter gradient": lambda: raw.Conv2DBackpropFilter(
            input=a["x1"], filter_sizes=[3, 3, 1, 16], out_backprop=a["d1"], strides=s, padding=v),
        "layer 2 (16->16) forward": lambda: tf.nn.conv2d(a["x2"], a["w2"], 1, v),
        "layer 2 input gradient": lambda: raw.Conv2DBackpropInput(
            input_sizes=[64, 26, 26, 16], filter=a["w2"], out_backprop=a["d2"], strides=s, padding=v),
        "layer 2 filter gradient": lambda: raw.Conv2DBackpropFilter(
            input=a["x2"], filter_sizes=[3, 3, 16, 16], out_backprop=a["d2"], strides=s, padding=v),
    }


def train_steps(tf):
    keras = tf.keras
    model = keras.Sequential([keras.layers.Conv2D(16, [3, 3], activation="relu"),
                              keras.layers.Conv2D(16, [3, 3], activation="relu"),
                              keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
    optimizer = keras.optimizers.Adam()
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    images = tf.constant(ARRAYS["x1"])
    labels = tf.constant(rng.integers(0, 10, 64).astype(np.int64))

    def step(images, labels):
        with tf.GradientTape() as tape:
            loss = loss_object(labels, model(images, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    fn = tf.function(step)
    return {"E-12 Keras step, eager": lambda: step(images, labels),
            "E-12 Keras step, tf.function": lambda: fn(images, labels)}


def main():
    cases = {"eagerflow": {**ops(EF), **train_steps(EF)}, "tensorflow": {**ops(TF), **train_steps(TF)}}
    print("| case | eagerflow ms | TensorFlow ms | TF / eagerflow |\n|---|---|---|---|")
    for name in cases["eagerflow"]:
        best = {}
        for _ in range(ROUNDS):
            for fw, table in cases.items():
                f = table[name]
                f().numpy()
                t = time.process_time()
                for _ in range(5):
                    f().numpy()
                best[fw] = min(best.get(fw, 1e9), (time.process_time() - t) / 5)
        ef, tf_ = best["eagerflow"] * 1e3, best["tensorflow"] * 1e3
        print(f"| {name} | {ef:.2f} | {tf_:.2f} | {tf_ / ef:.2f} |", flush=True)


if __name__ == "__main__":
    main()
