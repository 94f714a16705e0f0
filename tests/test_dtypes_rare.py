"""uint16, uint32, uint64, bfloat16 and complex128: the DType objects, conversion to and from NumPy,
printing, Cast among every dtype, and every kernel the registry lists for them checked against
NumPy. Printed forms, cast results and errors are TensorFlow 2.21's (hard-coded from it).

bfloat16 is computed in float32 and rounded to nearest even, as TF does; without ml_dtypes its
tensors convert to float32 arrays, so the tests read them through a Cast to float32."""
import math
import operator

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core

try:
    import ml_dtypes
except ImportError:  # optional
    ml_dtypes = None

RARE = [tf.uint16, tf.uint32, tf.uint64, tf.bfloat16, tf.complex128]
_RARE_ENUMS = {d.as_datatype_enum: d for d in RARE}


# ---- DType objects (TF 2.21's values) ----

_PROPS = {
    # name: enum, size, min, max, is_unsigned, is_floating, is_integer, is_complex, real_dtype
    "uint16": (17, 2, 0, 65535, True, False, True, False, "uint16"),
    "uint32": (22, 4, 0, 4294967295, True, False, True, False, "uint32"),
    "uint64": (23, 8, 0, 18446744073709551615, True, False, True, False, "uint64"),
    "bfloat16": (14, 2, -3.3895313892515355e38, 3.3895313892515355e38, False, True, False, False, "bfloat16"),
    "complex128": (18, 16, None, None, False, False, False, True, "float64"),
}


@pytest.mark.parametrize("name", sorted(_PROPS))
def test_dtype_properties(name):
    enum, size, lo, hi, unsigned, floating, integer, complex_, real = _PROPS[name]
    d = getattr(tf, name)
    assert d is tf.dtypes.as_dtype(name) is tf.as_dtype(enum) is getattr(tf.dtypes, name)
    assert (d.name, d.as_datatype_enum, d.size) == (name, enum, size)
    assert (d.is_unsigned, d.is_floating, d.is_integer, d.is_complex) == (unsigned, floating, integer, complex_)
    assert d.real_dtype is getattr(tf, real)
    assert repr(d) == "tf." + name and str(d) == "<dtype: '%s'>" % name
    assert d.is_numpy_compatible and d == name and d != tf.float32
    if lo is None:
        with pytest.raises(TypeError, match=r"^Cannot find minimum value of <dtype: 'complex128'> with type "
                                            r"<dtype: 'complex128'>\.$"):
            d.min
        with pytest.raises(TypeError, match="Cannot find maximum value of"):
            d.max
    else:
        assert (d.min, d.max) == (lo, hi)


def test_as_dtype_from_numpy_types():
    for np_type, d in [(np.uint16, tf.uint16), (np.uint32, tf.uint32), (np.uint64, tf.uint64),
                       (np.complex128, tf.complex128), (np.dtype("uint32"), tf.uint32),
                       (np.dtype("complex128"), tf.complex128)]:
        assert tf.as_dtype(np_type) is d
        assert d.as_numpy_dtype is (np_type if isinstance(np_type, type) else np_type.type)
    if ml_dtypes is not None:
        assert tf.as_dtype(ml_dtypes.bfloat16) is tf.bfloat16
        assert tf.as_dtype(np.dtype(ml_dtypes.bfloat16)) is tf.bfloat16
        assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    else:
        assert tf.bfloat16.as_numpy_dtype is np.float32
        assert tf.as_dtype(np.float32) is tf.float32


# ---- conversion ----

def _values(t):
    """A tensor's values as NumPy (bfloat16 read as float32, whether or not ml_dtypes is there)."""
    if t.dtype == tf.bfloat16:
        t = tf.cast(t, tf.float32)
    return t.numpy()


def test_python_complex_is_complex128():
    assert tf.constant(1 + 2j).dtype == tf.complex128
    assert tf.constant([1j, 2]).dtype == tf.complex128
    assert tf.constant(np.array([1j])).dtype == tf.complex128
    assert tf.constant(1j, tf.complex64).dtype == tf.complex64
    assert tf.constant([np.complex64(1j)]).dtype == tf.complex128  # lists: complex128, as TF
    assert tf.constant(np.complex64(1j)).dtype == tf.complex64
    assert tf.convert_to_tensor(np.uint32(5)).dtype == tf.uint32
    assert tf.constant([np.uint32(7)]).dtype == tf.int32  # NumPy scalars in lists count as Python ints
    assert tf.constant(3, tf.complex128).numpy() == 3 + 0j


@pytest.mark.parametrize("d", RARE, ids=lambda d: d.name)
def test_numpy_round_trip(d):
    if d.is_complex:
        a = np.array([[1 + 2.5j, -3e300 + 1e-300j]], np.complex128)
    elif d.is_integer:
        info = np.iinfo(d.as_numpy_dtype)
        a = np.array([[0, 1, info.max - 1, info.max]], d.as_numpy_dtype)
    else:
        a = np.array([[1.5, -0.0, np.inf, 3.140625]], np.float32)
    t = tf.constant(a if d != tf.bfloat16 or ml_dtypes is None else a.astype(ml_dtypes.bfloat16), d)
    assert t.dtype == d and t.shape == (1, 4 if not d.is_complex else 2)
    np.testing.assert_array_equal(_values(t), a)
    if d == tf.bfloat16:
        want = ml_dtypes.bfloat16 if ml_dtypes is not None else np.float32
        assert t.numpy().dtype == want
        assert tf.constant(t.numpy()).dtype == tf.bfloat16 or ml_dtypes is None


# ---- Python ints into integer dtypes (TF 2.21's converter) ----

_INTS = sorted({d for d in vars(tf.dtypes).values() if isinstance(d, tf.DType) and d.is_integer}, key=lambda d: d.name)
_PY_INTS = [-1, 128, 300, -129, 70000, -70000, 2 ** 31, -2 ** 31 - 1, 2 ** 32 + 5, 2 ** 63 - 1, -2 ** 63, 2 ** 63,
            -2 ** 63 - 1, 2 ** 64 - 1, 2 ** 64, -2 ** 64]
_OUT_OF_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
_UINT64_OVERFLOW = "<class 'tensorflow.python.framework.ops.EagerTensor'> returned a result with an exception set"


def _wrapped(v, d):
    bits = 8 * d.size
    v %= 2 ** bits
    return v - 2 ** bits if not d.is_unsigned and v >= 2 ** (bits - 1) else v


def _tf_int_conversion(v, d, wide=False):
    """What TF 2.21's eager converter makes of Python int v for dtype d: ints of int64's range wrap
    modulo 2**bits into every integer dtype; uint64 takes [0, 2**64) and raises the SystemError of
    its unchecked OverflowError otherwise; anything else is out of range. (`wide`: graph constants,
    which wrap all of [-2**63, 2**64).)"""
    if wide:
        return _wrapped(v, d) if -2 ** 63 <= v < 2 ** 64 else OverflowError
    if d == tf.uint64:
        return v if 0 <= v < 2 ** 64 else SystemError
    return _wrapped(v, d) if -2 ** 63 <= v < 2 ** 63 else ValueError


