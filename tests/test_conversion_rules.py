"""Value -> tensor conversion as TF does it: byte order, dtype requests and hints, lists holding
tensors, and how operators and op wrappers convert their other operand."""
import numpy as np
import pytest

import eagerflow as tf

BIG_ENDIAN = [">i2", ">i4", ">i8", ">f2", ">f4", ">f8", ">c8"]


# ---- byte order: tensors hold native values, whatever the array's byte order ----

@pytest.mark.parametrize("code", BIG_ENDIAN)
def test_big_endian_arrays_convert_by_value(code):
    a = np.arange(5).astype(code)
    native = a.astype(a.dtype.newbyteorder("="))
    for t in (tf.constant(a), tf.convert_to_tensor(a), tf.Variable(a).value()):
        assert t.dtype == tf.as_dtype(native.dtype)
        np.testing.assert_array_equal(t.numpy(), native)


def test_big_endian_arrays_as_op_and_operator_operands():
    a = np.array([1, 2, 3], ">i8")
    np.testing.assert_array_equal(tf.add(a, np.int64(1)).numpy(), [2, 3, 4])
    np.testing.assert_array_equal((tf.constant([1, 1, 1], tf.int64) + a).numpy(), [2, 3, 4])
    np.testing.assert_array_equal(tf.reshape(np.arange(4, dtype=">i4"), np.array([2, 2], ">i8")).numpy(),
                                  [[0, 1], [2, 3]])
    np.testing.assert_array_equal(tf.cast(np.arange(3, dtype=">i8"), tf.float32).numpy(), [0, 1, 2])


def test_big_endian_non_contiguous_and_reinterpreted_views():
    t = np.arange(6, dtype=">i4").reshape(2, 3).T
    np.testing.assert_array_equal(tf.constant(t).numpy(), [[0, 3], [1, 4], [2, 5]])
    # A view reinterpreting little-endian bytes as big-endian has the big-endian values.
    v = np.arange(3, dtype="<i4").view(">i4")
    np.testing.assert_array_equal(tf.constant(v).numpy(), v.astype("=i4"))


def test_big_endian_through_variables_functions_and_py_function():
    v = tf.Variable(np.zeros(3, np.float32))
    v.assign(np.arange(3, dtype=">f4"))
    v.assign_add(np.ones(3, ">f4"))
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    f = tf.function(lambda x: x * 2)
    np.testing.assert_array_equal(f(np.arange(3, dtype=">f4")).numpy(), [0, 2, 4])
    r = tf.py_function(lambda: np.arange(3, dtype=">f4"), [], tf.float32)
    np.testing.assert_array_equal(r.numpy(), [0, 1, 2])
    g = tf.function(lambda: tf.py_function(lambda: np.arange(3, dtype=">f8"), [], tf.float64))
    np.testing.assert_array_equal(g().numpy(), [0, 1, 2])


# ---- dtype arguments ----

@pytest.mark.parametrize("bad", [int, str, bytes, complex, "int", "str", "object", "f4", "<f4"])
def test_python_types_and_numpy_strings_are_not_dtypes(bad):
    msg = "Cannot convert the argument `type_value`: .* to a TensorFlow DType."
    with pytest.raises(TypeError, match=msg):
        tf.as_dtype(bad)
    with pytest.raises(TypeError, match=msg):
        tf.constant(1, dtype=bad)
    with pytest.raises(TypeError, match=msg):
        tf.as_dtype(None)


def test_dtype_lookup_follows_tf():
    assert tf.as_dtype(float) == tf.float32 and tf.as_dtype(bool) == tf.bool and tf.as_dtype(object) == tf.string
    assert tf.as_dtype(np.dtype(">i4")) == tf.int32  # NumPy dtypes by their scalar type
    assert tf.as_dtype(np.array([1.0])) == tf.float64  # anything with a dtype
    assert tf.as_dtype(np.dtype("U3")) == tf.string
    assert tf.as_dtype(1) == tf.float32  # the enum value
    with pytest.raises(TypeError):
        tf.zeros([2], dtype=int)


