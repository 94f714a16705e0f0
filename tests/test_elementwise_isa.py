"""The elementwise ops' float block functions compiled per ISA (kernels/cpu/elementwise_isa.h): every
variant this CPU and build have matches NumPy and the others within the elementwise tests' tolerance,
and the fused elementwise kernel (unary and binary steps) equals the eager ops bitwise in each. Release
builds (pip install) have avx512, avx2 and baseline; dev builds only baseline (their -march=native)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import _core
from eagerflow.ops._execute import execute1

from _elementwise_common import F16, F32, F64, check_close, reference, sample
from _isa_variants import VARIANTS, isa, variant  # noqa: F401 (a fixture)


def _in_variant(name, fn):
    with isa(name):
        return fn()


# Every unary op with float32 block functions (the fused kernel's).
UNARY_F32 = sorted({op for op, arity, t, pred in _core.scalar_loop_ops()
                    if arity == 1 and not pred and t == tf.float32.as_datatype_enum})

SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
NUMPY = {
    "Abs": np.abs, "Neg": np.negative, "Exp": np.exp, "Expm1": np.expm1, "Log": np.log, "Log1p": np.log1p,
    "Sqrt": np.sqrt, "Rsqrt": lambda x: 1 / np.sqrt(x), "Square": np.square, "Reciprocal": lambda x: 1 / x,
    "Tanh": np.tanh, "Sigmoid": lambda x: 1 / (1 + np.exp(-x)), "Sin": np.sin, "Cos": np.cos, "Tan": np.tan,
    "Floor": np.floor, "Ceil": np.ceil, "Round": np.round, "Relu": lambda x: np.where(x < 0, np.zeros_like(x), x),
    "Relu6": lambda x: np.where(x < 0, np.zeros_like(x), np.where(x > 6, np.full_like(x, 6), x)),
    "Elu": lambda x: np.where(x < 0, np.expm1(x), x),
    "Selu": lambda x: SELU_SCALE * np.where(x < 0, SELU_ALPHA * np.expm1(x), x),
    "Softplus": lambda x: np.logaddexp(0, x), "Softsign": lambda x: x / (np.abs(x) + 1), "Sign": np.sign,
    "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh, "Asinh": np.arcsinh,
}
# Lengths around the vector widths (tails of 1..15 elements) and one that spans threads.
LENGTHS = (1, 7, 17, 515, 300_001)


def test_variants_known():
    assert VARIANTS and VARIANTS[-1] == "baseline"
    assert _core.elementwise_isa() == VARIANTS[0]  # the best the CPU has is the default
    with pytest.raises(tf.errors.InvalidArgumentError, match="this build has no 'sse9'"):
        _core.set_elementwise_isa("sse9")
    prev = _core.set_elementwise_isa("auto")
    assert _core.elementwise_isa() == VARIANTS[0]
    _core.set_elementwise_isa(prev)


@pytest.mark.parametrize("name", sorted(NUMPY))
def test_each_variant_matches_numpy(variant, name):
    for dtype in (F16, F32, F64):
        for n in LENGTHS:
            x = sample(dtype, (n,), seed=n)
            check_close(execute1(name, [tf.constant(x)]).numpy(), reference(NUMPY[name], x))


@pytest.mark.parametrize("name", UNARY_F32)
def test_variants_agree(name):
    """Every variant against the baseline: the same tolerance the NumPy comparisons use, NaN where it has
    NaN, zeros of the same sign."""
    rng = np.random.default_rng(5)
    for dtype in (F16, F32, F64):
        v = rng.normal(size=4099) * 4
        v[:8] = [0.0, -0.0, np.nan, np.inf, -np.inf, 88.5, -104.0, 1e-40]
        x = tf.constant(v.astype(dtype))
        want = _in_variant("baseline", lambda: execute1(name, [x]).numpy())
        for variant in VARIANTS[:-1]:
            got = _in_variant(variant, lambda: execute1(name, [x]).numpy())
            check_close(got, want)
            np.testing.assert_array_equal(np.signbit(got[want == 0]), np.signbit(want[want == 0]))


@pytest.mark.parametrize("name", ["Floor", "Ceil", "Round"])
def test_rounding_keeps_the_sign_in_each_variant(variant, name):
    # TF: ceil(-0.5) is -0 (SSE2 without SSE4.1 computes these by arithmetic that gives +0).
    v = np.array([-0.5, -0.0, -0.4, 0.3, -1.5, 2.5, -2.5, np.nan, -np.inf], np.float64)
    for dtype in (F16, F32, F64):
        got = execute1(name, [tf.constant(v.astype(dtype))]).numpy()
        want = getattr(np, {"Round": "rint"}.get(name, name.lower()))(v.astype(dtype))
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


def test_fused_equals_eager_in_each_variant(variant):
    def chain(x):
        y = tf.exp(-tf.abs(x))
        y = tf.sqrt(y + 1.0) * 0.5 - tf.tanh(x)
        y = tf.maximum(y, 0.1) / (tf.square(x) + 1.0)
        y = tf.sigmoid(y) + tf.math.log1p(tf.nn.softplus(x)) + tf.nn.elu(x)
        return tf.minimum(y, 1.5) + tf.math.squared_difference(x, y) * 0.25

    for dtype in (F32, F64):
        x = tf.constant(np.random.default_rng(1).normal(size=5000).astype(dtype) * 5)
        np.testing.assert_array_equal(tf.function(chain)(x).numpy(), chain(x).numpy())


# The binary ops with per-ISA copies (elementwise_isa.h's EF_ISA_BINARY_OPS, EF_ISA_COMPARE_OPS) in
# their eager kernels.
BINARY_NUMPY = {
    "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum, "Minimum": np.minimum,
    "SquaredDifference": lambda a, b: np.square(a - b),
    "RealDiv": lambda a, b: np.floor_divide(a, b) if a.dtype.kind == "i" else np.true_divide(a, b),
    "Less": np.less, "LessEqual": np.less_equal, "Greater": np.greater, "GreaterEqual": np.greater_equal,
    "Equal": np.equal, "NotEqual": np.not_equal,
}
COMPARISONS = ("Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual")
# (x shape, y shape): the same shape, a scalar on either side, rows, columns and outer broadcasts, with
# runs shorter and longer than the inline threshold and one that spans threads.
BROADCASTS = [((n,), (n,)) for n in (1, 15, 16, 17, 515, 300_001)] + [
    ((), (517,)), ((517,), ()), ((1,), (300_001,)), ((300_001,), (1,)),
    ((40, 33), (33,)), ((33,), (40, 33)), ((40, 33), (40, 1)), ((40, 1), (1, 33)), ((3, 5), (5,)),
]


def _binary_sample(dtype, shape, seed, ties=False):
    rng = np.random.default_rng(seed)
    if ties:  # small integers (and NaN, -0.0 for floats): equal pairs are common
        v = np.round(rng.normal(size=shape) * 2).astype(dtype)
        if v.size > 8 and np.dtype(dtype).kind == "f":
            v.flat[:3] = [np.nan, -0.0, np.inf]
        return v
    if np.dtype(dtype).kind == "i":
        info = np.iinfo(dtype)  # the whole range: sums and products wrap
        v = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
        return np.where(v == 0, dtype(3), v).astype(dtype)  # RealDiv's divisors
    v = (rng.normal(size=shape) * 100).astype(dtype)
    if v.size > 8:
        v.flat[:6] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40]
    return v


@pytest.mark.parametrize("name", sorted(BINARY_NUMPY))
def test_binary_eager_kernels_match_numpy_bitwise_in_each_variant(variant, name):
    for dtype in (np.float32, np.float64, np.int32, np.int64):
        for i, (sx, sy) in enumerate(BROADCASTS):
            ties = name in COMPARISONS
            x, y = _binary_sample(dtype, sx, 2 * i, ties), _binary_sample(dtype, sy, 2 * i + 1, ties)
            with np.errstate(all="ignore"):
                want = np.asarray(BINARY_NUMPY[name](x, y))
            want = want if want.dtype == bool else want.astype(dtype)
            got = execute1(name, [tf.constant(x), tf.constant(y)]).numpy()
            assert got.shape == want.shape
            np.testing.assert_array_equal(got.view(f"i{got.itemsize}"), want.view(f"i{want.itemsize}"),
                                          err_msg=f"{name} {np.dtype(dtype).name} {sx} {sy}")


def test_float_exp_ulps_in_each_variant(variant):
    # Exp's float block (exp_f32.h) over the range it computes itself (|x| <= 87; outside, the C
    # library's exp). Measured: 0.92 ulp with FMA, 1.18 on SSE2; TF 2.21's kernel 1.25, Eigen 3.4's
    # AVX-512 exp 4.4.
    x = np.linspace(-87, 87, 400_003, dtype=np.float32)
    want = np.exp(x.astype(np.float64))
    got = tf.exp(tf.constant(x)).numpy().astype(np.float64)
    ulps = np.abs(got - want) / np.spacing(want.astype(np.float32)).astype(np.float64)
    assert ulps.max() < 1.5


@pytest.mark.parametrize("name", ["Expm1", "Elu", "Selu"])
def test_float_expm1_ulps_in_each_variant(variant, name):
    # Their float blocks run exp_f32.h's expm1 (|x| <= 87; outside, the C library's). Measured on
    # [-20, 10] and near 0: 0.97 ulp with FMA; TF 2.21's expm1 4.4 (its elu, exp(x) - 1, loses every
    # digit near 0), Eigen 3.4's AVX-512 expm1 2.4.
    x = np.concatenate([np.linspace(-87, 87, 400_003, dtype=np.float32),
                        np.linspace(-1.5, 1.5, 300_001, dtype=np.float32), np.float32([-1e-30, 1e-30, 3e-8, -3e-8])])
    want = NUMPY[name](x.astype(np.float64))
    got = execute1(name, [tf.constant(x)]).numpy().astype(np.float64)
    ulps = np.abs(got - want) / np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert ulps.max() < (2.5 if name == "Selu" else 1.5)  # Selu: one more rounding (the scale)
    assert np.signbit(execute1(name, [tf.constant(np.float32([-0.0]))]).numpy()[0])


@pytest.mark.parametrize("name", ["Maximum", "Minimum"])
def test_maximum_minimum_signed_zeros_in_each_variant(variant, name):
    # TF: maximum(-0, +0) is +0 and maximum(+0, -0) is -0 (the second operand on a tie), as NumPy.
    x = np.array([0.0, -0.0] * 20, np.float32)
    y = np.array([-0.0, 0.0] * 20, np.float32)
    for a, b in ((x, y), (x, np.float32(-0.0)), (np.float32(0.0), y)):
        got = execute1(name, [tf.constant(a), tf.constant(b)]).numpy()
        want = getattr(np, name.lower())(a, b)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(np.broadcast_to(want, got.shape)))