_ENTRY_POINTS = {
    "constant": lambda v, d: tf.constant(v, d),
    "constant of a list": lambda v, d: tf.constant([[v]], d)[0][0],
    "convert_to_tensor": lambda v, d: tf.convert_to_tensor(v, d),
    "Variable": lambda v, d: tf.Variable(v, dtype=d).read_value(),
    "Variable.assign": lambda v, d: tf.Variable(tf.zeros([1], d)).assign([v]).read_value()[0],
    "fill": lambda v, d: tf.fill([1], tf.constant(v, d))[0],
    "x + v": lambda v, d: (tf.zeros([], d) + v),
    "v + x": lambda v, d: (v + tf.zeros([], d)),
    "v * x": lambda v, d: (v * tf.ones([], d)),
    "tf.add": lambda v, d: tf.add(tf.zeros([], d), v),
}


@pytest.mark.parametrize("entry", sorted(_ENTRY_POINTS))
@pytest.mark.parametrize("d", _INTS, ids=lambda d: d.name)
def test_python_ints_convert_as_tensorflow(entry, d):
    for v in _PY_INTS:
        want = _tf_int_conversion(v, d)
        if isinstance(want, int):
            got = _ENTRY_POINTS[entry](v, d)
            assert got.dtype == d and int(got.numpy()) == want, (v, got)
            continue
        with pytest.raises(want) as e:
            _ENTRY_POINTS[entry](v, d)
        if want is ValueError:
            assert str(e.value) == _OUT_OF_RANGE
        elif want is SystemError:
            assert str(e.value) == _UINT64_OVERFLOW and isinstance(e.value.__cause__, OverflowError)
            assert str(e.value.__cause__) == ("can't convert negative int to unsigned" if v < 0 else
                                              "int too big to convert")


@pytest.mark.parametrize("d", _INTS, ids=lambda d: d.name)
def test_python_ints_in_ops_and_graphs_as_tensorflow(d):
    x = tf.ones([], d)
    for v in _PY_INTS:
        # tf.cast converts v alone (int32, else int64) and casts that.
        if -2 ** 63 <= v < 2 ** 63:
            assert int(tf.cast(v, d).numpy()) == _wrapped(v, d)
        else:
            with pytest.raises(ValueError, match="out-of-range integer"):
                tf.cast(v, d)
        # An operator's right operand: TF's C++ fast path raises uint64's OverflowError itself.
        want = _tf_int_conversion(v, d)
        for op in (lambda: x * v, lambda: x - v, lambda: x == v, lambda: tf.maximum(x, v)):
            if want is SystemError:
                with pytest.raises(OverflowError):
                    op()
            elif want is ValueError:
                with pytest.raises(ValueError, match="out-of-range integer"):
                    op()
            else:
                op()
        # Graph constants wrap [-2**63, 2**64).
        want = _tf_int_conversion(v, d, wide=True)
        with tf.Graph().as_default():
            if want is OverflowError:
                with pytest.raises(OverflowError, match="Python int too large to convert to C long"):
                    tf.constant(v, d)
            else:
                assert tf.constant(v, d).op.get_attr("value").numpy() == want
    assert (x * 300).numpy() == _wrapped(300, d)
    if d != tf.uint64:
        np.testing.assert_array_equal((tf.constant([1, 2], d) * -1).numpy(), [_wrapped(-1, d), _wrapped(-2, d)])


def test_index_arguments_convert_as_tensorflow():
    # A Python int converts as the op's int32 attr (wrapping, as TF's fast path does); a list infers
    # int64 where a value needs it.
    x, big = tf.ones([2, 3]), 2 ** 32
    assert tf.reduce_sum(x, axis=big).shape == (3,)
    assert tf.expand_dims(x, big).shape == (1, 2, 3)
    assert tf.concat([x, x], big).shape == (4, 3)
    assert tf.one_hot([0], big + 2).shape == (1, 2)
    assert tf.zeros([big, 0]).shape == (big, 0) and tf.random.normal([big + 1, 0]).shape == (big + 1, 0)
    assert tf.tile(x, [big, 0]).shape == (2 * big, 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
        tf.reduce_sum(x, axis=[big])
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.reshape(x, [big + 6])


@pytest.mark.parametrize("value, d", [(1.5, tf.uint32), ([1.5], tf.uint16), (True, tf.uint32), (True, tf.bfloat16),
                                      (1 + 1j, tf.bfloat16)])
def test_python_values_that_do_not_convert(value, d):
    with pytest.raises(TypeError, match=r"^Cannot convert %s to EagerTensor of dtype %s$" % (
            repr(value).replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]").replace(
                "+", r"\+"), d.name)):
        tf.constant(value, d)


def test_bfloat16_constants_round_to_nearest_even():
    assert tf.constant(0.1, tf.bfloat16).numpy().item() == 0.10009765625
    np.testing.assert_array_equal(_values(tf.constant([1.00390625, 1e40, 1.01171875], tf.bfloat16)),
                                  [1, np.inf, 1.015625])


# ---- printing (TF 2.21's text) ----

_PRINTED = [
    (lambda: tf.constant([1, 2, 65535], tf.uint16),
     "<tf.Tensor: shape=(3,), dtype=uint16, numpy=array([    1,     2, 65535], dtype=uint16)>",
     "tf.Tensor([    1     2 65535], shape=(3,), dtype=uint16)", "[1 2 65535]"),
    (lambda: tf.constant([1, 2, 65535], tf.uint32),
     "<tf.Tensor: shape=(3,), dtype=uint32, numpy=array([    1,     2, 65535], dtype=uint32)>",
     "tf.Tensor([    1     2 65535], shape=(3,), dtype=uint32)", "[1 2 65535]"),
    (lambda: tf.constant([1, 2, 65535], tf.uint64),
     "<tf.Tensor: shape=(3,), dtype=uint64, numpy=array([    1,     2, 65535], dtype=uint64)>",
     "tf.Tensor([    1     2 65535], shape=(3,), dtype=uint64)", "[1 2 65535]"),
    (lambda: tf.constant([1, 2.5, 3.1234567], tf.bfloat16),
     "<tf.Tensor: shape=(3,), dtype=bfloat16, numpy=array([1, 2.5, 3.125], dtype=bfloat16)>",
     "tf.Tensor([1 2.5 3.125], shape=(3,), dtype=bfloat16)", "[1 2.5 3.125]"),
    (lambda: tf.constant([1 + 2.5j, 3 - 1j], tf.complex128),
     "<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+2.5j, 3.-1.j ])>",
     "tf.Tensor([1.+2.5j 3.-1.j ], shape=(2,), dtype=complex128)", "[? ?]"),
    (lambda: tf.constant(7, tf.uint16), "<tf.Tensor: shape=(), dtype=uint16, numpy=7>",
     "tf.Tensor(7, shape=(), dtype=uint16)", "7"),
    (lambda: tf.constant(7.5, tf.bfloat16), "<tf.Tensor: shape=(), dtype=bfloat16, numpy=7.5>",
     "tf.Tensor(7.5, shape=(), dtype=bfloat16)", "7.5"),
    (lambda: tf.constant(7, tf.bfloat16), "<tf.Tensor: shape=(), dtype=bfloat16, numpy=7.0>",
     "tf.Tensor(7, shape=(), dtype=bfloat16)", "7"),
    (lambda: tf.constant(1e10, tf.bfloat16), "<tf.Tensor: shape=(), dtype=bfloat16, numpy=9999220736.0>",
     "tf.Tensor(9.99922e+09, shape=(), dtype=bfloat16)", None),
    (lambda: tf.constant(7, tf.complex128), "<tf.Tensor: shape=(), dtype=complex128, numpy=(7+0j)>",
     "tf.Tensor((7+0j), shape=(), dtype=complex128)", "?"),
    (lambda: tf.constant([[1.5, 2], [3, 4]], tf.bfloat16),
     "<tf.Tensor: shape=(2, 2), dtype=bfloat16, numpy=\narray([[1.5, 2],\n       [3, 4]], dtype=bfloat16)>",
     "tf.Tensor(\n[[1.5 2]\n [3 4]], shape=(2, 2), dtype=bfloat16)", None),
    (lambda: tf.constant([0.1, 1e10, np.nan, -np.inf, 1e-5, 123456], tf.bfloat16),
     "<tf.Tensor: shape=(6,), dtype=bfloat16, numpy=\narray([0.100098, 9.99922e+09, nan, -inf, 1.00136e-05, 123392],\n"
     "      dtype=bfloat16)>", None, None),
]


