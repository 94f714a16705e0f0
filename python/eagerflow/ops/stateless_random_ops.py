"""tf.random.stateless_*: random tensors that depend only on a shape-[2] seed (Philox with TF's
key and counter derivation, so the values equal TF's), and tf.random.split / fold_in."""
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.ops import array_ops
from eagerflow.ops._execute import execute1
from eagerflow.ops.random_ops import _shape_tensor
from eagerflow.ops.random_ops_util import alg_tensor, get_key_counter_alg

_ACCEPTED_UNIFORM_TEXT = "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, tf.uint64)"


def _is_default_range(minval, maxval):
    """Python 0 and 1 (the defaults): the scaled uniform equals the raw one."""
    def is_number(v, n):
        return type(v) in (int, float) and v == n
    return is_number(minval, 0) and is_number(maxval, 1)


def _v2(op, shape_t, seed, alg, dtype, extra=()):
    key, counter, alg = get_key_counter_alg(seed, alg)
    return execute1(op, [shape_t, key, counter, alg_tensor(alg), *extra], {"dtype": dtype})


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None, alg="auto_select"):
    """tf.random.stateless_uniform: floats in [minval, maxval) (maxval defaults to 1); integers in
    [minval, maxval), or every value of the dtype when minval and maxval are both None."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are {_ACCEPTED_UNIFORM_TEXT}.")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and `maxval` must be both "
                             f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
    elif maxval is None:
        maxval = 1
    shape_t = _shape_tensor(shape)
    if dtype.is_integer and minval is None:
        return _v2("StatelessRandomUniformFullIntV2", shape_t, seed, alg, dtype)
    bounds = minval, maxval
    minval = convert_to_tensor(minval, dtype=dtype)
    maxval = convert_to_tensor(maxval, dtype=dtype)
    if dtype.is_integer:
        return _v2("StatelessRandomUniformIntV2", shape_t, seed, alg, dtype, (minval, maxval))
    rnd = _v2("StatelessRandomUniformV2", shape_t, seed, alg, dtype)
    if _is_default_range(*bounds):
        return rnd  # rnd * 1 + 0 is rnd, bit for bit
    return execute1("AddV2", [execute1("Mul", [rnd, execute1("Sub", [maxval, minval])]), minval])


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None, alg="auto_select"):
    """tf.random.stateless_normal: N(mean, stddev**2) samples from a seed."""
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    rnd = _v2("StatelessRandomNormalV2", shape_t, seed, alg, dtype)
    return execute1("AddV2", [execute1("Mul", [rnd, stddev]), mean])


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
                               alg="auto_select"):
    """tf.random.stateless_truncated_normal: normal samples redrawn beyond 2 standard deviations."""
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean = convert_to_tensor(mean, dtype=dtype)
    stddev = convert_to_tensor(stddev, dtype=dtype)
    rnd = _v2("StatelessTruncatedNormalV2", shape_t, seed, alg, dtype)
    return execute1("AddV2", [execute1("Mul", [rnd, stddev]), mean])


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """tf.random.stateless_categorical: `num_samples` class indices per row of `logits`."""
    logits = convert_to_tensor(logits)
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are (tf.int32, tf.int64).")
    seed = convert_to_tensor(seed) if not hasattr(seed, "_as_tensor") else seed._as_tensor()
    num_samples = convert_to_tensor(num_samples, dtype=dtypes.int32)
    return execute1("StatelessMultinomial", [logits, num_samples, seed], {"output_dtype": dtype})


def split(seed, num=2, alg="auto_select"):
    """tf.random.split: `num` new seeds (a [num, 2] tensor) from one."""
    seed = convert_to_tensor(seed)
    return stateless_random_uniform([num, 2], seed, dtype=seed.dtype, minval=None, maxval=None, alg=alg)


def fold_in(seed, data, alg="auto_select"):
    """tf.random.fold_in: a new seed from a seed and an integer."""
    data = convert_to_tensor(data)
    seed1 = stateless_random_uniform([], seed, dtype=data.dtype, minval=None, maxval=None, alg=alg)
    return array_ops.stack([seed1, data])
