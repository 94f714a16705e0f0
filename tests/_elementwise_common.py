"""Shared helpers for the elementwise tests: dtypes, sample data with special values, NumPy comparison."""
import numpy as np

F16, F32, F64 = np.float16, np.float32, np.float64
FLOATS = [F16, F32, F64]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
INTS = SIGNED + [np.uint8]
C64 = np.complex64
ALL = FLOATS + INTS + [np.bool_, C64, object]  # object: tf.string
SHAPES = [(), (0,), (2, 0, 3), (7,), (3, 5)]
SPECIALS = [0.0, -0.0, np.nan, np.inf, -np.inf, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-3, 30.0, -30.0, 100.0, -100.0]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype in FLOATS:
        v = rng.normal(size=n) * 4
        k = min(n, len(SPECIALS))
        v[:k] = SPECIALS[:k]
        return v.astype(dtype).reshape(shape)
    if dtype is C64:
        v = rng.normal(size=n) + 1j * rng.normal(size=n)
        if n:
            v[0] = 0
        return v.astype(C64).reshape(shape)
    if dtype is np.bool_:
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype is object:
        return np.array(["a"] * n, dtype=object).reshape(shape)
    info = np.iinfo(dtype)
    v = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=np.int64 if dtype != np.uint8 else np.uint8)
    edges = [info.min, info.max, 0, 1, -1 if info.min < 0 else 2, 5, 6, 7]
    k = min(n, len(edges))
    v[:k] = np.array(edges[:k]).astype(v.dtype)
    return v.astype(dtype).reshape(shape)


TOL = {F16: (2e-3, 1e-3), F32: (2e-5, 1e-6), F64: (1e-12, 1e-14), C64: (2e-5, 1e-6)}


def reference(fn, x):
    """NumPy's answer computed in float64/complex128 (float16: float32), cast to x's dtype."""
    if x.dtype in (F16, F32, F64, C64):
        wide = x.astype({F16: F32, F32: F64, F64: F64, C64: np.complex128}[x.dtype.type])
        with np.errstate(all="ignore"):
            r = np.asarray(fn(wide))
            return r if r.dtype == np.bool_ else r.astype(x.dtype)
    with np.errstate(all="ignore"):
        return np.asarray(fn(x))


def check_close(got, want):
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype.type in TOL:
        rtol, atol = TOL[want.dtype.type]
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)