@pytest.mark.parametrize("i", range(len(_PRINTED)))
def test_printed_as_tensorflow(i, capsys):
    make, want_repr, want_str, want_print = _PRINTED[i]
    t = make()
    assert repr(t) == want_repr
    if want_str is not None:
        assert str(t) == want_str
    if want_print is not None:
        capsys.readouterr()
        tf.print(t)
        assert capsys.readouterr().err == want_print + "\n"


# ---- Cast (TF 2.21's results) ----

_U64 = [0, 2 ** 64 - 1, 2 ** 63, 12345678901234567]
_C128 = [1.5 + 2j, -3.7 - 1j]
_CASTS = [
    # source dtype, values, target dtype, TF's result
    (tf.float32, [-1.5, 300.7, 70000.9, 5e9, np.nan, 65535.6, 1.9999], tf.uint16, [65535, 300, 4464, 0, 0, 65535, 1]),
    (tf.float32, [-1.5, 300.7, 5e9, -5e9, 2e19, np.nan, np.inf, 4294967295.0], tf.uint64,
     [2 ** 64 - 1, 300, 5000000000, 18446744068709551616, 2 ** 63, 2 ** 63, 2 ** 63, 4294967296]),
    (tf.float64, [-1.5, 300.7, 4294967295.0, -np.inf, 65535.6], tf.uint32, [4294967295, 300, 4294967295, 0, 65535]),
    (tf.int64, [-1, 70000, 2 ** 40 + 3, -2 ** 63, 2 ** 63 - 1], tf.uint16, [65535, 4464, 3, 0, 65535]),
    (tf.int64, [-1, 70000, 2 ** 40 + 3, -2 ** 63, 2 ** 63 - 1], tf.uint64,
     [2 ** 64 - 1, 70000, 1099511627779, 2 ** 63, 2 ** 63 - 1]),
    (tf.int64, [-1, 70000, 2 ** 40 + 3, -2 ** 63, 2 ** 63 - 1], tf.bfloat16,
     [-1.0, 70144.0, 1099511627776.0, -9.223372036854776e18, 9.223372036854776e18]),
    (tf.int32, [-1, 70000], tf.complex128, [-1, 70000]),
    (tf.uint64, _U64, tf.int64, [0, -1, -2 ** 63, 12345678901234567]),
    (tf.uint64, _U64, tf.int32, [0, -1, 0, 1567312775]),
    (tf.uint64, _U64, tf.uint32, [0, 4294967295, 0, 1567312775]),
    (tf.uint64, _U64, tf.float32, [0.0, 1.8446744073709552e19, 9.223372036854776e18, 1.2345678407663616e16]),
    (tf.uint64, _U64, tf.float64, [0.0, 1.8446744073709552e19, 9.223372036854776e18, 1.2345678901234568e16]),
    (tf.uint64, _U64, tf.bfloat16, [0.0, 1.8446744073709552e19, 9.223372036854776e18, 1.23145302310912e16]),
    (tf.uint64, _U64, tf.complex128, [0, 1.8446744073709552e19, 9.223372036854776e18, 1.2345678901234568e16]),
    (tf.uint64, _U64, tf.bool, [False, True, True, True]),
    (tf.uint64, _U64, tf.float16, [0.0, np.inf, np.inf, np.inf]),
    (tf.uint64, _U64, tf.uint8, [0, 255, 0, 135]),
    (tf.uint64, _U64, tf.int8, [0, -1, 0, -121]),
    (tf.float32, [1.00390625, 1.01171875, 3.1415926, 1e-40, 3.4e38, -0.0], tf.bfloat16,
     [1.0, 1.015625, 3.140625, 9.183549615799121e-41, np.inf, -0.0]),
    (tf.float64, [1.00390625 + 1e-12, 1.00390625, 1.0039062499], tf.bfloat16, [1.0, 1.0, 1.0]),  # through float32
    (tf.complex128, _C128, tf.float32, [1.5, -3.700000047683716]),
    (tf.complex128, _C128, tf.int32, [1, -3]),
    (tf.complex128, _C128, tf.uint32, [1, 4294967293]),
    (tf.complex128, _C128, tf.complex64, [1.5 + 2j, -3.700000047683716 - 1j]),
    (tf.complex128, _C128, tf.bfloat16, [1.5, -3.703125]),
    (tf.complex128, _C128, tf.bool, [True, True]),
    (tf.complex128, _C128, tf.float64, [1.5, -3.7]),
    (tf.complex64, [1.5 + 2j], tf.complex128, [1.5 + 2j]),
    (tf.bool, [True, False], tf.bfloat16, [1, 0]),
    (tf.bool, [True, False], tf.uint32, [1, 0]),
    (tf.bfloat16, [1.5, 0], tf.bool, [True, False]),
    (tf.bfloat16, [-1.5, 300, 2.0], tf.int32, [-1, 300, 2]),
]