# ---- bools meet numeric dtypes ----

def test_bool_adopts_only_int32_int64_and_floats_eagerly():
    assert (tf.constant([1]) + True).numpy().tolist() == [2]
    assert (tf.constant([1.0], tf.float16) * True).dtype == tf.float16
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int16 tensor but is a bool tensor"):
        tf.constant([1], tf.int16) + True  # `+` only hints: the bool stays a bool
    with pytest.raises(tf.errors.InvalidArgumentError, match="int16 tensor but is a bool"):
        tf.add(tf.constant([1], tf.int16), [True])
    with pytest.raises(TypeError, match="Cannot convert True to EagerTensor of dtype int16"):
        True + tf.constant([1], tf.int16)
    with pytest.raises(TypeError, match=r"Cannot convert \[True\] to EagerTensor of dtype uint8"):
        tf.constant([True], tf.uint8)
    with pytest.raises(TypeError, match="Cannot convert True to EagerTensor of dtype complex64"):
        tf.convert_to_tensor(True, dtype=tf.complex64)
    assert tf.convert_to_tensor(True, dtype_hint=tf.int8).dtype == tf.bool
    # Graph constants take a bool as any number.
    assert tf.function(lambda: tf.constant(1, tf.int16) + True)().numpy() == 2


# ---- Python scalars that do not fit the other operand's dtype ----

@pytest.mark.parametrize("expr", [
    lambda t: t == 3.0, lambda t: t != 3.0, lambda t: t < float("nan"), lambda t: 2.5 * t, lambda t: t * 2.5,
    lambda t: t - 2.5, lambda t: t // 2.5, lambda t: t % 2.5, lambda t: t ** 0.5, lambda t: 2.5 + t,
    lambda t: t & 2.5, lambda t: 2.5 / t, lambda t: tf.multiply(t, 2.5), lambda t: tf.multiply(2.5, t),
    lambda t: tf.math.equal(t, 2.5), lambda t: tf.maximum(t, 2.5), lambda t: tf.subtract(2, 2.5) * t])
def test_unfitting_python_scalar_is_type_error(expr):
    with pytest.raises(TypeError, match=r"Cannot convert (2.5|3.0|nan|0.5) to EagerTensor of dtype int32"):
        expr(tf.constant(1))


def test_unfitting_values_name_tf_dtypes_and_classes():
    with pytest.raises(TypeError, match="Cannot convert 1j to EagerTensor of dtype float$"):
        tf.constant(1.0) * 1j
    with pytest.raises(TypeError, match="Cannot convert 'a' to EagerTensor of dtype double"):
        tf.convert_to_tensor("a", dtype=tf.float64)
    with pytest.raises(TypeError, match="Cannot convert 1 to EagerTensor of dtype string"):
        tf.constant("a") == 1
    with pytest.raises(ValueError, match="with an unsupported type"):
        tf.constant(1) == object()
    assert (tf.constant(1) == None) is False  # noqa: E711
    # `+`, tf.add and matmul hint: the op reports the mismatch.
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a float"):
        tf.constant(1) + 2.5
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a float"):
        tf.add(tf.constant(1), 2.5)
    with pytest.raises(TypeError, match="`x` and `y` must have the same dtype"):
        tf.constant(1) / 2.5
    # NumPy values are cast, as in TF.
    assert (tf.constant([1]) * np.array([2.5])).numpy().tolist() == [2]
    # Out-of-range Python ints and values beyond float64 keep TF's classes.
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant(2 ** 70)
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant([2 ** 70])
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant(1.0) * 10 ** 400
    assert (tf.constant(1.0) * 2 ** 70).numpy() == np.float32(2.0 ** 70)


