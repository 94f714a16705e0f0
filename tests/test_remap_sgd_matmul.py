"""The remapping pass's SGD update of a product: `v.assign_sub(lr * tf.matmul(a, b))` in a traced
function (the weight gradient's update in a training step) becomes one
_ResourceApplyGradientDescentMatMul node, a GEMM that accumulates -lr * op(a) @ op(b) into the
variable's memory. The GEMM rounds once where the unfused ops round the product, then the scaled
product, then the difference, so results are within 2 eps * (|W| + lr * |a| @ |b|) of the unfused
graph's (at most 0.91 of that measured on the shapes below, both GEMMs), not bitwise."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

from _optimizer_options import optimized, reset_options, set_options  # noqa: F401 (reset_options: autouse)
from eagerflow.ops._execute import execute

FUSED = "_ResourceApplyGradientDescentMatMul"
rng = np.random.default_rng(11)




@pytest.fixture(params=["blas", "eigen"] if _core.blas_available() else ["eigen"])
def gemm(request):
    prev = _core.blas_enabled()
    _core.set_blas_enabled(request.param == "blas")
    yield request.param
    _core.set_blas_enabled(prev)


def _set_remapping(remapping):
    set_options({"remapping": remapping})


def _types(fn, *args):
    return optimized(fn, *args)[0]


def _update(remapping, w0, a, b, lr, ta=False, tb=False):
    """w0 after one traced `v.assign_sub(lr * matmul(a, b))`, and the optimized graph's node types."""
    _set_remapping(remapping)
    v = tf.Variable(w0)
    x, y = tf.constant(a), tf.constant(b)

    @tf.function
    def step():
        v.assign_sub(lr * tf.matmul(x, y, transpose_a=ta, transpose_b=tb))
    step()
    return v.numpy(), _types(step)


def _bound(w0, a, b, lr, ta, tb):
    aa, bb = np.abs(a.T if ta else a).astype(np.float64), np.abs(b.T if tb else b).astype(np.float64)
    return 2 * np.finfo(w0.dtype).eps * (np.abs(w0) + abs(lr) * (aa @ bb))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ta, tb", [(True, False), (False, True), (False, False), (True, True)])
@pytest.mark.parametrize("m, n, k", [(784, 1024, 100), (64, 48, 1000), (300, 7, 3000), (5, 3, 2)])
def test_fused_within_rounding_of_unfused(gemm, dtype, ta, tb, m, n, k):
    a = rng.standard_normal((k, m) if ta else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if tb else (k, n)).astype(dtype)
    w0 = rng.standard_normal((m, n)).astype(dtype)
    on, types_on = _update(True, w0, a, b, 0.01, ta, tb)
    off, types_off = _update(False, w0, a, b, 0.01, ta, tb)
    assert FUSED in types_on and "MatMul" not in types_on and "Mul" not in types_on
    assert FUSED not in types_off and "ResourceApplyGradientDescent" not in types_off
    assert np.all(np.abs(on - off) <= _bound(w0, a, b, 0.01, ta, tb))


def test_lr_of_either_operand_order_and_signs():
    # Keras's SGD writes `gradient * lr`; NaN and infinity in the product stay as the unfused ops leave them.
    a = rng.standard_normal((6, 5)).astype(np.float32)
    b = rng.standard_normal((5, 4)).astype(np.float32)
    a[2, 3] = np.nan
    b[1, 0] = np.inf
    w0 = rng.standard_normal((6, 4)).astype(np.float32)
    a, b, lr = tf.constant(a), tf.constant(b), tf.constant(-0.5)

    def run(remapping):
        _set_remapping(remapping)
        v = tf.Variable(w0)

        @tf.function
        def step():
            v.assign_sub(tf.matmul(a, b) * lr)
        step()
        return v.numpy(), _types(step)
    (on, types), (off, _) = run(True), run(False)
    assert FUSED in types
    np.testing.assert_array_equal(np.isnan(on), np.isnan(off))
    np.testing.assert_array_equal(np.isinf(on), np.isinf(off))
    finite = np.isfinite(off)
    np.testing.assert_allclose(on[finite], off[finite], rtol=1e-6, atol=1e-6)


def test_eager_updates_are_the_unfused_ops():
    a = rng.standard_normal((40, 30)).astype(np.float32)
    b = rng.standard_normal((40, 20)).astype(np.float32)
    w0 = rng.standard_normal((30, 20)).astype(np.float32)
    v = tf.Variable(w0)
    v.assign_sub(0.01 * tf.matmul(a, b, transpose_a=True))
    off, _ = _update(False, w0, a, b, 0.01, ta=True)
    np.testing.assert_array_equal(v.numpy(), off)
    np.testing.assert_array_equal(v.numpy(), w0 - np.float32(0.01) * tf.matmul(a, b, transpose_a=True).numpy())


def test_values_read_before_the_update_keep_their_value():
    w0 = np.ones((4, 3), np.float32)
    a = tf.constant(np.full((4, 2), 0.5, np.float32))  # tensors, not NumPy constants the optimizer folds
    b = tf.ones((2, 3))
    v = tf.Variable(w0)

    @tf.function
    def step():
        before = v.read_value()  # held across the update: the GEMM must not accumulate into it
        v.assign_sub(0.5 * tf.matmul(a, b))
        return before, v.read_value()
    assert FUSED in _types(tf.function(step.python_function))
    eager_read = v.read_value()
    as_numpy = v.numpy()
    before, after = step()
    np.testing.assert_array_equal(before.numpy(), w0)
    np.testing.assert_array_equal(eager_read.numpy(), w0)
    np.testing.assert_array_equal(as_numpy, w0)
    np.testing.assert_array_equal(after.numpy(), np.full((4, 3), 0.5, np.float32))
    del before, eager_read, as_numpy
    step()  # nothing else holds the value now: updated in place
    np.testing.assert_array_equal(v.numpy(), np.zeros((4, 3), np.float32))