@pytest.mark.parametrize("i", range(len(_CASTS)))
def test_cast_as_tensorflow(i):
    src, values, dst, want = _CASTS[i]
    x = tf.cast(tf.constant(np.array(values, np.float64 if src == tf.bfloat16 else src.as_numpy_dtype)), src)
    got = tf.cast(x, dst)
    assert got.dtype == dst
    want = np.array(want, np.float32 if dst == tf.bfloat16 else dst.as_numpy_dtype)
    got = _values(got)
    np.testing.assert_array_equal(got, want)
    if dst.is_floating:  # -0.0 keeps its sign
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_cast_between_every_pair_of_dtypes():
    # Every pair has a kernel; the values come back through float64 (or complex128) unchanged.
    dtypes = [d for d in (tf.bool, tf.int8, tf.uint8, tf.int16, tf.uint16, tf.int32, tf.uint32, tf.int64, tf.uint64,
                          tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.complex64, tf.complex128)]
    base = tf.constant([0.0, 1.0, 2.0, 96.0])
    for a in dtypes:
        for b in dtypes:
            got = tf.cast(tf.cast(tf.cast(base, a), b), tf.complex128 if b.is_complex else tf.float64)
            want = [0, 1, 1, 1] if tf.bool in (a, b) else [0, 1, 2, 96]
            np.testing.assert_array_equal(got.numpy(), want, err_msg=f"{a.name} -> {b.name}")


# ---- TF's errors for dtypes an op does not take ----

