"""Convolution benchmarks, eagerflow and TensorFlow side by side (same shapes, float32, NHWC).

Run: PYTHONPATH=python /tmp/tf/bin/python -m pytest benchmarks/bench_conv.py --benchmark-only \
         --benchmark-columns=min,median -s
GFLOP/s = extra_info["gflop"] / the median time. Cases:
  f06         guide F-06's Conv2D(100, 3): [1, 200, 200, 100] * [3, 3, 100, 100], VALID, eager and as a
              tf.function (7.06 GFLOP)
  train64     3x3 64->64, SAME, on [32, 56, 56, 64]: forward + the gradients of input and filter
              (3 x 7.4 GFLOP)
  pointwise   1x1 64->128 on [32, 56, 56, 64] (a plain GEMM, 1.6 GFLOP)
  depthwise   3x3 depthwise (multiplier 1), SAME, on [32, 56, 56, 64]: forward, and forward + gradients
  mnist_step  the E-12-shaped conv net training step, batch 64, eager and as a tf.function
  op          one op on [8, 56, 56, 64], 3x3 64->64 SAME: Conv2D, Conv2DBackpropInput and
              Conv2DBackpropFilter (0.92 GFLOP each), and the input gradient of the stride-2
              3x3 64->128 conv (0.46 GFLOP)
eagerflow rows run twice: `direct` (the float32 direct kernels, the default) and `im2col` (the
im2col + OpenBLAS path, `_core.set_conv_kernel("im2col")`).
Per core: BENCH_THREADS=1 OPENBLAS_NUM_THREADS=1 TF_NUM_INTRAOP_THREADS=1 ... --benchmark-timer=time.process_time
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

ROUNDS = 5


def _conv_case(tf_mod, case, mode):
    rng = np.random.default_rng(0)
    if case == "f06":
        x, w, pad, gflop = (1, 200, 200, 100), (3, 3, 100, 100), "VALID", 2 * 198 * 198 * 100 * 900 / 1e9
    elif case == "pointwise":
        x, w, pad, gflop = (32, 56, 56, 64), (1, 1, 64, 128), "SAME", 2 * 32 * 56 * 56 * 64 * 128 / 1e9
    else:
        x, w, pad, gflop = (32, 56, 56, 64), (3, 3, 64, 64), "SAME", 2 * 32 * 56 * 56 * 64 * 576 / 1e9
    x = tf_mod.constant(rng.standard_normal(x).astype(np.float32))
    w = tf_mod.constant(rng.standard_normal(w).astype(np.float32) * 0.05)
    conv = lambda a, b: tf_mod.nn.conv2d(a, b, 1, pad)  # noqa: E731
    if mode == "train":
        gflop *= 3

        def run():
            with tf_mod.GradientTape() as tape:
                tape.watch([x, w])
                y = conv(x, w)
            return tape.gradient(y, [x, w], output_gradients=y)
        return run, gflop
    f = tf_mod.function(conv) if mode == "function" else conv
    return (lambda: f(x, w)), gflop


def _depthwise_case(tf_mod, mode):
    rng = np.random.default_rng(0)
    x = tf_mod.constant(rng.standard_normal((32, 56, 56, 64)).astype(np.float32))
    w = tf_mod.constant(rng.standard_normal((3, 3, 64, 1)).astype(np.float32))
    gflop = 2 * 32 * 56 * 56 * 64 * 9 / 1e9
    conv = lambda a, b: tf_mod.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "SAME")  # noqa: E731
    if mode == "train":
        def run():
            with tf_mod.GradientTape() as tape:
                tape.watch([x, w])
                y = conv(x, w)
            return tape.gradient(y, [x, w], output_gradients=y)
        return run, 3 * gflop
    return (lambda: conv(x, w)), gflop


CASES = [("f06", "eager"), ("f06", "function"), ("train64", "train"), ("pointwise", "eager")]


def _bench(benchmark, run, gflop):
    benchmark.extra_info["gflop"] = round(gflop, 3)
    run()
    benchmark.pedantic(run, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    benchmark.extra_info["gflops_per_s"] = round(gflop / benchmark.stats.stats.median, 1)


@pytest.fixture(params=["direct", "im2col"])
def conv_kernel(request):
    """The float32 convolution kernels: the direct ones (the best variant the CPU has) or im2col + GEMM."""
    was = _core.set_conv_kernel("auto" if request.param == "direct" else "im2col")
    yield
    _core.set_conv_kernel(was)


@pytest.mark.parametrize("case, mode", CASES)
def test_conv_eagerflow(benchmark, case, mode, conv_kernel):
    _bench(benchmark, *_conv_case(tf, case, mode))


@pytest.mark.parametrize("case, mode", CASES)
def test_conv_tensorflow(benchmark, case, mode, tf_or_skip):
    _bench(benchmark, *_conv_case(tf_or_skip, case, mode))


@pytest.mark.parametrize("mode", ["eager", "train"])
def test_depthwise_eagerflow(benchmark, mode):
    _bench(benchmark, *_depthwise_case(tf, mode))


@pytest.mark.parametrize("mode", ["eager", "train"])
def test_depthwise_tensorflow(benchmark, mode, tf_or_skip):
    _bench(benchmark, *_depthwise_case(tf_or_skip, mode))


OPS = ["conv2d", "input_grad", "filter_grad", "input_grad_s2"]


def _op_case(tf_mod, op):
    rng = np.random.default_rng(0)
    stride, out_c = (2, 128) if op == "input_grad_s2" else (1, 64)
    xs, ws = (8, 56, 56, 64), (3, 3, 64, out_c)
    x = tf_mod.constant(rng.standard_normal(xs).astype(np.float32))
    w = tf_mod.constant(rng.standard_normal(ws).astype(np.float32) * 0.05)
    y = tf_mod.nn.conv2d(x, w, stride, "SAME")
    dy = tf_mod.constant(rng.standard_normal(y.shape).astype(np.float32))
    gflop = 2 * np.prod(y.shape) * 9 * 64 / 1e9
    strides, raw = [1, stride, stride, 1], tf_mod.raw_ops
    if op == "conv2d":
        return (lambda: tf_mod.nn.conv2d(x, w, stride, "SAME")), gflop
    if op == "filter_grad":
        sizes = tf_mod.constant(ws, dtype=tf_mod.int32)
        return (lambda: raw.Conv2DBackpropFilter(input=x, filter_sizes=sizes, out_backprop=dy, strides=strides,
                                                 padding="SAME")), gflop
    sizes = tf_mod.constant(xs, dtype=tf_mod.int32)
    return (lambda: raw.Conv2DBackpropInput(input_sizes=sizes, filter=w, out_backprop=dy, strides=strides,
                                            padding="SAME")), gflop


@pytest.mark.parametrize("op", OPS)
def test_op_eagerflow(benchmark, op, conv_kernel):
    _bench(benchmark, *_op_case(tf, op))


@pytest.mark.parametrize("op", OPS)
def test_op_tensorflow(benchmark, op, tf_or_skip):
    _bench(benchmark, *_op_case(tf_or_skip, op))


def _mnist_step(tf_mod, mode):
    """The E-12-shaped conv net's training step on a batch of 64: conv 3x3 1->32, relu, conv 3x3
    32->64, relu, 2x2 max pool, dense 9216->10, sparse softmax cross entropy, SGD on the weights."""
    rng = np.random.default_rng(0)
    x = tf_mod.constant(rng.standard_normal((64, 28, 28, 1)).astype(np.float32))
    y = tf_mod.constant(rng.integers(0, 10, 64).astype(np.int32))
    ws = [tf_mod.Variable(rng.standard_normal(s).astype(np.float32) * 0.05)
          for s in [(3, 3, 1, 32), (3, 3, 32, 64), (12 * 12 * 64, 10)]]

    def step():
        with tf_mod.GradientTape() as tape:
            h = tf_mod.nn.relu(tf_mod.nn.conv2d(x, ws[0], 1, "VALID"))
            h = tf_mod.nn.relu(tf_mod.nn.conv2d(h, ws[1], 1, "VALID"))
            h = tf_mod.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tf_mod.matmul(tf_mod.reshape(h, [64, -1]), ws[2])
            loss = tf_mod.reduce_mean(tf_mod.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        for w, g in zip(ws, tape.gradient(loss, ws)):
            w.assign_sub(0.01 * g)
        return loss
    return tf_mod.function(step) if mode == "function" else step


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_mnist_step_eagerflow(benchmark, mode, conv_kernel):
    step = _mnist_step(tf, mode)
    step()
    benchmark.pedantic(step, rounds=20, iterations=1, warmup_rounds=2)


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_mnist_step_tensorflow(benchmark, mode, tf_or_skip):
    step = _mnist_step(tf_or_skip, mode)
    step()
    benchmark.pedantic(step, rounds=20, iterations=1, warmup_rounds=2)
