"""Unary elementwise ops vs NumPy across dtypes and shapes, dtype errors, and inference errors."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute1

from _elementwise_common import (ALL, C64, F16, F32, F64, FLOATS, INTS, SHAPES, SIGNED, check_close, reference,
                                sample)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _relu6(x):
    return np.where(x < 0, np.zeros_like(x), np.where(x > 6, np.full_like(x, 6), x))


SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946

# name -> (wrapper, raw op, numpy reference, dtypes with a kernel)
UNARY = {
    "negative": (tf.math.negative, "Neg", np.negative, FLOATS + SIGNED + [C64]),
    "abs": (tf.math.abs, "Abs", np.abs, FLOATS + SIGNED),
    "sign": (tf.math.sign, "Sign", lambda x: np.sign(x) if x.dtype != C64 else
             np.where(x == 0, 0, x / np.where(x == 0, 1, np.abs(x))), FLOATS + SIGNED + [C64]),
    "exp": (tf.math.exp, "Exp", np.exp, FLOATS + [C64]),
    "expm1": (tf.math.expm1, "Expm1", np.expm1, FLOATS + [C64]),
    "log": (tf.math.log, "Log", np.log, FLOATS + [C64]),
    "log1p": (tf.math.log1p, "Log1p", np.log1p, FLOATS + [C64]),
    "sqrt": (tf.math.sqrt, "Sqrt", np.sqrt, FLOATS + [C64]),
    "rsqrt": (tf.math.rsqrt, "Rsqrt", lambda x: 1 / np.sqrt(x), FLOATS + [C64]),
    "square": (tf.math.square, "Square", np.square, FLOATS + INTS + [C64]),
    "reciprocal": (tf.math.reciprocal, "Reciprocal", lambda x: 1 / x, FLOATS + [C64]),
    "tanh": (tf.math.tanh, "Tanh", np.tanh, FLOATS + [C64]),
    "sigmoid": (tf.math.sigmoid, "Sigmoid", _sigmoid, FLOATS + [C64]),
    "sin": (tf.math.sin, "Sin", np.sin, FLOATS + [C64]),
    "cos": (tf.math.cos, "Cos", np.cos, FLOATS + [C64]),
    "tan": (tf.math.tan, "Tan", np.tan, FLOATS + [C64]),
    "floor": (tf.math.floor, "Floor", np.floor, FLOATS),
    "ceil": (tf.math.ceil, "Ceil", np.ceil, FLOATS),
    "round": (tf.math.round, "Round", np.round, FLOATS + INTS),
    "relu": (tf.nn.relu, "Relu", lambda x: np.where(x < 0, np.zeros_like(x), x), FLOATS + INTS),
    "relu6": (tf.nn.relu6, "Relu6", _relu6, FLOATS + INTS),
    "elu": (tf.nn.elu, "Elu", lambda x: np.where(x < 0, np.expm1(x), x), FLOATS),
    "selu": (tf.nn.selu, "Selu", lambda x: SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.expm1(x), x), FLOATS),
    "softplus": (tf.nn.softplus, "Softplus", lambda x: np.logaddexp(0, x), FLOATS),
    "is_nan": (tf.math.is_nan, "IsNan", np.isnan, FLOATS),
    "is_inf": (tf.math.is_inf, "IsInf", np.isinf, FLOATS),
    "is_finite": (tf.math.is_finite, "IsFinite", np.isfinite, FLOATS),
    "logical_not": (tf.math.logical_not, "LogicalNot", np.logical_not, [np.bool_]),
    "invert": (tf.bitwise.invert, "Invert", np.invert, INTS),
}
# TF's op definitions accept these dtypes but have no CPU kernel: NotFoundError, not InvalidArgument.
NOT_FOUND = {("Reciprocal", d) for d in SIGNED} | {("Round", C64)}

@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_numpy(name):
    fn, _, ref, dtypes = UNARY[name]
    for dtype in dtypes:
        for shape in SHAPES:
            x = sample(dtype, shape)
            got = fn(tf.constant(x))
            check_close(np.asarray(got.numpy()), reference(ref, x))


@pytest.mark.parametrize("name", ["exp", "sigmoid", "tanh", "sqrt", "softplus", "elu", "negative", "square", "relu"])
def test_unary_large_parallel(name):
    # Big enough for for_range to split the work across threads and for half to span many chunks.
    fn, _, ref, dtypes = UNARY[name]
    for dtype in [d for d in (F16, F32, F64, np.int32) if d in dtypes]:
        x = sample(dtype, (300_001,), seed=3)
        check_close(fn(tf.constant(x)).numpy(), reference(ref, x))


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_unsupported_dtypes(name):
    _, op, _, dtypes = UNARY[name]
    for dtype in ALL:
        if dtype in dtypes:
            continue
        x = tf.constant(sample(dtype, (2,)))
        if (op, dtype) in NOT_FOUND:
            with pytest.raises(tf.errors.NotFoundError, match="Could not find device for node"):
                execute1(op, [x])
        elif op == "LogicalNot":
            with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a bool tensor"):
                execute1(op, [x])
        else:
            with pytest.raises(tf.errors.InvalidArgumentError, match="is not in the list of allowed values"):
                execute1(op, [x])


def test_unsupported_dtype_message_is_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.math.exp(tf.constant([1, 2]))
    assert str(e.value).startswith("Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, "
                                   "float, double, complex64, complex128")
    assert "[Op:Exp]" in str(e.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of uint8 is not in the list of allowed "
                       "values: bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128"):
        tf.math.negative(tf.constant(np.array([1], np.uint8)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="of bool is not in the list"):
        tf.nn.relu(tf.constant([True]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="of string is not in the list"):
        tf.math.sqrt(tf.constant(["x"]))


def test_integer_wraparound():
    for dtype in SIGNED:
        info = np.iinfo(dtype)
        x = tf.constant(np.array([info.min, info.max, -1, 0], dtype))
        np.testing.assert_array_equal(tf.math.abs(x).numpy(), np.array([info.min, info.max, 1, 0], dtype))
        np.testing.assert_array_equal(tf.math.negative(x).numpy(), np.array([info.min, -info.max, 1, 0], dtype))
        np.testing.assert_array_equal((-x).numpy(), np.array([info.min, -info.max, 1, 0], dtype))
        np.testing.assert_array_equal(abs(x).numpy(), np.array([info.min, info.max, 1, 0], dtype))
        np.testing.assert_array_equal(tf.math.square(x).numpy(), np.square(x.numpy()))
    assert tf.math.square(tf.constant([2 ** 16])).numpy()[0] == 0
    assert tf.math.square(tf.constant(np.array([300], np.int16))).numpy()[0] == np.int16(np.int64(90000) - 65536)


def test_round_half_to_even():
    x = tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 3.5, np.nan, np.inf])
    np.testing.assert_array_equal(tf.round(x).numpy(), np.array([0, 2, 2, -0.0, -2, -2, 2, 4, np.nan, np.inf], np.float32))
    for dtype in (F16, F64):
        np.testing.assert_array_equal(tf.round(tf.constant(np.array([0.5, 1.5, 2.5], dtype))).numpy(),
                                      np.array([0, 2, 2], dtype))
    for dtype in INTS:  # integers come back unchanged (uint8 included)
        x = tf.constant(np.array([1, 2, 100], dtype))
        assert tf.round(x).dtype == tf.as_dtype(dtype)
        np.testing.assert_array_equal(tf.round(x).numpy(), x.numpy())


def test_special_values():
    s = tf.math.sign(tf.constant([np.nan, -0.0, 0.0, -3.0, np.inf]))
    np.testing.assert_array_equal(s.numpy(), [np.nan, 0, 0, -1, 1])
    assert not np.signbit(s.numpy()[1])
    np.testing.assert_allclose(tf.math.exp(tf.constant([88.7, -np.inf, np.inf, np.nan, -100.0])).numpy(),
                               np.exp(np.array([88.7, -np.inf, np.inf, np.nan, -100.0], np.float32).astype(F64)),
                               rtol=1e-6, atol=1e-44)  # exp(88.7f) is finite; exp(-100f) a denormal
    np.testing.assert_array_equal(tf.math.sqrt(tf.constant([np.inf, -0.0, 0.0, -1.0])).numpy(),
                                  [np.inf, -0.0, 0.0, np.nan])
    assert np.signbit(tf.math.sqrt(tf.constant([-0.0])).numpy()[0])
    np.testing.assert_array_equal(tf.math.reciprocal(tf.constant([0.0, -0.0])).numpy(), [np.inf, -np.inf])
    np.testing.assert_array_equal(tf.math.sigmoid(tf.constant([np.inf, -np.inf, np.nan])).numpy(), [1, 0, np.nan])
    np.testing.assert_array_equal(tf.nn.relu6(tf.constant([np.inf, -np.inf, np.nan])).numpy(), [6, 0, np.nan])
    np.testing.assert_array_equal(tf.nn.softplus(tf.constant([np.inf, -np.inf, np.nan, 1000.0])).numpy(),
                                  [np.inf, 0, np.nan, 1000])
    np.testing.assert_allclose(tf.nn.elu(tf.constant([-np.inf, -1e-8])).numpy(), [-1, -1e-8], rtol=1e-6)
    assert tf.math.is_inf(tf.constant(np.array([np.inf, -np.inf, np.nan], F16))).numpy().tolist() == [True, True, False]


def test_complex_abs_and_helpers():
    r = tf.math.abs(tf.constant([3 + 4j, -1j]))  # complex128 (Python complex), as in TF
    assert r.dtype == tf.float64
    assert tf.math.abs(tf.constant([3 + 4j], tf.complex64)).dtype == tf.float32
    np.testing.assert_allclose(r.numpy(), [5, 1])
    np.testing.assert_allclose(tf.math.expm1(tf.constant([1e-10 + 1e-10j])).numpy(), [1e-10 + 1e-10j], rtol=1e-6)
    np.testing.assert_allclose(tf.math.log1p(tf.constant([1e-10 + 1e-10j])).numpy(), [1e-10 + 1e-10j], rtol=1e-6)


def test_python_values_and_wrappers():
    assert tf.math.abs(-3).dtype == tf.int32 and tf.math.abs(-3).numpy() == 3
    assert tf.exp(1.0).dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.exp(1)
    assert tf.nn.relu([-1, 2]).numpy().tolist() == [0, 2]
    np.testing.assert_array_equal(tf.nn.relu6(tf.constant(np.array([255, 2, 8], np.uint8))).numpy(), [6, 2, 6])
    assert tf.bitwise.invert(tf.constant(np.array([0], np.uint8))).numpy()[0] == 255
    assert tf.math.logical_not(tf.constant([True, False])).numpy().tolist() == [False, True]
    assert (~tf.constant([True])).numpy().tolist() == [False]
    assert (~tf.constant([5])).numpy().tolist() == [-6]
    assert tf.math.sigmoid is tf.nn.sigmoid and tf.math.tanh is tf.nn.tanh and tf.math.softplus is tf.nn.softplus


# ---- registry flags (every elementwise op's inference vs kernel: test_op_table.py) ----

def test_unary_ops_are_elementwise():
    ops = {d.name: d for d in _core.list_ops()}
    for op in [u[1] for u in UNARY.values()] + ["ComplexAbs", "ClipByValue", "AddN"]:  # fusion candidates
        assert ops[op].has_infer and ops[op].has_cpu_kernel and ops[op].elementwise, op


def test_infer_errors_for_bad_inputs():
    clip = _core.get_op("ClipByValue")
    with pytest.raises(tf.errors.InvalidArgumentError, match="same shape as input, or a scalar"):
        _core.infer(clip, [tf.constant([1, 2]), tf.constant([0, 0, 0]), tf.constant(1)], {})
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #1"):
        _core.infer(clip, [tf.constant([1, 2]), tf.constant(0.0), tf.constant(1)], {})
    add_n = _core.get_op("AddN")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input 0: \[2\] != input 1: \[3\]"):
        _core.infer(add_n, [tf.constant([1, 2]), tf.constant([1, 2, 3])], {})
