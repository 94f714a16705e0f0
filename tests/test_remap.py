"""The remapping pass: Conv2D -> BiasAdd (-> Relu) chains in traced functions become _FusedConv2D
nodes whose kernels add the bias and take the Relu on the convolution's sums, and MatMul -> BiasAdd
or bias-like AddV2 (-> Relu) chains _FusedMatMul nodes; results are bitwise those of the unfused
ops, on every convolution kernel variant and on both GEMMs."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

from _optimizer_options import optimized, reset_options, set_options  # noqa: F401 (reset_options: autouse)
from eagerflow.ops._execute import execute

import conv_kernels

rng = np.random.default_rng(5)




@pytest.fixture(params=conv_kernels.available(("avx512", "avx2", "generic", "im2col")))
def kernel(request):
    prev = _core.set_conv_kernel(request.param)
    yield request.param
    _core.set_conv_kernel(prev)


def _types(fn, *args):
    return optimized(fn, *args)[:2]


def _set_remapping(remapping):
    set_options({"remapping": remapping})


def _run(py_fn, remapping, *args):
    _set_remapping(remapping)
    return tf.function(py_fn)(*args)


CASES = [  # x shape, filter shape, strides, padding
    ((2, 12, 11, 1), (3, 3, 1, 16), 1, "VALID"),
    ((2, 10, 9, 16), (3, 3, 16, 16), 1, "VALID"),
    ((1, 9, 8, 5), (3, 3, 5, 37), 2, "SAME"),
    ((2, 7, 7, 64), (1, 1, 64, 70), 1, "SAME"),
]


@pytest.mark.parametrize("relu", [True, False], ids=["relu", "bias"])
@pytest.mark.parametrize("xs, fs, stride, padding", CASES)
def test_fused_equals_unfused_bitwise(kernel, xs, fs, stride, padding, relu):
    x = rng.standard_normal(xs).astype(np.float32)
    x.flat[::7] = np.nan  # NaN stays NaN through the Relu, as tf.nn.relu keeps it
    w = tf.constant(rng.standard_normal(fs).astype(np.float32))
    b = tf.constant(rng.standard_normal(fs[3]).astype(np.float32))

    def f(x):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, stride, padding), b)
        return tf.nn.relu(y) if relu else y

    types, og = _types(tf.function(f), x)
    assert "_FusedConv2D" in types and "Conv2D" not in types and "BiasAdd" not in types
    fused = next(n for n in og.nodes() if n.type == "_FusedConv2D")
    assert fused.attrs()["fused_ops"] == (["BiasAdd", "Relu"] if relu else ["BiasAdd"])
    assert ("Relu" in types) is False
    on, off, eager = _run(f, True, x).numpy(), _run(f, False, x).numpy(), f(x).numpy()
    np.testing.assert_array_equal(on, off)
    np.testing.assert_array_equal(on, eager)


def test_values_used_elsewhere_are_not_fused():
    x = rng.standard_normal((1, 6, 6, 3)).astype(np.float32)
    w = tf.constant(rng.standard_normal((3, 3, 3, 4)).astype(np.float32))
    b = tf.constant(np.ones(4, np.float32))

    def returns_conv(x):
        c = tf.nn.conv2d(x, w, 1, "SAME")
        return tf.nn.relu(tf.nn.bias_add(c, b)), c

    types, _ = _types(tf.function(returns_conv), x)
    assert "_FusedConv2D" not in types and "Conv2D" in types

    def bias_read_twice(x):
        y = tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)
        return tf.nn.relu(y) + y

    types, og = _types(tf.function(bias_read_twice), x)
    assert "Conv2D" not in types  # the Relu is not folded in: BiasAdd's value is read twice
    fused = next(n for n in og.nodes() if n.type == "_FusedConv2D")
    assert fused.attrs()["fused_ops"] == ["BiasAdd"]
    np.testing.assert_array_equal(_run(bias_read_twice, True, x).numpy(), _run(bias_read_twice, False, x).numpy())


def test_channels_first_bias_is_not_fused():
    x = rng.standard_normal((1, 6, 6, 4)).astype(np.float32)
    w = tf.constant(rng.standard_normal((3, 3, 4, 4)).astype(np.float32))

    def f(x):  # BiasAdd over axis 1 of an NHWC convolution: not the fused op's bias
        return tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), tf.ones([6]), data_format="NCHW")

    types, _ = _types(tf.function(f), x)
    assert "_FusedConv2D" not in types


def _train_with_and_without_remapping(build, steps):
    """Trains the step `build()` makes (fresh variables each time) with remapping on, then off:
    for each, the losses, the trained weights and the optimized step's node types."""
    runs = []
    for remapping in (True, False):
        _set_remapping(remapping)
        step, args, variables = build()
        losses = [step(*args).numpy() for _ in range(steps)]
        runs.append((losses, [v.numpy() for v in variables()], _types(step, *args)[0]))
    return runs


