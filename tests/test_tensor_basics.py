"""Tensor basics: construction, dtype inference, printing, Python protocols, NumPy interop."""
import numpy as np
import pytest

import eagerflow as tf


def test_dtype_inference_like_tf():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(2 ** 40).dtype == tf.int64
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant("a").dtype == tf.string
    assert tf.constant(b"a").dtype == tf.string
    assert tf.constant([1, 2.5]).dtype == tf.float32
    assert tf.constant([[1, 2], [3, 4]]).dtype == tf.int32
    assert tf.constant([]).dtype == tf.float32
    assert tf.constant(np.array([1, 2])).dtype == tf.int64
    assert tf.constant(np.float64(1.5)).dtype == tf.float64
    for npt in (np.int8, np.uint8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64, np.bool_):
        t = tf.constant(np.zeros([2], npt))
        assert t.dtype.as_numpy_dtype == npt
        assert t.numpy().dtype == npt


def test_constant_dtype_and_shape_args():
    assert tf.constant([1, 2], dtype=tf.float32).numpy().tolist() == [1.0, 2.0]
    t = tf.constant(5, shape=[2, 2])
    assert t.shape == (2, 2) and t.numpy().tolist() == [[5, 5], [5, 5]]
    assert tf.constant([1, 2, 3], shape=[3, 1]).shape == [3, 1]
    with pytest.raises(TypeError, match="unsupported shape"):
        tf.constant([1, 2, 3], shape=[2, 2])
    with pytest.raises(TypeError, match="Cannot convert 1.5 to EagerTensor of dtype int32"):
        tf.constant(1.5, dtype=tf.int32)
    assert tf.constant(np.array([1.5]), dtype=tf.int32).numpy().tolist() == [1]


def test_bad_values():
    with pytest.raises(ValueError, match="non-rectangular"):
        tf.constant([[1, 2], [3]])
    with pytest.raises(ValueError, match="mixed types"):
        tf.constant([True, 1])
    with pytest.raises(ValueError, match="unsupported type"):
        tf.constant(None)
    with pytest.raises(ValueError, match="unsupported type"):
        tf.constant({"a": 1})


