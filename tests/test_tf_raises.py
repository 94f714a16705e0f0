"""Inputs where TensorFlow raises (or answers differently than a naive implementation would):
eagerflow gives TF's answer or TF's error class. Each case was checked against TF 2.21."""
import numpy as np
import pytest

import eagerflow as tf


def test_clip_by_norm_negative_bound_clips_to_zero():
    np.testing.assert_array_equal(tf.clip_by_norm([3.0, 4.0], -1.0).numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(tf.clip_by_norm([3.0, 4.0], tf.constant(-1.0)).numpy(), [0.0, 0.0])
    np.testing.assert_allclose(tf.clip_by_norm([3.0, 4.0], 2.0).numpy(), [1.2, 1.6], rtol=1e-6)
    x = tf.constant([0.0, 0.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.clip_by_norm(x, 1.0)
    np.testing.assert_array_equal(g.gradient(y, x).numpy(), [1.0, 1.0])  # no NaN at a zero norm


def test_scatter_nd_empty_indices_with_updates():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Indices and updates specified for empty output shape"):
        tf.scatter_nd(tf.zeros([0], tf.int32), tf.ones([2, 1, 2]), [2, 1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Updates shape must have rank at least one"):
        tf.scatter_nd(tf.zeros([1, 1], tf.int32), tf.constant(1.0), [2])
    out = tf.scatter_nd(tf.zeros([0, 1], tf.int32), tf.zeros([0]), [3])
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0])


def test_reverse_needs_a_vector_of_axes():
    x = tf.zeros([2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="'dims' must be 1-dimension, not 0"):
        tf.reverse(x, axis=0)
    with pytest.raises((ValueError, tf.errors.InvalidArgumentError), match="must be 1-dimension"):
        tf.function(lambda t: tf.reverse(t, tf.constant(0)))(x)
    np.testing.assert_array_equal(tf.reverse(tf.range(3), [0]).numpy(), [2, 1, 0])


def test_concat_checks_the_axis_of_a_single_value():
    x = tf.zeros([2, 2])
    with pytest.raises(ValueError, match="Attempt to convert a value \\(None\\)"):
        tf.concat([x], None)
    with pytest.raises(ValueError, match="must have rank 0"):
        tf.concat([x], [0])
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.concat([x], 1.5)
    assert tf.concat([x], 1).shape == (2, 2)


def test_slice_index_dtype_comes_from_its_values():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Index' of float"):
        tf.slice(3.0, [], [])
    x = tf.range(5)
    np.testing.assert_array_equal(tf.slice(x, tf.constant([1], tf.int64), [2]).numpy(), [1, 2])
    np.testing.assert_array_equal(tf.slice(x, [1], tf.constant([2], tf.int64)).numpy(), [1, 2])


def test_abs_of_complex_is_its_magnitude():
    z = tf.constant([3 + 4j], tf.complex64)
    for r in (abs(z), tf.abs(z)):
        assert r.dtype == tf.float32
        np.testing.assert_array_equal(r.numpy(), [5.0])


def test_variance_and_std_of_complex_are_real():
    z = np.array([[3 + 4j, 1j], [2, -1 - 1j]], np.complex64)
    want = np.var(z, axis=1, keepdims=True)
    got = tf.math.reduce_variance(z, axis=1, keepdims=True)
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), want.real, rtol=1e-6)
    np.testing.assert_allclose(tf.math.reduce_std(z).numpy(), np.std(z), rtol=1e-6)
    with pytest.raises(TypeError, match="Received integer type"):
        tf.math.reduce_variance([1, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of bool"):
        tf.math.reduce_variance([True, False])


@pytest.mark.parametrize("out_type", [tf.int16, tf.uint8, tf.float32, tf.int64])
def test_size_of_a_known_shape_is_a_constant_of_any_numeric_type(out_type):
    r = tf.size(tf.zeros([3, 2]), out_type)
    assert r.dtype == out_type and r.numpy() == 6
    assert tf.size(tf.zeros([3, 0]), out_type).numpy() == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'out_type' of int16"):
        tf.shape(tf.zeros([3]), tf.int16)  # TF's Shape takes int32/int64 only


@pytest.mark.parametrize("dtype,want", [(tf.int8, tf.float32), (tf.int16, tf.float32), (tf.uint8, tf.float32),
                                        (tf.int32, tf.float64), (tf.int64, tf.float64)])
def test_linspace_of_integers_divides_like_truediv(dtype, want):
    r = tf.linspace(tf.constant(0, dtype), tf.constant(3, dtype), 4)
    assert r.dtype == want
    np.testing.assert_array_equal(r.numpy(), [0.0, 1.0, 2.0, 3.0])


def test_squared_difference_refuses_narrow_ints_like_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int8"):
        tf.math.squared_difference(tf.constant([1], tf.int8), tf.constant([3], tf.int8))


GUARDED = {
    "sqrt": (lambda x: tf.sqrt(x), 0.0),
    "rsqrt": (lambda x: tf.math.rsqrt(x), 0.0),
    "reciprocal": (lambda x: tf.math.reciprocal(x), 0.0),
    "sqrt_of_square": (lambda x: tf.sqrt(x * x), 0.0),
    "cumprod": (lambda x: tf.math.cumprod(x), 0.0),
    # TF's Log, RealDiv and Pow gradients have no such guard: NaN there too.
    "log": (lambda x: tf.math.log(x), np.nan),
    "div": (lambda x: 1.0 / x, np.nan),
}


@pytest.mark.parametrize("name", sorted(GUARDED))
def test_where_guarded_gradients_match_tf(name):
    fn, at_zero = GUARDED[name]
    x = tf.constant([0.0, 4.0])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.where(x > 0, fn(x), tf.zeros_like(x))
    got = g.gradient(y, x).numpy()
    np.testing.assert_equal(got[0], at_zero)
    assert np.isfinite(got[1])


@pytest.mark.parametrize("dtype", [tf.bool, tf.int8, tf.uint8, tf.int16, tf.float32])
def test_fills_of_every_width(dtype):
    # One-byte fills take the vectorized path too (timings: benchmarks, not tests).
    n = 3 * (1 << 16) + 5  # several thread-pool chunks and a ragged tail
    x = tf.ones([n], dtype).numpy()
    assert x.dtype == dtype.as_numpy_dtype and x.shape == (n,) and bool(np.all(x == 1))


@pytest.mark.parametrize("make", [lambda: tf.float32, lambda: tf.Module(), lambda: (lambda: 1),
                                  lambda: tf.no_op(), lambda: [tf.constant(1), object()]])
def test_function_results_must_be_tensors(make):
    with pytest.raises(TypeError, match="To be compatible with tf.function, Python functions must return zero or "
                                        "more Tensors"):
        tf.function(make)()


def test_function_results_convert_python_values():
    r = tf.function(lambda: [None, 2, "s", np.float32(1.5), {"a": 1.0}])()
    assert r[0] is None and r[1].dtype == tf.int32 and r[2].dtype == tf.string
    assert r[3].dtype == tf.float32 and r[4]["a"].dtype == tf.float32


def test_const_of_a_graph_tensor_is_a_type_error():
    from eagerflow import _core

    @tf.function
    def f(x):
        return _core.execute(_core.get_op("Const"), [], {"value": x})

    with pytest.raises(TypeError, match="Don't know how to convert"):
        f(tf.constant([1, 2]))


def test_bool_attrs_take_bools_only():
    with pytest.raises(TypeError, match="Expected bool for argument 'exclusive' not 1."):
        tf.math.cumsum([1, 2], exclusive=1)
    with pytest.raises(TypeError, match="Expected bool for argument 'transpose_a' not 1."):
        tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_a=1)
    np.testing.assert_array_equal(tf.math.cumsum([1, 2], exclusive=True).numpy(), [0, 1])


def test_pack_sequence_as_counts_leaves():
    with pytest.raises(ValueError, match="Structure had 2 atoms, but flat_sequence had 1 items"):
        tf.nest.pack_sequence_as([1, 2], [3])
    with pytest.raises(ValueError, match="Structure had 1 atoms, but flat_sequence had 2 items"):
        tf.nest.pack_sequence_as([1], [3, 4])
    with pytest.raises(ValueError, match="nest cannot guarantee that it is safe to map one to the other"):
        tf.nest.pack_sequence_as(tf.constant([3, 6]), [])
    assert tf.nest.pack_sequence_as([1, [2]], (3, 4)) == [3, [4]]


def test_eval_and_operation_misuse():
    with pytest.raises(NotImplementedError, match="eval is not supported when eager execution is enabled"):
        tf.constant([1]).eval()
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="No default session is registered"):
            tf.constant([1]).eval()
    with pytest.raises(TypeError):
        tf.Operation(2)


def test_eye_of_a_non_integer_size_raises_tfs_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of complex64"):
        tf.eye(tf.zeros([0, 4], tf.complex64))
    with pytest.raises(TypeError, match="Cannot convert 7 to EagerTensor of dtype resource"):
        tf.eye(tf.Variable(1.0).handle, 7)


def test_eye_takes_numpy_integers_of_any_width():
    np.testing.assert_array_equal(tf.eye(np.uint8(3), 3).numpy(), np.eye(3, dtype=np.float32))
    np.testing.assert_array_equal(tf.eye(np.int16(2)).numpy(), np.eye(2, dtype=np.float32))
