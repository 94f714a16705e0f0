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


def _pow_samples():
    rng = np.random.default_rng(7)
    n = 200_003
    x = np.concatenate([np.exp(rng.uniform(-87, 87, n)), rng.uniform(0.5, 2, n), 1 + rng.uniform(-1e-3, 1e-3, n),
                        rng.uniform(-10, 10, n)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-1.2, 1.2, n), rng.uniform(-120, 120, n), rng.uniform(-8e4, 8e4, n),
                        np.round(rng.uniform(-30, 30, n))]).astype(np.float32)
    return x, y


def test_float_pow_ulps_in_each_variant(variant):
    # pow_f32.h's vector pow: x^y = exp(y ln x) in double, rounded once.
    # Measured 0.503 ulp; glibc's powf 0.82, TF 2.21's (Eigen's) 1.3. Samples: every magnitude of x,
    # large |y| near x = 1, negative bases to integer powers.
    x, y = _pow_samples()
    want = np.power(x.astype(np.float64), y.astype(np.float64))
    got = tf.pow(tf.constant(x), tf.constant(y)).numpy().astype(np.float64)
    normal = (np.abs(want) >= np.finfo(np.float32).tiny) & (np.abs(want) <= np.finfo(np.float32).max)
    ulps = np.abs(got - want)[normal] / np.spacing(np.abs(want[normal]).astype(np.float32)).astype(np.float64)
    assert ulps.max() < 0.55
    for v in (3.0, 7.0, 10.0, 0.5, -2.0, 1.25):  # exact powers are exact
        e = np.arange(-12, 13, dtype=np.float32)
        want = np.power(np.float64(v), e.astype(np.float64))
        exact = want == want.astype(np.float32)
        np.testing.assert_array_equal(tf.pow(v, tf.constant(e)).numpy()[exact], want[exact].astype(np.float32))


def test_float_pow_of_two_is_the_square_in_each_variant(variant):
    # y = 2 is x * x (correctly rounded; the vector pow would be off by one in its midpoint cases),
    # in every operand form and mixed with other exponents.
    x = np.concatenate([np.random.default_rng(9).standard_normal(70_001).astype(np.float32) * 1e4,
                        np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 3e38, -1e-20])])
    with np.errstate(over="ignore"):
        want = x * x
    for got in (tf.pow(tf.constant(x), 2.0), tf.pow(tf.constant(x), tf.constant(np.full_like(x, 2.0))),
                tf.function(lambda t: tf.pow(t, 2.0) + 0.0)(tf.constant(x)), tf.constant(x) ** 2):
        np.testing.assert_array_equal(got.numpy().view(np.int32), want.view(np.int32))
    y = np.where(np.arange(x.size) % 3 == 0, np.float32(2), np.float32(1.5))
    got = tf.pow(tf.constant(np.abs(x)), tf.constant(y)).numpy()
    with np.errstate(over="ignore"):
        square = np.abs(x) * np.abs(x)
    np.testing.assert_array_equal(got[y == 2].view(np.int32), square[y == 2].view(np.int32))


def test_float_pow_variants_agree_bitwise():
    # Every copy runs the same double operations (FMA or not moves the double by an ulp of a double,
    # which the rounding to float absorbs): the same bits on every machine.
    x, y = _pow_samples()
    xt, yt = tf.constant(x), tf.constant(y)
    want = _in_variant("baseline", lambda: tf.pow(xt, yt).numpy())
    for variant in VARIANTS[:-1]:
        got = _in_variant(variant, lambda: tf.pow(xt, yt).numpy())
        np.testing.assert_array_equal(got.view(np.int32), want.view(np.int32), err_msg=variant)


def test_float_pow_edges_in_each_variant(variant):
    # Zeros, infinities, NaN, subnormals, a negative base to a fractional power (the C library's powf
    # computes those lanes) next to ordinary ones, in every operand form: C99's pow rules, as NumPy's
    # float64 power gives them; finite results within the ulp bound of the vector path.
    special = np.float32([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5,
                          3.4e38, -3.4e38, 1.2e-38])
    exps = np.float32([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 0.5, -0.5, 2.5, np.inf, -np.inf, np.nan,
                       1e30, -1e30, 16777217.0, 16777215.0, 1e-40, 200.0, -200.0])
    x, y = (v.ravel() for v in np.meshgrid(special, exps))
    for a, b in ((x, y), (x[:1], y[:1]), (np.float32(-2.0), y), (x, np.float32(3.0)), (x, np.float32(-0.5))):
        with np.errstate(all="ignore"):
            want = np.power(np.float64(a), np.float64(b))
        got = tf.pow(tf.constant(a), tf.constant(b)).numpy()
        with np.errstate(over="ignore"):
            want32 = want.astype(np.float32)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want32))
        edge = np.isinf(want32) | (want32 == 0)
        np.testing.assert_array_equal(got[edge], want32[edge])
        np.testing.assert_array_equal(np.signbit(got[~np.isnan(got)]), np.signbit(want32[~np.isnan(got)]))
        finite = ~np.isnan(want32) & ~edge
        ulps = np.abs(got[finite] - want[finite]) / np.spacing(np.abs(want32[finite])).astype(np.float64)
        assert ulps.max(initial=0) < 0.55


def test_float_pow_same_bits_in_every_path_in_each_variant(variant):
    # Contiguous runs, scalar operands, broadcast rows, strided runs, fused chains and the scalar loop
    # interpreter all compute each element alike, wherever a block starts.
    x, y = _pow_samples()
    x, y = x[:4099], y[:4099]
    want = tf.pow(tf.constant(x), tf.constant(y)).numpy()
    for s in (0, 1, 5, 17):
        np.testing.assert_array_equal(tf.pow(tf.constant(x[s:]), tf.constant(y[s:])).numpy(), want[s:])
    np.testing.assert_array_equal(tf.pow(tf.constant(x), y[3]).numpy(), tf.pow(tf.constant(x), tf.constant(np.full_like(y, y[3]))).numpy())
    np.testing.assert_array_equal(tf.pow(x[3], tf.constant(y)).numpy(), tf.pow(tf.constant(np.full_like(x, x[3])), tf.constant(y)).numpy())
    m = tf.constant(x[:4096].reshape(64, 64))
    col = tf.constant(y[:64].reshape(64, 1))
    np.testing.assert_array_equal(tf.pow(m, col).numpy(), tf.pow(m, tf.broadcast_to(col, [64, 64])).numpy())
    outer = tf.pow(tf.reshape(m, [4096, 1, 1]), tf.reshape(tf.constant(y[:3]), [1, 3, 1]))  # one-element runs
    np.testing.assert_array_equal(outer.numpy()[:, :, 0], tf.pow(tf.reshape(m, [4096, 1]), tf.constant(y[:3])).numpy())
    xt, yt = tf.constant(x), tf.constant(y)
    np.testing.assert_array_equal(tf.function(lambda a, b: tf.pow(a, b) * 1.0)(xt, yt).numpy(), want)

    @tf.function
    def loop(a, b):
        out = tf.TensorArray(tf.float32, size=8)
        for i in tf.range(8):
            out = out.write(i, tf.pow(a[i], b[i]))
        return out.stack()
    np.testing.assert_array_equal(loop(xt, yt).numpy(), want[:8])