def test_unfitting_python_scalar_inside_function():
    for fn in (lambda x: x * 2.5, lambda x: x == 3.0, lambda x: 2.5 * x, lambda x: tf.multiply(x, 2.5)):
        with pytest.raises(TypeError, match=r"Expected int32, but got (2.5|3.0) of type 'float'"):
            tf.function(fn)(tf.constant(1))
    with pytest.raises(TypeError, match="Failed to convert elements of <object"):
        tf.function(lambda x: x + object())(tf.constant(1))
    with pytest.raises(ValueError, match="None values not supported"):
        tf.function(lambda x: x * None)(tf.constant(1))


def test_bool_tensor_multiplies_as_int32():
    m = tf.constant([True, False])
    for r in (m * 2.5, m * 3, m * tf.constant([True, True]), True * m, tf.constant([2, 0]) * tf.constant([True, True])):
        assert r.dtype == tf.bool
    assert (m * 2.5).numpy().tolist() == [True, False]
    with pytest.raises(TypeError, match="Cannot convert 3 to EagerTensor of dtype bool"):
        3 * m
    with pytest.raises(TypeError, match=r"Invalid dtype tf.bool in __truediv__"):
        m / m


def test_other_operands_reflected_operator_answers():
    # TF's operators hand a failed conversion to the other operand's reflected operator.
    assert tf.constant(2) * [1, 2.5] == [1, 2.5, 1, 2.5]

    class Units:
        def __radd__(self, other):
            return ("radd", float(other))

    assert tf.constant(1.5) + Units() == ("radd", 1.5)
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.constant([1]) | 2.5  # no reflected operator: the first error stands


# ---- lists holding tensors: a tensor in the list fixes the dtype (TF's auto-packing) ----

def test_list_holding_tensors_takes_the_tensors_dtype():
    for value in ([tf.constant(1.5), 2], [2, tf.constant(1.5)], (tf.constant(1.5), 2), [tf.Variable(1.5), 2],
                  [tf.constant(1.5), np.float64(2.5)]):
        t = tf.convert_to_tensor(value)
        assert t.dtype == tf.float32 and t.shape == (2,)
    assert tf.convert_to_tensor([[tf.constant(1.5)], [2]]).shape == (2, 1)
    assert tf.convert_to_tensor([tf.constant(1, tf.int16), 3]).dtype == tf.int16
    assert tf.convert_to_tensor([tf.constant(1), True]).numpy().tolist() == [1, 1]
    with pytest.raises(TypeError, match="Cannot convert 2.5 to EagerTensor of dtype int32"):
        tf.convert_to_tensor([tf.constant(1), 2.5])
    with pytest.raises(TypeError, match="Cannot convert 'b' to EagerTensor of dtype float"):
        tf.convert_to_tensor([tf.constant(1.5), "b"])


def test_list_holding_tensors_with_a_requested_dtype_casts_them():
    assert tf.convert_to_tensor([tf.constant(1.5), 2], dtype=tf.float64).dtype == tf.float64
    assert tf.convert_to_tensor([tf.constant(1.5), 2], dtype=tf.int32).numpy().tolist() == [1, 2]
    assert tf.convert_to_tensor([tf.constant(1.5), 2], dtype_hint=tf.int32).dtype == tf.int32
    assert (tf.constant(1) + [tf.constant(1.0)]).numpy().tolist() == [2]


def test_list_holding_mismatched_tensors_is_a_pack_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot compute Pack as input #1"):
        tf.convert_to_tensor([tf.constant(1.0), tf.constant(2)])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shapes of all inputs must match"):
        tf.convert_to_tensor([tf.constant([1.0]), 2.0])
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype <dtype: 'int32'> to "
                                        "<dtype: 'float32'>"):
        tf.convert_to_tensor([1, tf.constant(1.0), tf.constant(1)])