def test_in_place_only_when_nothing_else_holds_the_value():
    v = tf.Variable(np.ones((64, 64), np.float32))
    a = tf.ones((64, 64))

    @tf.function
    def step():
        v.assign_sub(0.5 * tf.matmul(a, a))
    assert FUSED in _types(step)
    step()
    p0 = v.read_value()._data_ptr()  # the read is dropped at once
    step()
    assert v.read_value()._data_ptr() == p0  # accumulated into the variable's memory
    held = v.read_value()
    step()
    assert v.read_value()._data_ptr() != p0  # into a copy: `held` keeps its value
    np.testing.assert_array_equal(held.numpy(), np.full((64, 64), 1 - 2 * 32, np.float32))
    np.testing.assert_array_equal(v.numpy(), np.full((64, 64), 1 - 3 * 32, np.float32))


def test_update_reading_its_own_variable():
    # The product reads the variable it updates: the GEMM's input is the old value.
    w0 = rng.standard_normal((8, 8)).astype(np.float32)
    x = tf.constant(rng.standard_normal((8, 8)).astype(np.float32))

    def run(remapping):
        _set_remapping(remapping)
        v = tf.Variable(w0)

        @tf.function
        def step():
            v.assign_sub(0.25 * tf.matmul(v, x))
        step()
        return v.numpy(), _types(step)
    (on, types), (off, _) = run(True), run(False)
    assert FUSED in types
    np.testing.assert_allclose(on, off, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(on, w0 - 0.25 * (w0 @ x.numpy()), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [tf.float16, tf.bfloat16, tf.int32, tf.complex64])
def test_other_dtypes_stay_unfused(dtype):
    a = tf.cast(tf.constant(rng.integers(-3, 3, (4, 5))), dtype)
    b = tf.cast(tf.constant(rng.integers(-3, 3, (5, 2))), dtype)
    v = tf.Variable(tf.zeros([4, 2], dtype))
    lr = tf.cast(2, dtype)

    @tf.function
    def step():
        v.assign_sub(lr * tf.matmul(a, b))
    _set_remapping(True)
    types = _types(step)
    assert FUSED not in types and "MatMul" in types
    step()
    np.testing.assert_array_equal(v.numpy(), (-2 * tf.matmul(a, b)).numpy())


def test_products_used_elsewhere_are_not_fused():
    a = tf.constant(rng.standard_normal((6, 5)).astype(np.float32))
    b = tf.constant(rng.standard_normal((5, 4)).astype(np.float32))
    v = tf.Variable(np.zeros((6, 4), np.float32))

    def returned():
        g = tf.matmul(a, b)
        v.assign_sub(0.5 * g)
        return g

    def added():
        v.assign_add(0.5 * tf.matmul(a, b))

    def lr_not_a_scalar():
        v.assign_sub(tf.ones([4]) * tf.matmul(a, b))

    _set_remapping(True)
    for f in (returned, added, lr_not_a_scalar):
        assert FUSED not in _types(tf.function(f)), f.__name__


def test_remapping_off_leaves_the_ops():
    a, b = tf.ones((3, 2)), tf.ones((2, 4))
    v = tf.Variable(np.zeros((3, 4), np.float32))

    @tf.function
    def step():
        v.assign_sub(0.5 * tf.matmul(a, b))
    _set_remapping(False)
    types = _types(step)
    assert FUSED not in types and {"MatMul", "Mul", "AssignSubVariableOp"} <= set(types)


def test_kernel_errors():
    v = tf.Variable(np.ones((2, 3), np.float32))
    a, b = tf.ones([2, 4]), tf.ones([4, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"var and delta do not have the same shape\[2,3\] \[2,2\]"):
        execute(FUSED, [v.handle, tf.constant(0.5), a, tf.ones([4, 2])])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"alpha is not a scalar: \[2\]"):
        execute(FUSED, [v.handle, tf.ones([2]), a, b])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Matrix size-incompatible"):
        execute(FUSED, [v.handle, tf.constant(0.5), a, tf.ones([3, 3])])
    with pytest.raises(tf.errors.InvalidArgumentError):
        execute(FUSED, [v.handle, tf.constant(0.5, tf.float64), tf.ones([2, 4], tf.float64), tf.ones([4, 3], tf.float64)])
    execute(FUSED, [v.handle, tf.constant(0.5), a, b])
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), -1.0, np.float32))
    execute(FUSED, [v.handle, tf.constant(0.25), tf.ones([4, 2]), tf.ones([3, 4])], {"transpose_a": True, "transpose_b": True})
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), -2.0, np.float32))
    execute(FUSED, [v.handle, tf.constant(0.25), tf.ones([2, 0]), tf.ones([0, 3])])  # an empty sum: no change
    np.testing.assert_array_equal(v.numpy(), np.full((2, 3), -2.0, np.float32))