def test_str_and_repr_match_tf():
    assert str(tf.constant([2.0, 3.0, 4.0])) == "tf.Tensor([2. 3. 4.], shape=(3,), dtype=float32)"
    assert str(tf.constant(3)) == "tf.Tensor(3, shape=(), dtype=int32)"
    assert str(tf.constant([[1, 2], [3, 4]])) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    assert repr(tf.constant([[2.0, 2.0], [2.0, 2.0]])) == (
        "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[2., 2.],\n       [2., 2.]], dtype=float32)>")
    assert repr(tf.constant(1.5)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.5>"
    assert repr(tf.constant(True)) == "<tf.Tensor: shape=(), dtype=bool, numpy=True>"
    assert str(tf.constant(["a", "b"])) == "tf.Tensor([b'a' b'b'], shape=(2,), dtype=string)"
    assert str(tf.constant(b"aa") + b"bb") == "tf.Tensor(b'aabb', shape=(), dtype=string)"
    big = tf.constant(np.arange(2000, dtype=np.int32))
    assert str(big) == "tf.Tensor([   0    1    2 ... 1997 1998 1999], shape=(2000,), dtype=int32)"
    assert "hello, [[4.]]" == "hello, {}".format(tf.constant([[4.0]]))
    assert format(tf.constant(4.5), ".2f") == "4.50"


def test_numpy_returns_copy_or_scalar():
    t = tf.constant([1.0, 2.0])
    a = t.numpy()
    assert isinstance(a, np.ndarray) and a.flags.writeable
    a[0] = 100
    assert t.numpy()[0] == 1.0  # the tensor is never aliased by what the user mutates
    s = tf.constant(1.0).numpy()
    assert isinstance(s, np.float32) and s == 1.0
    assert tf.constant(b"x").numpy() == b"x"
    view = np.asarray(t)
    assert not view.flags.writeable
    with pytest.raises(ValueError):
        view[0] = 5


def test_numpy_interop():
    a = tf.constant([[1, 2], [3, 4]])
    b = a + 1
    c = np.multiply(a, b)
    assert isinstance(c, np.ndarray) and c.tolist() == [[2, 6], [12, 20]]
    assert np.mean(tf.constant([1.0, 2.0, 3.0])) == 2.0
    r = np.array([1.0, 2.0], np.float32) + tf.constant([1.0, 2.0])
    assert isinstance(r, tf.Tensor) and r.numpy().tolist() == [2.0, 4.0]


def test_python_protocols():
    assert bool(tf.constant(0)) is False
    assert int(tf.constant(3)) == 3
    assert float(tf.constant(2.5)) == 2.5
    assert [10, 20, 30][tf.constant(1)] == 20
    assert len(tf.constant([1, 2, 3])) == 3
    with pytest.raises(TypeError, match="Scalar tensor has no `len\\(\\)`"):
        len(tf.constant(1))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(tf.constant([1, 2]))
    with pytest.raises(TypeError):
        float(tf.constant([2.5]))


def test_unhashable_and_ref():
    t = tf.constant(1)
    with pytest.raises(TypeError, match=r"Tensor is unhashable. Instead, use tensor.ref\(\) as the key."):
        hash(t)
    d = {t.ref(): 1}
    assert d[t.ref()] == 1
    assert t.ref().deref() is t
    assert tf.constant(1).ref() != t.ref()


def test_immutable():
    t = tf.constant([1, 2])
    with pytest.raises(TypeError, match="does not support item assignment"):
        t[0] = 5


def test_equality_is_elementwise():
    r = tf.constant([1, 2, 3]) == tf.constant([1, 0, 3])
    assert r.dtype == tf.bool and r.numpy().tolist() == [True, False, True]
    assert (tf.constant(1) == None) is False  # noqa: E711
    assert (tf.constant(1) != None) is True  # noqa: E711
    assert bool(tf.constant([1, 2]) == tf.constant([1, 2, 3])) is False


def test_isinstance_and_eager():
    assert isinstance(tf.constant(1), tf.Tensor)
    assert isinstance(tf.constant(1) + 1, tf.Tensor)
    assert tf.executing_eagerly() is True
    with pytest.raises(AttributeError, match="Tensor.name is undefined when eager execution is enabled."):
        tf.constant(1).name


def test_shape_and_rank_attrs():
    t = tf.constant(np.zeros([2, 0, 3], np.float32))
    assert t.shape == tf.TensorShape([2, 0, 3])
    assert t.shape.as_list() == [2, 0, 3]
    assert t.ndim == 3
    assert t.device.endswith("device:CPU:0")


def test_mixed_dtype_error():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute AddV2 as input #1\(zero-based\) was expected to be a int32 tensor but "
                             r"is a float tensor \[Op:AddV2\]"):
        tf.constant(1) + tf.constant(1.5)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]"):
        tf.constant([1, 2, 3]) + tf.constant([1, 2])
    with pytest.raises(TypeError, match="must have the same dtype"):
        tf.constant(1) / tf.constant(1.5)


def test_python_scalars_adopt_tensor_dtype():
    assert (tf.constant(1.0) + 2).dtype == tf.float32
    assert (tf.constant([1], dtype=tf.int64) + 2).dtype == tf.int64
    assert (tf.constant(1) + True).numpy() == 2
    assert (2 - tf.constant(1.5)).numpy() == 0.5


def test_numpy_of_empty_tensor_too_big_for_numpy():
    # Found by the ASan/UBSan run: the NumPy strides of [0, 2**62] float32 overflowed; TF refuses.
    x = tf.zeros([0, 2 ** 62])
    assert x.shape == (0, 2 ** 62)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Failed to create numpy array from tensor of shape"):
        x.numpy()
    assert tf.zeros([0, 2 ** 62], tf.int8).numpy().shape == (0, 2 ** 62)
