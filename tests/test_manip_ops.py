"""tf.roll (the Roll op) against np.roll (eager and traced), its gradient (the output gradient rolled
back), TF's errors; tf.shape_n."""
import numpy as np
import pytest

import eagerflow as tf


@pytest.mark.parametrize("shape,shift,axis", [((5,), 2, 0), ((5,), -7, 0), ((2, 3), [1, -1], [0, 1]),
                                              ((2, 3, 4), [5, 2], [-1, 0]), ((4,), [1, 1], [0, 0]), ((0,), 3, 0),
                                              ((3, 4), 0, 1)])
def test_roll_matches_numpy(shape, shift, axis):
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    want = np.roll(x, shift, axis)
    np.testing.assert_array_equal(tf.roll(x, shift, axis).numpy(), want)
    traced = tf.function(lambda t, s: tf.roll(t, s, axis))
    np.testing.assert_array_equal(traced(tf.constant(x), tf.constant(shift)).numpy(), want)


def test_roll_gradient_is_dense_and_rolled_back():
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        y = tf.roll(x, 1, 0) * [1.0, 2.0, 3.0]
    g = t.gradient(y, x)
    assert isinstance(g, tf.Tensor) and g.numpy().tolist() == [2.0, 3.0, 1.0]  # TF 2.21's value


@pytest.mark.parametrize("call, message", [
    (lambda: tf.roll(tf.range(5), shift=[1, 2], axis=[0]), r"shift and axis must have the same size \[Op:Roll\]$"),
    (lambda: tf.roll(tf.range(5), shift=1, axis=1), r"axis 1 is out of range \[Op:Roll\] name: $"),
    (lambda: tf.roll(tf.range(5), shift=1, axis=-3), r"axis -2 is out of range \[Op:Roll\] name: $"),
    (lambda: tf.roll(tf.constant(3), shift=1, axis=0), r"input must be 1-D or higher \[Op:Roll\] name: $"),
    (lambda: tf.roll(tf.range(5), shift=[[1]], axis=[0]), r"shift must be a scalar or a 1-D vector. Found: \[1,1\]"),
    (lambda: tf.roll(tf.range(5), shift=1, axis=[[0]]), r"axis must be a scalar or a 1-D vector. Found: \[1,1\]"),
])
def test_roll_errors_as_tf(call, message):
    # TF 2.21's texts, each prefixed with {{function_node __wrapped__Roll_device_...}}.
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^\{\{function_node __wrapped__Roll_device_.*" + message):
        call()


@pytest.mark.parametrize("shift, axis, attr", [(1, "0", "Taxis"), (1, 0.0, "Taxis"), ("1", 0, "Tshift")])
def test_roll_shift_and_axis_of_other_dtypes_are_refused_as_tf(shift, axis, attr):
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Value for attr '{attr}' of .* is not in the list of "
                                                              "allowed values: int32, int64"):
        tf.roll(tf.constant([0, 9]), shift, axis)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8, np.bool_, np.complex64, object])
def test_roll_blocks_match_numpy_on_any_dtype_and_thread_count(dtype):
    # Up to three rolled axes (eight blocks), shifts beyond the length and negative, int32 and int64
    # shift/axis, long enough to split across threads.
    rng = np.random.default_rng(1)
    x = rng.integers(0, 100, (40, 50, 60)).astype(dtype) if dtype is not object else \
        np.array([str(v) for v in range(120_000)], dtype=object).reshape(40, 50, 60)
    for shift, axis in ((7, 2), ([3, -11], [0, 2]), ([45, 1, -61, 2], [1, 0, 2, 2]), (0, 1), ([5, -5], [1, 1])):
        want = np.roll(x, shift, axis)
        for st, at in ((np.int32, np.int64), (np.int64, np.int32)):
            got = tf.roll(x, np.asarray(shift, st), np.asarray(axis, at)).numpy()
            if dtype is object:
                assert [v.decode() for v in got.ravel()] == list(want.ravel())
            else:
                np.testing.assert_array_equal(got, want)


def test_roll_is_one_node_with_dynamic_shift_and_axis():
    @tf.function
    def f(x, s, a):
        return tf.roll(x, s, a)
    cf = f.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([], tf.int32), tf.TensorSpec([], tf.int32))
    assert [n.op for n in cf.graph.as_graph_def().node] == ["Placeholder"] * 3 + ["Roll", "Identity"]
    assert cf.structured_outputs.shape.as_list() == [None, 3]
    x = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(f(x, tf.constant(-1), tf.constant(1)).numpy(), np.roll(x, -1, 1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis 2 is out of range"):
        f(x, tf.constant(1), tf.constant(2))


def test_shape_n():
    a, b = tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])], out_type=tf.int64)
    assert a.numpy().tolist() == [2, 3] and b.numpy().tolist() == [4] and a.dtype == tf.int64
