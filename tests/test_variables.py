"""tf.Variable (eager): construction, properties, assignment (with TF's shape/dtype errors),
conversion into ops, operators, Python protocols and the printed form."""
import numpy as np
import pytest

import eagerflow as tf


def test_repr_and_str_like_tf():
    v = tf.Variable(2.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>"
    assert str(v) == repr(v)
    m = tf.Variable([[1, 2], [3, 4]], name="x")
    assert repr(m) == ("<tf.Variable 'x:0' shape=(2, 2) dtype=int32, numpy=\n"
                       "array([[1, 2],\n       [3, 4]], dtype=int32)>")
    assert repr(tf.Variable("abc")) == "<tf.Variable 'Variable:0' shape=() dtype=string, numpy=b'abc'>"


def test_properties():
    v = tf.Variable([[1, 2], [3, 4]], name="x")
    assert v.name == "x:0" and tf.Variable(1.0).name == "Variable:0"
    assert tf.Variable(1.0, name="a/b").name == "a/b:0"
    assert v.dtype == tf.int32 and v.shape == (2, 2) and isinstance(v.shape, tf.TensorShape)
    assert v.get_shape() == (2, 2)
    assert v.trainable and not tf.Variable(1.0, trainable=False).trainable
    assert v.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    assert v.constraint is None
    with pytest.raises(AttributeError):
        v.trainable = False
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        v.initial_value


def test_isinstance():
    v = tf.Variable(1.0)
    assert isinstance(v, tf.Variable)
    assert not isinstance(v, tf.Tensor)
    assert isinstance(v.value(), tf.Tensor) and isinstance(v.read_value(), tf.Tensor)


def test_initial_values_and_dtype():
    assert tf.Variable(1, dtype=tf.float32).dtype == tf.float32
    assert tf.Variable(np.float64(1.0)).dtype == tf.float64
    assert tf.Variable(np.zeros((3, 4))).shape == (3, 4)
    assert tf.Variable(lambda: tf.constant([1.0, 1.0])).numpy().tolist() == [1.0, 1.0]
    assert tf.Variable(tf.constant([1, 2])).numpy().tolist() == [1, 2]
    assert tf.Variable(tf.Variable(3.0)).numpy() == 3.0
    with pytest.raises(ValueError, match="The `initial_value` arg to `tf.Variable` must be specified"):
        tf.Variable(None)
    with pytest.raises(TypeError, match="Cannot convert 1.0 to EagerTensor of dtype int32"):
        tf.Variable(1.0, dtype=tf.int32)
    with pytest.raises(ValueError, match="initial_value: Tensor conversion requested dtype float32 for Tensor with "
                                         "dtype int32"):
        tf.Variable(tf.constant(1), dtype=tf.float32)


def test_shape_argument():
    v = tf.Variable([1, 2], shape=tf.TensorShape(None))
    assert str(v.shape) == "<unknown>"
    assert repr(v) == "<tf.Variable 'Variable:0' shape=<unknown> dtype=int32, numpy=array([1, 2], dtype=int32)>"
    v.assign([1, 2, 3])
    assert v.numpy().tolist() == [1, 2, 3]
    w = tf.Variable([1, 2], shape=[None])
    assert w.shape.as_list() == [None]
    w.assign([5])
    with pytest.raises(ValueError, match=r"the initial value's shape \(\(2,\)\) is not compatible with the explicitly "
                                         r"supplied `shape` argument \(\[3\]\)"):
        tf.Variable([1, 2], shape=[3])


def test_assign_family():
    v = tf.Variable([1.0, 2.0])
    r = v.assign([3.0, 4.0])
    assert v.numpy().tolist() == [3.0, 4.0]
    assert repr(r) == "<tf.Variable 'UnreadVariable' shape=(2,) dtype=float32, numpy=array([3., 4.], dtype=float32)>"
    assert isinstance(r, tf.Variable) and r.numpy().tolist() == [3.0, 4.0]
    assert v.assign([1, 2]).dtype == tf.float32  # Python ints convert to the variable's dtype
    assert v.assign_add([1.0, 1.0]).numpy().tolist() == [2.0, 3.0]
    assert v.assign_sub([0.5, 0.5], read_value=False) is None
    assert v.numpy().tolist() == [1.5, 2.5]
    assert v.assign(tf.constant([0.0, 0.0]), read_value=False) is None
    # The returned view writes through to the variable.
    v.assign([1.0, 1.0]).assign_add([1.0, 1.0])
    assert v.numpy().tolist() == [2.0, 2.0]
    s = tf.Variable(2.0)
    s.assign(s * 3)
    assert s.numpy() == 6.0
    s.assign(tf.Variable(5.0))
    assert s.numpy() == 5.0


def test_assign_errors_like_tf():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError) as e:
        v.assign([1.0, 2.0, 3.0])
    assert str(e.value) == ("Cannot assign value to variable ' Variable:0': Shape mismatch.The variable shape (2,), "
                            "and the assigned value shape (3,) are incompatible.")
    m = tf.Variable([[1, 2], [3, 4]], name="x")
    with pytest.raises(ValueError, match=r"variable ' x:0': Shape mismatch.The variable shape \(2, 2\)"):
        m.assign([1, 2, 3])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype int32"):
        v.assign(tf.constant([1, 2]))
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype float64"):
        v.assign(tf.constant([1.0, 2.0], tf.float64))
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.Variable(1).assign(1.5)
    with pytest.raises(TypeError, match="Cannot convert 'a' to EagerTensor of dtype int32"):
        tf.Variable(1).assign("a")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot update variable with shape \[2\] using a Tensor with shape \[3\], shapes must be "
                             r"equal. \[Op:AssignAddVariableOp\]"):
        v.assign_add([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[1,2\], shapes must be equal. "
                                                             r"\[Op:AssignSubVariableOp\]"):
        v.assign_sub([[1.0, 2.0]])
    assert v.numpy().tolist() == [1.0, 2.0]  # failed assignments leave the value alone


def test_conversion_into_ops():
    v = tf.Variable([1.0, 2.0])
    c = tf.constant(v)
    assert isinstance(c, tf.Tensor) and c.numpy().tolist() == [1.0, 2.0]
    assert tf.convert_to_tensor(v).numpy().tolist() == [1.0, 2.0]
    assert (tf.constant([1.0, 1.0]) + v).numpy().tolist() == [2.0, 3.0]
    assert tf.strings.join([tf.Variable("a"), "b"]).numpy() == b"ab"
    assert tf.random.shuffle(tf.Variable([7])).numpy().tolist() == [7]


def test_operators_delegate_to_value():
    v = tf.Variable(2.0)
    assert (v + 1).numpy() == 3.0 and (1 + v).numpy() == 3.0
    assert (v - 1).numpy() == 1.0 and (3 - v).numpy() == 1.0
    assert (v * 3).numpy() == 6.0 and (3 * v).numpy() == 6.0
    assert (v / 4).numpy() == 0.5 and (1 / v).numpy() == 0.5
    assert (v ** 2).numpy() == 4.0 and (2 ** v).numpy() == 4.0
    assert (v + v).numpy() == 4.0
    assert isinstance(v + 1, tf.Tensor)
    i = tf.Variable(7)
    assert (i // 2).numpy() == 3 and (15 // i).numpy() == 2
    assert (i % 4).numpy() == 3 and (i & 3).numpy() == 3 and (i | 8).numpy() == 15 and (i ^ 1).numpy() == 6
    assert (v < 3).numpy() and (v <= 2).numpy() and (v > 1).numpy() and (v >= 2).numpy()
    assert (v == 2.0).numpy() and not (v != 2.0).numpy()
    assert (tf.Variable([1, 2]) == [1, 3]).numpy().tolist() == [True, False]
    assert (np.float32(1.0) + v).numpy() == 3.0


def test_unary_operators():
    assert (-tf.Variable(2.0)).numpy() == -2.0
    assert abs(tf.Variable(-3)).numpy() == 3
    assert (~tf.Variable(True)).numpy() == False  # noqa: E712


def test_python_protocols():
    v = tf.Variable([1.0, 2.0])
    assert np.asarray(v).tolist() == [1.0, 2.0]
    assert np.array(tf.Variable([1, 2]), dtype=np.float64).dtype == np.float64
    assert bool(tf.Variable(True)) and not bool(tf.Variable(0))
    assert int(tf.Variable(3)) == 3 and float(tf.Variable(2.5)) == 2.5 and complex(tf.Variable(2.0)) == 2 + 0j
    with pytest.raises(TypeError):
        len(v)
    with pytest.raises(TypeError, match="list indices must be integers or slices"):
        [0, 1, 2][tf.Variable(1)]  # TF variables have no __index__
    with pytest.raises(TypeError, match="unsupported format string"):
        format(tf.Variable(2.0), ".2f")
    assert v.numpy().tolist() == [1.0, 2.0]
    assert tf.Variable(2.0).numpy() == np.float32(2.0)


def test_hash_and_ref():
    v = tf.Variable(2.0)
    with pytest.raises(TypeError, match=r"Variable is unhashable. Instead, use variable.ref\(\) as the key. "
                                        r"\(Variable: <tf.Variable 'Variable:0' shape=\(\) dtype=float32, numpy=2.0>\)"):
        hash(v)
    with pytest.raises(TypeError):
        {v: 1}
    r = v.ref()
    assert r == v.ref() and hash(r) == hash(v.ref()) and r.deref() is v
    assert r != tf.Variable(2.0).ref()
    assert {r: 1}[v.ref()] == 1
    assert repr(r) == "<Reference wrapping <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=2.0>>"


def test_sync_and_aggregation_enums():
    v = tf.Variable(1.0)
    assert v.synchronization == tf.VariableSynchronization.AUTO
    assert v.aggregation == tf.VariableAggregation.NONE
    with pytest.raises(ValueError, match="ON_READ only for non-trainable variables"):
        tf.Variable(1.0, trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
    assert not tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ).trainable


def test_device_is_creation_device():
    with tf.device("/cpu:0"):
        v = tf.Variable(1.0)
    assert v.device.endswith("device:CPU:0")


def test_updates_never_change_values_someone_holds():
    # assign_add/assign_sub write into the variable's memory only when nothing else holds it.
    start = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = tf.Variable(start)
    held = [v.read_value(), v.numpy(), tf.reshape(v, [6]), v.value()[0]]
    v.assign_sub(tf.ones([2, 3]))
    v.assign_add(tf.fill([2, 3], 0.5))
    for h, want in zip(held, [start, start, start.reshape(6), start[0]]):
        np.testing.assert_array_equal(np.asarray(h), want)
    np.testing.assert_array_equal(v.numpy(), start - 0.5)

    def address():
        return v.numpy().__array_interface__["data"][0]
    del held
    before = address()
    v.assign_sub(tf.fill([2, 3], 0.25))  # nothing holds the value: updated in place
    assert address() == before
    np.testing.assert_array_equal(v.numpy(), start - 0.75)
    v.assign_add(v)  # the delta is the variable's own value: a fresh tensor
    np.testing.assert_array_equal(v.numpy(), 2 * (start - 0.75))
    with pytest.raises(tf.errors.InvalidArgumentError, match="shapes must be equal"):
        v.assign_sub(tf.ones([3]))
    np.testing.assert_array_equal(v.numpy(), 2 * (start - 0.75))