def test_constant_takes_no_tensors_in_lists():
    # TF 2.21's tf.constant builds from Python values only; convert_to_tensor packs.
    with pytest.raises(ValueError, match="Scalar tensor has no `len\\(\\)`"):
        tf.constant([tf.constant(1.0), 2.0])
    with pytest.raises(ValueError, match="has no len"):
        tf.constant([tf.Variable(1.0), 2.0])
    with pytest.raises(TypeError, match="Expected any non-tensor type, but got a tensor instead."):
        tf.function(lambda x: tf.constant([x, 2.0]))(tf.constant(1.0))
    assert tf.function(lambda x: tf.convert_to_tensor([x, 2]))(tf.constant(1.5)).dtype == tf.float32


def test_hinted_lists_adopt_float_and_complex_hints():
    assert tf.convert_to_tensor([2.5], dtype_hint=tf.float64).dtype == tf.float64
    assert tf.convert_to_tensor([2.5], dtype_hint=tf.complex64).dtype == tf.complex64
    assert (tf.constant([1.0], tf.float64) + [2.5]).numpy().tolist() == [3.5]
    assert tf.convert_to_tensor(np.float64(2.5), dtype_hint=tf.bool).dtype == tf.bool


def test_numpy_values_meet_string_and_numeric_dtypes_with_tf_classes():
    with pytest.raises(ValueError, match=r"Failed to convert a NumPy array to a Tensor \(Unsupported object type "
                                         r"float\)"):
        tf.constant(np.array([2.5]), dtype=tf.string)
    with pytest.raises(ValueError):
        tf.constant(np.array(["a"]), dtype=tf.int32)
    assert tf.constant(np.array(["12"]), dtype=tf.int32).numpy().tolist() == [12]


# ---- values TF refuses or converts specially ----

@pytest.mark.parametrize("value, message", [
    (np.array([1, "a", None], dtype=object), r"\(Unsupported object type int\)"),
    (np.array([None], dtype=object), r"\(Unsupported object type NoneType\)"),
    (np.zeros(2, dtype=[("a", "i4"), ("b", "f4")]), r"\(Unsupported numpy data type\)"),
    (np.array(["2020-01-01"], dtype="datetime64[D]"), r"\(Unsupported numpy type: NPY_DATETIME\)"),
    (np.array([1], dtype="timedelta64[s]"), r"\(Unsupported numpy type: NPY_TIMEDELTA\)"),
    (np.array([1.0], dtype=np.longdouble), r"\(Unsupported numpy type: NPY_LONGDOUBLE\)"),
    (np.longdouble(1.0), r"\(Unsupported numpy type: NPY_LONGDOUBLE\)"),
    (np.array(["\ud800"]), r"\(Unable to convert element to UTF-8\)"),
])
def test_numpy_values_without_a_tf_dtype_are_value_errors(value, message):
    with pytest.raises(ValueError, match="Failed to convert a NumPy array to a Tensor " + message) as e:
        tf.constant(value)
    assert type(e.value) is ValueError


def test_lone_surrogates_are_value_errors():
    for value in ("\ud800", ["a", "\ud800"]):
        with pytest.raises(ValueError, match="Error converting unicode string while converting Python sequence") as e:
            tf.constant(value)
        assert type(e.value) is ValueError
    with pytest.raises(ValueError, match="Error converting unicode string"):
        tf.strings.length("\ud800")


def test_python_buffers_convert_as_sequences_of_their_items():
    import array
    for value, dtype, items in [(bytearray(b"abc"), tf.int32, [97, 98, 99]), (memoryview(b"abc"), tf.int32, [97, 98, 99]),
                                (array.array("i", [1, 2]), tf.int32, [1, 2]), (array.array("q", [1, 2]), tf.int32, [1, 2]),
                                (array.array("d", [1, 2]), tf.float32, [1, 2]),
                                (memoryview(np.arange(3, dtype=np.float64)), tf.float32, [0, 1, 2]),
                                (array.array("u", "ab"), tf.string, [b"a", b"b"])]:
        t = tf.constant(value)
        assert t.dtype == dtype and t.numpy().tolist() == items
    assert tf.constant([bytearray(b"a")]).numpy().tolist() == [[97]]
    assert tf.constant(bytearray(b"ab"), dtype=tf.uint8).dtype == tf.uint8
    assert (tf.constant(1) + bytearray(b"ab")).numpy().tolist() == [98, 99]
    with pytest.raises(ValueError, match="Cannot infer dtype of a memoryview object"):
        tf.constant(memoryview(np.zeros((2, 3))))
    with pytest.raises(TypeError, match="to EagerTensor of dtype string"):
        tf.constant(memoryview(b"abc"), dtype=tf.string)


