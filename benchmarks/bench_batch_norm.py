"""Fused batch norm (FusedBatchNormV3 and its gradient), eagerflow and TensorFlow side by side.

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_batch_norm.py --benchmark-only \
         --benchmark-columns=min,median --benchmark-sort=name -s
Cases: tf.compat.v1.nn.fused_batch_norm in training mode on [32, 56, 56, 64] NHWC float32
(25.7 MB), forward alone and forward + the gradients of x, scale and offset.
"""
import numpy as np
import pytest

import eagerflow as tf


def _case(tf_mod, mode):
    rng = np.random.default_rng(0)
    x = tf_mod.constant(rng.standard_normal((32, 56, 56, 64)).astype(np.float32))
    scale = tf_mod.constant(rng.standard_normal(64).astype(np.float32))
    offset = tf_mod.constant(rng.standard_normal(64).astype(np.float32))
    bn = tf_mod.compat.v1.nn.fused_batch_norm
    if mode == "forward":
        return lambda: bn(x, scale, offset, is_training=True)[0]

    def run():
        with tf_mod.GradientTape() as tape:
            tape.watch([x, scale, offset])
            y = bn(x, scale, offset, is_training=True)[0]
        return tape.gradient(y, [x, scale, offset], output_gradients=x)
    return run


@pytest.mark.parametrize("mode", ["forward", "train"])
def test_fused_batch_norm_eagerflow(benchmark, mode):
    run = _case(tf, mode)
    run()
    benchmark.pedantic(run, rounds=20, iterations=1, warmup_rounds=2)


@pytest.mark.parametrize("mode", ["forward", "train"])
def test_fused_batch_norm_tensorflow(benchmark, mode, tf_or_skip):
    run = _case(tf_or_skip, mode)
    run()
    benchmark.pedantic(run, rounds=20, iterations=1, warmup_rounds=2)