def _assert_training_same_with_and_without_remapping(build, steps, fused_type, fused_count, rtol=0.0, also=()):
    """Bitwise equal results, or within `rtol` where a fusion rounds differently. `also`: further
    (fused type, count) pairs the remapped graph holds."""
    (losses_on, weights_on, types_on), (losses_off, weights_off, types_off) = \
        _train_with_and_without_remapping(build, steps)
    for t, n in ((fused_type, fused_count),) + tuple(also):
        assert types_on.count(t) == n and t not in types_off
    same = np.testing.assert_array_equal if rtol == 0 else \
        (lambda a, b: np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol))
    same(losses_on, losses_off)
    for a, b in zip(weights_on, weights_off):
        same(a, b)


def test_keras_training_step_same_with_and_without_remapping():
    def build():
        tf.keras.utils.set_random_seed(3)
        model = tf.keras.Sequential([tf.keras.layers.Conv2D(8, 3, activation="relu"),
                                     tf.keras.layers.Conv2D(16, 3, activation="relu", padding="same"),
                                     tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.Adam()
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        x = tf.constant(np.random.default_rng(0).random((8, 12, 12, 1), dtype=np.float32))
        y = tf.constant(np.arange(8) % 10)

        @tf.function
        def step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss
        return step, (x, y), lambda: model.trainable_variables  # built by the first step

    _assert_training_same_with_and_without_remapping(build, 3, "_FusedConv2D", 2)


def test_fused_conv_errors():
    x = tf.constant(np.ones((1, 4, 4, 2), np.float32))
    w = tf.constant(np.ones((3, 3, 2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="as many biases"):
        execute("_FusedConv2D", [x, w, tf.ones([2])],
                      {"strides": [1, 1, 1, 1], "padding": "SAME", "fused_ops": ["BiasAdd"]})
    with pytest.raises(tf.errors.UnimplementedError, match="fused_ops"):
        execute("_FusedConv2D", [x, w, tf.ones([3])],
                      {"strides": [1, 1, 1, 1], "padding": "SAME", "fused_ops": ["BiasAdd", "Elu"]})


# ---- MatMul -> BiasAdd / AddV2 (-> Relu) as _FusedMatMul ----
MATMUL_CASES = [  # a shape, b shape, transpose_a, transpose_b
    ((5, 7), (7, 3), False, False),
    ((100, 784), (784, 1024), False, False),  # split over threads by rows
    ((8, 300), (300, 520), False, False),  # split by columns (M < N)
    ((7, 5), (3, 7), True, True),
    ((64, 33), (64, 40), True, False),
]


def _mm_fn(kind, relu, ta, tb, w, b):
    def f(x):
        y = tf.matmul(x, w, transpose_a=ta, transpose_b=tb)
        y = {"bias_add": lambda: tf.nn.bias_add(y, b), "add": lambda: y + b, "radd": lambda: b + y}[kind]()
        return tf.nn.relu(y) if relu else y
    return f


@pytest.mark.parametrize("kind", ["bias_add", "add", "radd"])
@pytest.mark.parametrize("relu", [True, False], ids=["relu", "bias"])
@pytest.mark.parametrize("xs, ws, ta, tb", MATMUL_CASES)
@pytest.mark.parametrize("blas", [True, False], ids=["blas", "eigen"])
def test_fused_matmul_equals_unfused_bitwise(xs, ws, ta, tb, relu, kind, blas):
    prev = _core.blas_enabled()
    _core.set_blas_enabled(blas)
    try:
        x = rng.standard_normal(xs).astype(np.float32)
        x.flat[::11] = np.nan  # NaN stays NaN through the Relu, as tf.nn.relu keeps it
        w = tf.constant(rng.standard_normal(ws).astype(np.float32))
        n = ws[0] if tb else ws[1]
        b = tf.constant(rng.standard_normal(n).astype(np.float32))
        f = _mm_fn(kind, relu, ta, tb, w, b)
        types, og = _types(tf.function(f), x)
        assert "_FusedMatMul" in types and "MatMul" not in types and "Relu" not in types
        fused = next(n for n in og.nodes() if n.type == "_FusedMatMul")
        assert fused.attrs()["fused_ops"] == (["BiasAdd", "Relu"] if relu else ["BiasAdd"])
        on, off, eager = _run(f, True, x).numpy(), _run(f, False, x).numpy(), f(x).numpy()
        np.testing.assert_array_equal(on, off)  # the same bits, hence within 1 ulp
        np.testing.assert_array_equal(on, eager)
    finally:
        _core.set_blas_enabled(prev)


def test_matmul_adds_that_are_not_biases_stay_unfused():
    x = rng.standard_normal((4, 5)).astype(np.float32)
    w = tf.constant(rng.standard_normal((5, 3)).astype(np.float32))

    def full_add(x):  # a [4, 3] addend is no bias
        return tf.matmul(x, w) + tf.ones([4, 3])

    def row_add(x):  # nor is a [4, 1] one
        return tf.nn.relu(tf.matmul(x, w) + tf.ones([4, 1]))

    def product_read_twice(x):
        y = tf.matmul(x, w)
        return y + tf.ones([3]), y

    for f in (full_add, row_add, product_read_twice):
        types, _ = _types(tf.function(f), x)
        assert "_FusedMatMul" not in types and "MatMul" in types, f.__name__
        for a, b in zip(tf.nest.flatten(_run(f, True, x)), tf.nest.flatten(_run(f, False, x))):
            np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_dense_training_step_same_with_and_without_remapping():
    # Forward layers fuse; the weights' SGD updates fuse into their gradients' GEMMs, which round
    # differently (tests/test_remap_sgd_matmul.py), the biases' agree bit for bit.
    def build():
        r = np.random.default_rng(1)
        sizes = (20, 32, 16, 5)
        ws = [tf.Variable(r.standard_normal((m, n)).astype(np.float32) * 0.3) for m, n in zip(sizes, sizes[1:])]
        bs = [tf.Variable(r.standard_normal(n).astype(np.float32) * 0.1) for n in sizes[1:]]
        x = tf.constant(r.standard_normal((10, 20)).astype(np.float32))
        y = tf.constant(r.integers(0, 5, 10))

        @tf.function
        def step():
            with tf.GradientTape() as tape:
                h = x
                for i, (w, b) in enumerate(zip(ws, bs)):
                    h = tf.matmul(h, w) + b
                    if i < len(ws) - 1:
                        h = tf.nn.relu(h)
                loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, h))
            for v, g in zip(ws + bs, tape.gradient(loss, ws + bs)):
                v.assign_sub(0.05 * g)
            return loss
        return step, (), lambda: ws + bs

    # Weights' updates fused into their gradients' GEMMs, the biases' into one pass each.
    _assert_training_same_with_and_without_remapping(
        build, 4, "_FusedMatMul", 3, rtol=1e-5,
        also=(("_ResourceApplyGradientDescentMatMul", 3), ("ResourceApplyGradientDescent", 3)))


def test_fused_matmul_errors():
    a, b = tf.ones([2, 3]), tf.ones([3, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="as many biases"):
        execute("_FusedMatMul", [a, b, tf.ones([3])], {"fused_ops": ["BiasAdd"]})
    with pytest.raises(tf.errors.UnimplementedError, match="fused_ops"):
        execute("_FusedMatMul", [a, b, tf.ones([4])], {"fused_ops": ["BiasAdd", "Elu"]})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        execute("_FusedMatMul", [a, tf.ones([2, 4]), tf.ones([4])], {"fused_ops": ["BiasAdd"]})


# ---- AssignSubVariableOp(Mul(scalar, g)) as ResourceApplyGradientDescent ----
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_update_fused_equals_unfused_bitwise(dtype):
    start = rng.standard_normal((300, 257)).astype(dtype)
    g = tf.constant(rng.standard_normal((300, 257)).astype(dtype))

    def run(remapping):
        v = tf.Variable(start)
        _set_remapping(remapping)

        @tf.function
        def step(lr):
            v.assign_sub(lr * g)
            v.assign_sub(g * 0.37)
        for lr in (0.1, 3.0, 1e-7):
            step(tf.constant(lr, dtype))
        return v.numpy(), _types(step, tf.constant(0.1, dtype))[0]

    on, types_on = run(True)
    off, types_off = run(False)
    assert types_on.count("ResourceApplyGradientDescent") == 2 and "AssignSubVariableOp" not in types_on
    assert "ResourceApplyGradientDescent" not in types_off
    np.testing.assert_array_equal(on, off)
    want = start.copy()
    for lr in (0.1, 3.0, 1e-7):
        want = want - dtype(lr) * g.numpy()
        want = want - g.numpy() * dtype(0.37)
    np.testing.assert_array_equal(on, want)  # NumPy rounds the product first too


def test_sgd_update_keeps_values_read_before_it():
    v = tf.Variable(np.ones((4, 3), np.float32))
    g = tf.constant(np.full((4, 3), 2.0, np.float32))

    @tf.function
    def step():
        before = v.read_value()  # held across the update: the update must not write into it
        v.assign_sub(0.5 * g)
        return before, v.read_value()
    types, _ = _types(tf.function(step.python_function))
    assert "ResourceApplyGradientDescent" in types
    before, after = step()
    np.testing.assert_array_equal(before.numpy(), np.ones((4, 3), np.float32))
    np.testing.assert_array_equal(after.numpy(), np.zeros((4, 3), np.float32))


def test_resource_apply_gradient_descent_errors():
    v = tf.Variable(np.ones((2, 3), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"var and delta do not have the same shape\[2,3\] \[3\]"):
        execute("ResourceApplyGradientDescent", [v.handle, tf.constant(0.5), tf.ones([3])])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"alpha is not a scalar: \[2\]"):
        execute("ResourceApplyGradientDescent", [v.handle, tf.ones([2]), tf.ones([2, 3])])
    with pytest.raises(tf.errors.InvalidArgumentError):
        execute("ResourceApplyGradientDescent", [v.handle, tf.constant(0.5, tf.float64), tf.ones([2, 3], tf.float64)])
    execute("ResourceApplyGradientDescent", [v.handle, tf.constant(0.5), tf.ones([2, 3])])
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), 0.5, np.float32))