def test_constant_shapes_use_tf_errors():
    with pytest.raises(tf.errors.ResourceExhaustedError):
        tf.constant(1, shape=[2 ** 31, 2 ** 31])
    with pytest.raises(ValueError, match="Dimension -1 must be >= 0"):
        tf.constant([1, 2], shape=[-1])
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant(1, shape=[2 ** 63])
    with pytest.raises(ValueError, match="None"):
        tf.constant(1, shape=[None])
    with pytest.raises(TypeError, match="Dimension value must be integer"):
        tf.constant([1, 2], shape=[2.0])
    with pytest.raises(TypeError, match="Eager execution of tf.constant with unsupported shape"):
        tf.constant([1, 2], shape=[2 ** 31, 2 ** 31])
    assert tf.constant("a", shape=[2]).numpy().tolist() == [b"a", b"a"]
    assert tf.constant([[1, 2]], shape=tf.constant([2, 1])).shape == (2, 1)


def test_tensor_array_write_of_another_dtype_is_the_writes_error():
    ta = tf.TensorArray(tf.int32, size=1)
    for value in (1.5, tf.constant(1.5), [1.5]):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="TensorArray dtype is int32 but Op is trying to write dtype float32"):
            ta.write(0, value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid data types; op elements float but list elements"):
        tf.function(lambda: tf.TensorArray(tf.int32, size=1).write(0, 1.5).stack())()
    assert ta.write(0, 1).stack().numpy().tolist() == [1]


def test_numpy_attr_values_are_read_by_value():
    from eagerflow import _core
    x = tf.ones([1, 2, 1])
    squeeze = _core.get_op("Squeeze")
    assert _core.execute1(squeeze, [x], {"squeeze_dims": np.array([0, 2], ">i8")}).shape == (2,)
    assert _core.execute1(squeeze, [x], {"squeeze_dims": [np.int64(0)]}).shape == (2, 1)


def test_sequence_dtype_comes_from_its_first_leaf():
    # TF infers a list's dtype from its first element; NumPy scalars count as the numbers they hold,
    # except that a first NumPy float keeps its dtype.
    for value, dtype in [([np.float32(1.0), 2.0], tf.float32), ([2.0, np.float64(1.0)], tf.float32),
                         ([np.float64(1.0), 2], tf.float64), ([np.int64(1), 2], tf.int32),
                         ([np.int64(2 ** 40), 2], tf.int64), ([np.int64(1), 2.5], tf.float32),
                         ([1, np.float64(2.5)], tf.float32), ([[np.float16(1)], [np.float64(2)]], tf.float16),
                         ([np.array([1.0], np.float32), [2.0]], tf.float32), ([np.uint8(200), 1], tf.int32),
                         ([1j, 1.0], tf.complex128), ([np.complex64(1j), 1.0], tf.complex128)]:
        assert tf.constant(value).dtype == dtype, value
    for value in ([1.0, 1j], [1, 1j], [np.bool_(True), 1], [np.float32(1), 1j]):
        with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types to Tensor."):
            tf.constant(value)


def test_requested_float64_keeps_python_floats_precision():
    # Python floats are doubles: a float64 (or complex128-free complex64) request casts them once.
    assert tf.constant([0.3, 0.6], tf.float64).numpy().tolist() == [0.3, 0.6]
    assert tf.constant([[0.1]], dtype=tf.float64).numpy().tolist() == [[0.1]]
    assert tf.Variable([0.3], dtype=tf.float64).numpy().tolist() == [0.3]
    assert tf.convert_to_tensor([0.1, 2], tf.float64).numpy().tolist() == [0.1, 2.0]
    assert tf.constant([2**40 + 1, 1], tf.int64).numpy().tolist() == [2**40 + 1, 1]


def test_tensor_shape_converts_to_its_dims():
    import eagerflow as tf
    import pytest
    assert tf.convert_to_tensor(tf.TensorShape([32, 10])).numpy().tolist() == [32, 10]
    assert tf.convert_to_tensor(tf.TensorShape([32, 10])).dtype == tf.int32
    assert tf.convert_to_tensor(tf.TensorShape([3]), tf.int64).dtype == tf.int64
    assert tf.convert_to_tensor(tf.TensorShape([])).shape == (0,)
    tf.debugging.assert_equal(tf.zeros([32, 10]).shape, (32, 10))
    with pytest.raises(ValueError, match=r"Cannot convert a partially known TensorShape \(None, 10\) to a Tensor"):
        tf.convert_to_tensor(tf.TensorShape([None, 10]))
    with pytest.raises(TypeError, match="Allowed dtypes are tf.int32 and tf.int64"):
        tf.convert_to_tensor(tf.TensorShape([2]), tf.float32)


def test_int_lists_convert_as_in_tf():
    # Flat lists and tuples of Python ints convert in C++; the results are TF's (values from TF 2.21).
    cases = [(([1, 2],), tf.int32, [1, 2]), (((1, 2 ** 31),), tf.int64, [1, 2 ** 31]),
             (([-2 ** 31, 2 ** 31 - 1],), tf.int32, [-2 ** 31, 2 ** 31 - 1]),
             (([1, -2 ** 31 - 1], tf.int64), tf.int64, [1, -2 ** 31 - 1]),
             (([1, 2 ** 63], tf.uint64), tf.uint64, [1, 2 ** 63]), (([3, 4], tf.float32), tf.float32, [3.0, 4.0]),
             (([5], tf.int64), tf.int64, [5])]
    for args, dtype, want in cases:
        t = tf.constant(*args)
        assert t.dtype == dtype and t.numpy().tolist() == want
    with pytest.raises(ValueError, match="out-of-range integer"):
        tf.constant([2 ** 63])
    with pytest.raises(TypeError):
        tf.reduce_sum(tf.ones([2, 3]), [0.5])
    assert tf.reduce_sum(tf.ones([2, 3]), (0, 1)).numpy() == 6.0
    assert tf.reshape(tf.range(6), (3, -1)).shape == (3, 2)
    g = tf.function(lambda x: tf.reshape(x, [2, -1])).get_concrete_function(tf.TensorSpec([6]))
    assert g.structured_outputs.shape == (2, 3)  # the list is a constant inference reads


# ---- index-like op inputs (shapes, axes, multiples) ----

INDEX_LISTS = [  # value, dtype of the converted input (as TF's op fast path picks it)
    ([1, 2], tf.int32), ((2 ** 31 - 1, -2 ** 31), tf.int32), ([2 ** 31], tf.int64), ((-2 ** 31 - 1, 1), tf.int64),
    ([[1, 2 ** 40]], tf.int64), ([[1, 2]], tf.int32), ([np.int64(3), 1], tf.int32), (list(range(70)), tf.int32),
    (list(range(70)) + [2 ** 40], tf.int64),
]


@pytest.mark.parametrize("value, dtype", INDEX_LISTS, ids=lambda v: repr(v)[:20])
def test_index_lists_are_int32_unless_a_value_needs_int64(value, dtype):
    from eagerflow.ops._execute import index_tensor
    seen = []

    @tf.function
    def traced():
        seen.append(index_tensor(value).dtype)
        return index_tensor(value)
    for t in (index_tensor(value), traced()):
        assert t.dtype == dtype
        np.testing.assert_array_equal(t.numpy(), np.array(value, np.int64))
    assert seen == [dtype]
