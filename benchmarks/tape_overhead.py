"""The MLP step of side_by_side.py on a tiny model (8-4-3, batch 2), where every kernel takes a few hundred
nanoseconds: what remains is the cost of dispatch, the tape and the Python backward pass. Prints the best
process CPU time per call (5 rounds of 300) of the forward, forward + tape.gradient, and the SGD step.

    PYTHONPATH=python python benchmarks/tape_overhead.py
"""
import os
import time

import numpy as np

import eagerflow as tf

rng = np.random.default_rng(0)
w1, b1 = tf.Variable(rng.standard_normal((8, 4), dtype=np.float32)), tf.Variable(np.zeros(4, np.float32))
w2, b2 = tf.Variable(rng.standard_normal((4, 3), dtype=np.float32)), tf.Variable(np.zeros(3, np.float32))
x, y = tf.constant(rng.standard_normal((2, 8), dtype=np.float32)), tf.constant(rng.integers(0, 3, 2))
variables = [w1, b1, w2, b2]


def forward():
    h = tf.nn.relu(tf.matmul(x, w1) + b1)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, tf.matmul(h, w2) + b2))


def gradient():
    with tf.GradientTape() as tape:
        loss = forward()
    return tape.gradient(loss, variables)


def step():
    for v, g in zip(variables, gradient()):
        v.assign_sub(0.01 * g)


def main():
    for name, f in (("forward", forward), ("forward + gradient", gradient), ("SGD step", step)):
        f()
        best = float("inf")
        for _ in range(5):
            c = time.process_time()
            for _ in range(300):
                f()
            best = min(best, (time.process_time() - c) / 300)
        print("%-20s %7.1f µs CPU" % (name, best * 1e6))
    print("load average %.1f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