_U32 = lambda: tf.constant([1, 2], tf.uint32)  # noqa: E731
_C = lambda: tf.constant([1 + 1j], tf.complex128)  # noqa: E731
_B = lambda: tf.constant([1, 2], tf.bfloat16)  # noqa: E731
_ERRORS = [
    ("Abs", lambda: [_U32()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of uint32 is not in the list of allowed values: bfloat16, half, float, double, int8, int16, "
     "int32, int64\n\t; NodeDef: {{node Abs}}"),
    ("Neg", lambda: [tf.constant([1], tf.uint64)], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of uint64 is not in the list of allowed values: bfloat16, half, float, double, int8, int16, "
     "int32, int64, complex64, complex128\n\t; NodeDef: {{node Neg}}"),
    ("Maximum", lambda: [_C(), _C()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of complex128 is not in the list of allowed values: bfloat16, half, float, double, int8, "
     "uint8, int16, uint16, int32, uint32, int64, uint64\n\t; NodeDef: {{node Maximum}}"),
    ("Less", lambda: [_C(), _C()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of complex128 is not in the list of allowed values: float, double, int32, uint8, int16, "
     "int8, int64, bfloat16, uint16, half, uint32, uint64\n\t; NodeDef: {{node Less}}"),
    ("BitwiseAnd", lambda: [_B(), _B()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of bfloat16 is not in the list of allowed values: int8, int16, int32, int64, uint8, uint16, "
     "uint32, uint64\n\t; NodeDef: {{node BitwiseAnd}}"),
    ("Sqrt", lambda: [_U32()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of uint32 is not in the list of allowed values: bfloat16, half, float, double, complex64, "
     "complex128\n\t; NodeDef: {{node Sqrt}}"),
    ("Pow", lambda: [_U32(), _U32()], tf.errors.InvalidArgumentError,
     "Value for attr 'T' of uint32 is not in the list of allowed values: bfloat16, float, half, double, int8, int16, "
     "int32, int64, complex64, complex128\n\t; NodeDef: {{node Pow}}"),
    ("FloorDiv", lambda: [_C(), _C()], tf.errors.NotFoundError,
     "Could not find device for node: {{node FloorDiv}} = FloorDiv[T=DT_COMPLEX128]"),
    ("RealDiv", lambda: [tf.constant([1], tf.uint16)] * 2, tf.errors.NotFoundError,
     "Could not find device for node: {{node RealDiv}} = RealDiv[T=DT_UINT16]"),
    ("FloorDiv", lambda: [_U32(), tf.constant([0, 1], tf.uint32)], tf.errors.InvalidArgumentError,
     "Integer division by zero"),
    ("AddV2", lambda: [tf.constant([1], tf.uint8), tf.constant([1], tf.uint32)], tf.errors.InvalidArgumentError,
     "cannot compute AddV2 as input #1(zero-based) was expected to be a uint8 tensor but is a uint32 tensor"),
]


@pytest.mark.parametrize("i", range(len(_ERRORS)))
def test_errors_as_tensorflow(i):
    name, inputs, cls, text = _ERRORS[i]
    with pytest.raises(cls) as e:
        _core.execute(_core.get_op(name), inputs(), None)
    assert text in str(e.value)


def test_true_division_of_unsigned_types():
    # TF: uint16 -> float32, uint32 and uint64 -> float64.
    for d, want in [(tf.uint16, tf.float32), (tf.uint32, tf.float64), (tf.uint64, tf.float64)]:
        x = tf.constant([7, 2], d)
        y = x / tf.constant([2, 4], d)
        assert y.dtype == want
        np.testing.assert_array_equal(y.numpy(), [3.5, 0.5])


# ---- every kernel of these dtypes against NumPy ----

def _floor_mod(a, b):
    return np.mod(a, b) if a.dtype.kind in "ui" else np.where(b == 0, np.nan, np.mod(a, b))


def _shift_count(b, bits):
    return np.minimum(b, bits - 1).astype(b.dtype)


def _sign(z):
    if np.iscomplexobj(z):
        return np.where(z == 0, 0, z / np.where(z == 0, 1, np.abs(z)))
    return np.sign(z)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


_BINARY = {
    "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "RealDiv": np.divide,
    "FloorDiv": lambda a, b: np.floor_divide(a, b) if a.dtype.kind == "u" else np.floor(a / b),
    "FloorMod": _floor_mod,
    "TruncateDiv": lambda a, b: a // b if a.dtype.kind == "u" else np.trunc(a / b),
    "Maximum": np.maximum, "Minimum": np.minimum,
    "SquaredDifference": lambda a, b: (a - b) * np.conj(a - b),
    "DivNoNan": lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b)),
    "MulNoNan": lambda a, b: np.where(b == 0, 0, a * b),
    "Atan2": np.arctan2,
    "Xlogy": lambda a, b: np.where(a == 0, 0, a * np.log(b)),
    "Xdivy": lambda a, b: np.where(a == 0, 0, a / b),
    "Pow": np.power,
    "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor,
    "LeftShift": lambda a, b: np.left_shift(a, _shift_count(b, 8 * a.itemsize)),
    "RightShift": lambda a, b: np.right_shift(a, _shift_count(b, 8 * a.itemsize)),
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal,
    "Equal": np.equal, "NotEqual": np.not_equal,
}
_UNARY = {
    "Neg": np.negative, "Abs": np.abs, "ComplexAbs": np.abs, "Sign": _sign, "Exp": np.exp, "Expm1": np.expm1,
    "Log": np.log, "Log1p": np.log1p, "Sqrt": np.sqrt, "Rsqrt": lambda x: 1 / np.sqrt(x), "Square": np.square,
    "Reciprocal": lambda x: 1 / x, "Tanh": np.tanh, "Sigmoid": _sigmoid, "Sin": np.sin, "Cos": np.cos,
    "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos, "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh,
    "Asinh": np.arcsinh, "Acosh": np.arccosh, "Atanh": np.arctanh, "Floor": np.floor, "Ceil": np.ceil,
    "Round": np.round, "Relu": lambda x: np.maximum(x, 0), "Relu6": lambda x: np.clip(x, 0, 6),
    "Elu": lambda x: np.where(x < 0, np.expm1(x), x),
    "Selu": lambda x: np.where(x < 0, 1.7580993408473766 * np.expm1(x), 1.0507009873554805 * x),
    "Softplus": lambda x: np.logaddexp(x, 0), "Softsign": lambda x: x / (1 + np.abs(x)),
    "Invert": np.invert, "Conj": np.conj,
    "Erf": np.vectorize(math.erf, otypes=[np.float64]), "Erfc": np.vectorize(math.erfc, otypes=[np.float64]),
    "IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite,
}
_CHECKED_BELOW = {"AddN", "ClipByValue"}  # test_data_movement, test_elementwise_as_tensorflow


def _rare_kernels():
    """[(op name, dtype)] for every elementwise math op whose kernels take one of these dtypes."""
    out = []
    for op in _core.list_ops():
        if not op.elementwise or op.name not in _BINARY and op.name not in _UNARY:
            continue
        for enum in op.kernel_dtypes.get("T", []):
            if enum in _RARE_ENUMS:
                out.append((op.name, _RARE_ENUMS[enum]))
    return out


def test_every_elementwise_kernel_of_these_dtypes_has_a_reference():
    names = {op.name for op in _core.list_ops() if op.elementwise and any(
        e in _RARE_ENUMS for e in op.kernel_dtypes.get("T", []))}
    assert names - set(_BINARY) - set(_UNARY) - _CHECKED_BELOW == set()
    # The ops TF 2.21 runs on these dtypes on CPU (a sample; the tests below take them all).
    kernels = set(_rare_kernels())
    for name, d in [("AddV2", tf.uint32), ("Sub", tf.uint64), ("FloorMod", tf.uint16), ("BitwiseXor", tf.uint64),
                    ("Less", tf.bfloat16), ("Exp", tf.complex128), ("RealDiv", tf.complex128),
                    ("Maximum", tf.bfloat16), ("Square", tf.uint32), ("Invert", tf.uint16), ("Pow", tf.bfloat16)]:
        assert (name, d) in kernels, (name, d.name)
    for name, d in [("Abs", tf.uint32), ("RealDiv", tf.uint16), ("Maximum", tf.complex128), ("Pow", tf.uint32),
                    ("Lgamma", tf.bfloat16), ("Round", tf.complex128), ("TruncateMod", tf.bfloat16)]:
        assert (name, d) not in kernels, (name, d.name)


def _bf16_round(x):
    """float values rounded to bfloat16 (nearest even), as float32."""
    with np.errstate(over="ignore"):
        x = np.asarray(x, np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    r = np.where(np.isnan(x), np.uint32(0x7FC00000), r)
    return r.view(np.float32)


def _inputs(name, d, n, seed):
    rng = np.random.default_rng(seed)
    if d.is_integer:
        info = np.iinfo(d.as_numpy_dtype)
        if name in ("LeftShift", "RightShift"):
            return [rng.integers(0, info.max, n, dtype=d.as_numpy_dtype, endpoint=True),
                    rng.integers(0, 8 * info.bits // 8 + 4, n).astype(d.as_numpy_dtype)]
        a = rng.integers(0, info.max, n, dtype=d.as_numpy_dtype, endpoint=True)
        a[:4] = [0, 1, info.max, 7]
        b = rng.integers(1, info.max, n, dtype=d.as_numpy_dtype, endpoint=True)
        b[:4] = [3, 1, 2, info.max]
        if name in ("Square", "Mul"):  # both the wrapping and the small products
            a[4:8] = [2, 255, 65535 if info.max > 65535 else 255, info.max // 2]
        return [a, b]
    if d.is_complex:
        a = rng.normal(size=n) * 2 + 1j * rng.normal(size=n) * 2
        b = rng.normal(size=n) * 2 + 1j * rng.normal(size=n) * 2
        a[:2] = [0, 1.5]
        return [a, b]
    specials = [0.0, -0.0, np.nan, np.inf, -np.inf, 0.5, -2.5, 1e-3, 100.0, -100.0, 1.5, 3.0][:n]
    a = rng.normal(size=n) * 3
    a[:len(specials)] = specials
    b = rng.normal(size=n) * 3
    b[len(specials):len(specials) + 3] = [0.0, np.inf, -1.0][:max(0, n - len(specials))]
    return [_bf16_round(a).astype(np.float64), _bf16_round(b).astype(np.float64)]


def _tensor(v, d):
    if d == tf.bfloat16:
        return tf.cast(tf.constant(v.astype(np.float32)), tf.bfloat16)
    return tf.constant(v.astype(d.as_numpy_dtype), d)


@pytest.mark.parametrize("name, d", _rare_kernels(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_kernel_matches_numpy(name, d):
    op = _core.get_op(name)
    arity = len(op.inputs)
    values = _inputs(name, d, 40, seed=len(name))[:arity]
    out = _core.execute(op, [_tensor(v, d) for v in values], None)[0]
    ref_fn = _BINARY.get(name) or _UNARY.get(name)
    if name == "SquaredDifference" and d == tf.bfloat16:  # TF rounds the difference first
        ref_fn = lambda a, b: np.square(_bf16_round(a - b).astype(np.float64))  # noqa: E731
    with np.errstate(all="ignore"):
        want = np.asarray(ref_fn(*[v.astype(d.as_numpy_dtype) if d.is_integer else v for v in values]))
    got = _values(out)
    if want.dtype == np.bool_:
        np.testing.assert_array_equal(got, want)
    elif d.is_integer:
        np.testing.assert_array_equal(got, want.astype(d.as_numpy_dtype))
    elif d.is_complex:
        assert out.dtype == (tf.float64 if name == "ComplexAbs" else tf.complex128)
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    else:  # bfloat16: float32 math rounded once, within one bfloat16 step of the exact value
        assert out.dtype == tf.bfloat16
        np.testing.assert_allclose(got, _bf16_round(want), rtol=2 ** -7, atol=1e-30, equal_nan=True)


# ---- reductions and data movement ----

@pytest.mark.parametrize("d", RARE, ids=lambda d: d.name)
def test_reductions_match_numpy(d):
    x = _inputs("Sum", d, 24, seed=3)[0].reshape(4, 6)
    if not d.is_integer:
        x = np.where(np.isfinite(x), x, 1.0)
    if d == tf.bfloat16:
        x = _bf16_round(x).astype(np.float64)
    t = _tensor(x, d)
    for fn, ref in [(tf.reduce_sum, np.sum), (tf.reduce_prod, np.prod), (tf.reduce_max, np.max),
                    (tf.reduce_min, np.min), (tf.reduce_mean, np.mean)]:
        if d.is_complex and ref in (np.max, np.min):
            continue
        for axis in (None, 0, 1):
            got = _values(fn(t, axis=axis))
            with np.errstate(all="ignore"):
                if d.is_integer:
                    xs = x.astype(d.as_numpy_dtype)
                    want = ref(xs, axis=axis)
                    if ref is np.mean:  # TF accumulates in int64 (uint64 in itself, wrapping) and truncates
                        total = np.sum(xs.astype(object), axis=axis)
                        if d == tf.uint64:
                            total = total % 2 ** 64
                        want = total // (x.size if axis is None else x.shape[axis])
                    np.testing.assert_array_equal(got, np.asarray(want).astype(d.as_numpy_dtype))
                elif d.is_complex:
                    np.testing.assert_allclose(got, ref(x, axis=axis), rtol=1e-12)
                else:
                    np.testing.assert_allclose(got, ref(x, axis=axis), rtol=2e-2, atol=1e-2)


def test_reductions_as_tensorflow():
    assert tf.reduce_sum(tf.constant([0.1] * 10, tf.bfloat16)).numpy().item() == 1.0
    assert tf.reduce_mean(tf.constant([1, 2, 4], tf.bfloat16)).numpy().item() == 2.328125
    assert tf.reduce_mean(tf.constant([1, 2, 4, 4294967295], tf.uint32)).numpy() == 1073741825
    assert tf.reduce_sum(tf.constant(np.array([2 ** 64 - 1, 2], np.uint64))).numpy() == 1
    assert tf.reduce_prod(tf.constant([300, 300], tf.uint16)).numpy() == 24464
    assert tf.reduce_mean(tf.constant([1 + 1j, 2], tf.complex128)).numpy() == 1.5 + 0.5j
    assert tf.reduce_prod(tf.constant([1 + 1j, 2j], tf.complex128)).numpy() == -2 + 2j
    assert tf.reduce_min(tf.constant([5, 2 ** 63], tf.uint64)).numpy() == 5


@pytest.mark.parametrize("d", RARE, ids=lambda d: d.name)
def test_data_movement(d):
    x = _inputs("Sum", d, 6, seed=5)[0]
    if not d.is_integer:
        x = np.where(np.isnan(x), 0, x)
    t = _tensor(x.reshape(2, 3), d)
    xs = x.reshape(2, 3)
    np.testing.assert_array_equal(_values(tf.transpose(t)), xs.T)
    np.testing.assert_array_equal(_values(tf.reshape(t, [3, 2])), xs.reshape(3, 2))
    np.testing.assert_array_equal(_values(tf.concat([t, t], 0)), np.concatenate([xs, xs]))
    np.testing.assert_array_equal(_values(tf.gather(t, [1, 0], axis=1)), xs[:, [1, 0]])
    np.testing.assert_array_equal(_values(t[:, ::-1]), xs[:, ::-1])
    np.testing.assert_array_equal(_values(tf.stack([t, t])), np.stack([xs, xs]))
    np.testing.assert_array_equal(_values(tf.tile(t, [1, 2])), np.tile(xs, [1, 2]))
    np.testing.assert_array_equal(_values(tf.where([[True, False, True]] * 2, t, tf.zeros_like(t))),
                                  np.where([[True, False, True]] * 2, xs, 0))
    np.testing.assert_array_equal(_values(tf.ones_like(t)), np.ones((2, 3)))
    np.testing.assert_array_equal(_values(tf.zeros([2], d)), [0, 0])
    np.testing.assert_array_equal(_values(tf.ones([2], d)), [1, 1])
    np.testing.assert_array_equal(_values(tf.fill([2], t[0, 1])), [xs[0, 1]] * 2)
    np.testing.assert_array_equal(_values(tf.add_n([t, t, t])), _values(t + t + t))
    v = tf.Variable(t)
    v.assign_add(t)
    np.testing.assert_array_equal(_values(v.read_value()), _values(t + t))


def test_elementwise_as_tensorflow():
    b = lambda v: tf.constant(v, tf.bfloat16)  # noqa: E731
    cases = [
        (b([1.0]) + b([0.00390625]), [1.0]),
        (b([1.1, 3.3]) * b([7.7, 0.3]), [8.4375, 0.9921875]),
        (b([1, 2]) + 0.1, [1.1015625, 2.09375]),
        (tf.exp(b([0.5, 1.5, -2.25])), [1.6484375, 4.46875, 0.10546875]),
        (tf.math.reciprocal(b([3])), [0.333984375]),
        (tf.math.round(b([2.5, 3.5])), [2, 4]),
        (tf.math.floordiv(b([-7.5]), b([2])), [-4]),
        (tf.math.floormod(b([-7.5]), b([2])), [0.5]),
        (tf.math.xlogy(b([2.0]), b([3.0])), [2.203125]),
        (tf.math.pow(b([1.5]), b([2.5])), [2.75]),
        (tf.square(tf.constant([70000], tf.uint32)), [605032704]),
        (tf.bitwise.invert(tf.constant([0], tf.uint64)), [2 ** 64 - 1]),
        (tf.bitwise.left_shift(tf.constant([1, 2], tf.uint32), tf.constant([31, 40], tf.uint32)), [2 ** 31, 0]),
        (tf.bitwise.right_shift(tf.constant([2 ** 31, 8], tf.uint32), tf.constant([31, 40], tf.uint32)), [1, 0]),
        (tf.math.floormod(tf.constant([7, 2 ** 64 - 1], tf.uint64), tf.constant([3, 10], tf.uint64)), [1, 5]),
        (tf.clip_by_value(tf.constant([1, 9], tf.uint32), 2, 5), [2, 5]),
        (tf.abs(tf.constant([1 + 1j], tf.complex128)), [2 ** 0.5]),
        (tf.math.sign(tf.constant([-2 + 0j, 3j], tf.complex128)), [-1, 1j]),
        (tf.math.squared_difference(tf.constant([1 + 1j], tf.complex128), tf.constant([2], tf.complex128)), [2]),
        (tf.constant([1], tf.complex128) + 1j, [1 + 1j]),
    ]
    for got, want in cases:
        np.testing.assert_array_equal(_values(got), np.array(want, _values(got).dtype))
    m = tf.math.maximum(b([1, np.nan]), b([np.nan, 2]))
    assert np.isnan(_values(m)).all()


# ---- gradients ----

def test_complex128_gradient_as_tensorflow():
    x = tf.constant([1 + 2j, 3 - 1j], tf.complex128)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.abs(x * x + tf.exp(x)))
    g = tape.gradient(y, x)
    assert g.dtype == tf.complex128
    np.testing.assert_allclose(g.numpy(), [4.98757355 + 4.21451801j, 25.30346481 - 0.9980937j], rtol=1e-8)


def test_bfloat16_variable_gradient_as_tensorflow():
    v = tf.Variable(tf.constant([1.5, 2.5], tf.bfloat16))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v * v)
    g = tape.gradient(y, v)
    assert g.dtype == tf.bfloat16
    np.testing.assert_array_equal(_values(g), [3, 5])


def test_as_string_as_tensorflow():
    for d in (tf.uint16, tf.uint32, tf.uint64):
        assert tf.strings.as_string(tf.constant([1, 2], d)).numpy().tolist() == [b"1", b"2"]
    assert tf.strings.as_string(tf.constant([2 ** 64 - 1], tf.uint64)).numpy().tolist() == [b"18446744073709551615"]
    assert tf.strings.as_string(tf.constant([1, 2], tf.bfloat16)).numpy().tolist() == [b"1.000000", b"2.000000"]
    assert tf.strings.as_string(tf.constant([1 + 2j, -0.5j])).numpy().tolist() == [b"(1.000000,2.000000)",
                                                                                   b"(-0.000000,-0.500000)"]


def test_matmul_as_tensorflow():
    got = tf.linalg.matmul(tf.constant([[1.5]], tf.bfloat16), tf.constant([[2]], tf.bfloat16))
    assert got.dtype == tf.bfloat16 and _values(got).tolist() == [[3]]
    a = np.array([[1 + 2j, 0.5 - 1j], [2j, 1]])
    b = np.array([[1 - 1j], [3 + 0.5j]])
    got = tf.matmul(tf.constant(a), tf.constant(b))
    assert got.dtype == tf.complex128
    np.testing.assert_allclose(got.numpy(), a @ b, rtol=1e-14)
    assert tf.matmul([[1 + 1j]], [[1 + 1j]], adjoint_a=True).numpy()[0, 0] == 2


# ---- ordering, unique, segment and range kernels ----

# The dtypes among these that TF 2.21 has a CPU kernel of each op for (from TF's registry).
_ORDERED = {tf.uint16, tf.uint32, tf.uint64, tf.bfloat16}
_TF_KERNELS = {
    "ArgMax": _ORDERED, "ArgMin": _ORDERED, "TopKV2": _ORDERED, "Unique": _ORDERED, "UniqueWithCounts": _ORDERED,
    "SegmentMax": _ORDERED, "SegmentMin": _ORDERED, "UnsortedSegmentMax": _ORDERED, "UnsortedSegmentMin": _ORDERED,
    "SegmentSum": set(RARE), "SegmentMean": set(RARE), "SegmentProd": set(RARE), "UnsortedSegmentSum": set(RARE),
    "UnsortedSegmentProd": set(RARE), "Range": {tf.bfloat16},
}
_VALUE_ATTR = {"Range": "Tidx"}


def _ids(v):
    return v if isinstance(v, str) else v.name


def _ordered_values(d, n, seed):
    """n values of d with repeats, exact in d (no NaN), as float64 / Python-int NumPy arrays."""
    rng = np.random.default_rng(seed)
    if d.is_integer:
        info = np.iinfo(d.as_numpy_dtype)
        pool = np.array([0, 1, 7, info.max, info.max - 1, info.max // 2 + 1], d.as_numpy_dtype)
        return pool[rng.integers(0, len(pool), n)]
    if d.is_complex:
        return (rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)).astype(np.complex128)
    pool = _bf16_round([0.0, -2.5, 1.5, 3e38, -np.inf, np.inf, 0.10009765625, 100.0]).astype(np.float64)
    return pool[rng.integers(0, len(pool), n)]


def _ref_topk(row, k):
    order = sorted(range(len(row)), key=lambda i: (-row[i], i))[:k]
    return [row[i] for i in order], order


def _segment_ref(name, x, ids, num, d):
    """The segment reductions in Python numbers: ints wrap in d, bfloat16 rounds after each step."""
    rnd = (lambda v: float(_bf16_round(v))) if d == tf.bfloat16 else (
        (lambda v: int(v) % 2 ** (8 * d.size)) if d.is_integer else (lambda v: v))
    op, unsorted = name.replace("Unsorted", "").replace("Segment", ""), name.startswith("Unsorted")
    if op in ("Max", "Min"):  # the unsorted ones start from the type's extremes, the sorted ones from -inf / inf
        init = (3.3895313892515355e38 if unsorted else np.inf) if d == tf.bfloat16 else int(np.iinfo(
            d.as_numpy_dtype).max)
        init = init if op == "Min" else -init if d == tf.bfloat16 else 0
    else:
        init = 1 if op == "Prod" else 0
    out, count = [init] * num, [0] * num
    for v, s in zip(x.tolist(), ids):
        count[s] += 1
        fold = {"Sum": operator.add, "Mean": operator.add, "Prod": operator.mul, "Max": max, "Min": min}[op]
        out[s] = rnd(fold(out[s], v))
    for s in range(num):
        if count[s] == 0 and not unsorted and op != "Prod":
            out[s] = 0
        elif op == "Mean" and count[s] > 1:
            out[s] = out[s] // count[s] if d.is_integer else rnd(out[s] / count[s])
    return out


def _run_ordered_op(name, d, x):
    """(outputs as Python lists, references) of op `name` on values x of d."""
    t = _tensor(x, d)
    if name in ("ArgMax", "ArgMin"):
        m = x.reshape(4, 6)
        got = [_core.execute(_core.get_op(name), [tf.reshape(t, [4, 6]), tf.constant(a)], None)[0] for a in (0, 1)]
        ref = [(np.argmax if name == "ArgMax" else np.argmin)(m, axis=a) for a in (0, 1)]
        return [g.numpy().tolist() for g in got], [r.tolist() for r in ref]
    if name == "TopKV2":
        values, indices = tf.math.top_k(tf.reshape(t, [4, 6]), 4)
        refs = [_ref_topk(row.tolist(), 4) for row in x.reshape(4, 6)]
        return [_values(values).tolist(), indices.numpy().tolist()], [[r[0] for r in refs], [r[1] for r in refs]]
    if name.startswith("Unique"):
        seen = {}
        for v in x.tolist():
            seen.setdefault(v, len(seen))
        out = _core.execute(_core.get_op(name), [t], {"out_idx": tf.int64})
        got = [_values(out[0]).tolist(), out[1].numpy().tolist()] + ([out[2].numpy().tolist()] if len(out) > 2 else [])
        ref = [list(seen), [seen[v] for v in x.tolist()]] + ([[x.tolist().count(v) for v in seen]] if len(out) > 2 else [])
        return got, ref
    ids = sorted(np.random.default_rng(len(name)).integers(0, 5, len(x)).tolist())
    ids = [i for i in ids if i != 2]  # an empty segment
    t, x = t[:len(ids)], x[:len(ids)]
    if name.startswith("Unsorted"):
        out = _core.execute(_core.get_op(name), [t, tf.constant(ids[::-1]), tf.constant(6)], None)[0]
        return [_values(out).tolist()], [_segment_ref(name, x, ids[::-1], 6, d)]
    out = _core.execute(_core.get_op(name), [t, tf.constant(ids)], None)[0]
    return [_values(out).tolist()], [_segment_ref(name, x, ids, ids[-1] + 1, d)]


def test_kernels_of_these_dtypes_are_tensorflows():
    for name, want in _TF_KERNELS.items():
        enums = _core.get_op(name).kernel_dtypes[_VALUE_ATTR.get(name, "T")]
        assert {d for d in RARE if d.as_datatype_enum in enums} == want, name


@pytest.mark.parametrize("name", sorted(set(_TF_KERNELS) - {"Range"}))
@pytest.mark.parametrize("d", RARE, ids=_ids)
def test_ordering_and_segment_kernels_match_numpy(name, d):
    x = _ordered_values(d, 24, seed=len(name))
    if d not in _TF_KERNELS[name]:  # TF's error: not in the op's allowed list, or no kernel
        cls = tf.errors.NotFoundError if name.startswith("Unique") else tf.errors.InvalidArgumentError
        with pytest.raises(cls, match="(?i)complex128"):
            _run_ordered_op(name, d, x)
        return
    got, ref = _run_ordered_op(name, d, x)
    for g, r in zip(got, ref):  # exact (complex means within rounding), NaN (inf - inf) as NaN
        if d.is_complex and "Mean" in name:
            np.testing.assert_allclose(np.array(g), np.array(r), rtol=1e-15)
        else:
            np.testing.assert_array_equal(np.array(g), np.array(r, dtype=np.array(g).dtype))


def test_ordering_and_segments_as_tensorflow():
    b = lambda v: tf.constant(v, tf.bfloat16)  # noqa: E731
    ids = [0] * 10 + [1] * 3
    data = b([0.1] * 10 + [1, 2, 4])
    prods = b([1.1] * 10 + [3, 3, 3])
    cases = [  # bfloat16 segments accumulate in bfloat16, step by step (unlike reduce_sum)
        (tf.math.segment_sum(data, ids), [1.0078125, 7.0]),
        (tf.math.segment_mean(data, ids), [0.1005859375, 2.328125]),
        (tf.math.segment_prod(prods, ids), [2.609375, 27.0]),
        (tf.math.unsorted_segment_sum(data, ids, 3), [1.0078125, 7.0, 0.0]),
        (tf.math.unsorted_segment_mean(data, ids, 3), [0.1005859375, 2.328125, 0.0]),
        (tf.math.unsorted_segment_prod(prods, ids, 3), [2.609375, 27.0, 1.0]),
        (tf.math.unsorted_segment_max(data, ids, 3), [0.10009765625, 4.0, -3.3895313892515355e38]),
        (tf.math.unsorted_segment_sqrt_n(data, ids, 3), [0.318359375, 4.03125, 0.0]),
        (tf.math.segment_max(b([1., 2.]), [0, 2]), [1.0, 0.0, 2.0]),
        (tf.math.unsorted_segment_max(tf.constant([1, 2], tf.uint32), [0, 0], 2), [2, 0]),
        (tf.math.unsorted_segment_min(tf.constant([1, 2], tf.uint64), [0, 0], 2), [1, 2 ** 64 - 1]),
        (tf.math.segment_mean(tf.constant([1, 2, 4294967295], tf.uint32), [0, 0, 0]), [0]),
        (tf.math.segment_sum(tf.constant([2 ** 64 - 1, 2], tf.uint64), [0, 0]), [1]),
        (tf.argmax(b([1, np.nan, 3])), 2),
        (tf.argmin(b([np.nan, 1, -3])), 2),
        (tf.sort(tf.constant([2 ** 64 - 1, 0, 5], tf.uint64)), [0, 5, 2 ** 64 - 1]),
        (tf.argsort(tf.constant([2 ** 64 - 1, 0, 5], tf.uint64), direction="DESCENDING"), [0, 2, 1]),
        (tf.math.top_k(b([1.5, -2, 3e38]), 2).values, [3.00405527047391e38, 1.5]),
    ]
    for x in (tf.float32, tf.bfloat16):  # the sorted max / min of -inf is -inf, the unsorted one lowest()
        v = tf.cast([-np.inf, -np.inf, 1.0, np.inf], x)
        lowest = -x.max
        cases += [(tf.math.segment_max(v, [0, 0, 1, 2]), [-np.inf, 1, np.inf]),
                  (tf.math.unsorted_segment_max(v, [0, 0, 1, 2], 3), [lowest, 1, np.inf]),
                  (tf.math.unsorted_segment_min(-v, [0, 0, 1, 2], 3), [-lowest, -1, -np.inf])]
    for got, want in cases:
        np.testing.assert_array_equal(_values(got), np.array(want, _values(got).dtype))
    # half and bfloat16 unique by their bits: -0.0 is not 0.0 there (float32's unique merges them).
    for d, want in [(tf.float16, [2, 3]), (tf.bfloat16, [2, 3]), (tf.float32, [2, 2])]:
        y, idx, count = tf.unique_with_counts(tf.cast([np.nan, np.nan, -0.0, 0.0, 1, -0.0], d))
        assert idx.numpy().tolist()[2:4] == want and y.shape[0] == 6 - (want[0] == want[1]) - 1
        assert count.numpy().tolist()[:2] == [1, 1]  # NaN is never equal to itself


def test_range_as_tensorflow():
    b = lambda v: tf.constant(v, tf.bfloat16)  # noqa: E731
    cases = [
        (tf.range(b(0.1), b(1.0), b(0.1)), [0.10009765625, 0.2001953125, 0.30078125, 0.400390625, 0.5, 0.6015625,
                                            0.703125, 0.80078125, 0.90234375]),
        (tf.range(0.0, 3.0, 0.3, dtype=tf.bfloat16), [0.0, 0.30078125, 0.6015625, 0.90234375, 1.203125, 1.5,
                                                      1.8046875, 2.109375, 2.40625, 2.703125]),
        (tf.range(250, 260, 1, dtype=tf.bfloat16), [250, 251, 252, 253, 254, 255, 256, 256, 258, 260]),
        (tf.range(250, 260, 1.5, dtype=tf.half), [250.0, 251.5, 253.0, 254.5, 256.0, 257.5, 259.0]),
    ]
    for got, want in cases:
        np.testing.assert_array_equal(_values(got), want)
    # The size is computed in the dtype: a half or bfloat16 quotient rounds.
    assert [tf.range(0., 1000., 0.7, dtype=d).shape[0] for d in (tf.half, tf.bfloat16, tf.float32)] == [1428, 1432, 1429]
    assert tf.range(b(1.0), 5).dtype == tf.bfloat16 and tf.range(b(1.0), 5.0).dtype == tf.float32
    assert tf.range(tf.constant(1., tf.half), b(5.)).dtype == tf.bfloat16
    for d in (tf.int8, tf.int16, tf.uint16, tf.uint32, tf.uint64):  # no CPU kernel in TF
        with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node Range\}\} = "
                                                          rf"Range\[Tidx=DT_{d.name.upper()}\]"):
            tf.range(0, 4, dtype=d)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tidx' of complex128 is not in the list"):
        tf.range(0, 4, dtype=tf.complex128)
    with pytest.raises(AssertionError):
        tf.range(tf.constant(1, tf.uint16), 5)
