"""tf.random: seeded random tensors (normal, uniform, truncated_normal, shuffle, categorical)
and set_seed.

Seeds follow TF's get_seed rule (eager op seeds drawn from random.Random(global seed), graph op
seeds counted per graph), and the C++ kernels keep one Philox stream per (op, seed, seed2) as TF
keeps one per kernel, so the values equal TF's and set_seed replays the same sequence.
"""
import random as _py_random
import threading
import weakref

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework import ops
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops._execute import execute1, index_tensor

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1


_op_seed_rng = None  # random.Random(global seed): TF's context draws eager op seeds from it
_graph_op_seeds = weakref.WeakKeyDictionary()  # graph -> op seeds handed out in it
_lock = threading.Lock()


def set_seed(seed):
    """tf.random.set_seed: sets the global seed and restarts every op's random sequence."""
    global _op_seed_rng
    if seed is not None:
        seed = int(seed)
        if not -2 ** 63 <= seed < 2 ** 63:  # TF keeps any int: its ops use it modulo 2**31 - 1
            seed = _truncate_seed(seed)
    _core.set_global_seed(seed)
    _op_seed_rng = _py_random.Random(seed)


def get_global_seed():
    return _core.get_global_seed()


def _truncate_seed(seed):
    return int(seed) % _MAXINT32


def _internal_operation_seed():
    global _op_seed_rng
    if _op_seed_rng is None:
        _op_seed_rng = _py_random.Random(_core.get_global_seed())
    return _op_seed_rng.randint(0, _MAXINT32)


def get_seed(op_seed):
    """TF's get_seed: the (seed, seed2) attrs for an op; (None, None) means nondeterministic."""
    eager = ops.executing_eagerly()
    graph = None if eager else ops.get_default_graph()
    global_seed = _core.get_global_seed() if eager else getattr(graph, "seed", None)
    if global_seed is not None:
        if op_seed is None:
            if eager:
                op_seed = _internal_operation_seed()
            else:
                with _lock:
                    op_seed = _graph_op_seeds.get(graph, 0)
                    _graph_op_seeds[graph] = op_seed + 1
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    if seeds == (0, 0):  # (0, 0) means "unseeded" to the kernels
        return 0, _MAXINT32
    return seeds


def _seed_attrs(seed):
    s1, s2 = get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


def _shape_tensor(shape):
    """A shape argument (list, tuple, TensorShape, tensor) as an int32/int64 shape vector."""
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    if isinstance(shape, _core.Tensor):
        return shape
    if hasattr(shape, "_as_tensor"):
        return shape._as_tensor()
    if isinstance(shape, (list, tuple)) and len(shape) == 0:
        return convert_to_tensor([], dtype=dtypes.int32)
    return index_tensor(shape)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """tf.random.normal: samples from N(mean, stddev**2)."""
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = convert_to_tensor(mean, dtype=dtype)
    stddev_t = convert_to_tensor(stddev, dtype=dtype)
    rnd = execute1("RandomStandardNormal", [shape_t], dict(dtype=dtype, **_seed_attrs(seed)))
    return execute1("AddV2", [execute1("Mul", [rnd, stddev_t]), mean_t])


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """tf.random.truncated_normal: N(mean, stddev**2) with samples beyond 2 stddev redrawn."""
    dtype = dtypes.as_dtype(dtype)
    shape_t = _shape_tensor(shape)
    mean_t = convert_to_tensor(mean, dtype=dtype)
    stddev_t = convert_to_tensor(stddev, dtype=dtype)
    rnd = execute1("TruncatedNormal", [shape_t], dict(dtype=dtype, **_seed_attrs(seed)))
    return execute1("AddV2", [execute1("Mul", [rnd, stddev_t]), mean_t])


_UNIFORM_DTYPES_TEXT = "(tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64)"


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """tf.random.uniform: floats in [minval, maxval) (maxval defaults to 1), or integers
    in [minval, maxval) (maxval required)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are {_UNIFORM_DTYPES_TEXT}.")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError("Must specify maxval for integer dtype %r" % (dtype,))
        maxval = 1
    minval_is_zero = isinstance(minval, (int, float)) and not isinstance(minval, bool) and minval == 0
    maxval_is_one = isinstance(maxval, (int, float)) and not isinstance(maxval, bool) and maxval == 1
    shape_t = _shape_tensor(shape)
    minval_t = convert_to_tensor(minval, dtype=dtype)
    maxval_t = convert_to_tensor(maxval, dtype=dtype)
    attrs = _seed_attrs(seed)
    if dtype.is_integer:
        return execute1("RandomUniformInt", [shape_t, minval_t, maxval_t], dict(Tout=dtype, **attrs))
    rnd = execute1("RandomUniform", [shape_t], dict(dtype=dtype, **attrs))
    if minval_is_zero:
        return rnd if maxval_is_one else execute1("Mul", [rnd, maxval_t])
    return execute1("AddV2", [execute1("Mul", [rnd, execute1("Sub", [maxval_t, minval_t])]), minval_t])


def shuffle(value, seed=None, name=None):
    """tf.random.shuffle: a random permutation of `value` along its first dimension."""
    value = convert_to_tensor(value)
    return execute1("RandomShuffle", [value], _seed_attrs(seed))


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """tf.random.categorical: `num_samples` class indices per row of `logits` [batch, classes]."""
    logits = convert_to_tensor(logits)
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are (tf.int32, tf.int64).")
    num_samples = convert_to_tensor(num_samples, dtype=dtypes.int32)
    return execute1("Multinomial", [logits, num_samples], dict(output_dtype=dtype, **_seed_attrs(seed)))


# TF 1.x names kept in tf.random as well.
random_normal = normal
random_uniform = uniform
random_shuffle = shuffle
