"""tf.random.Generator: Philox random numbers from a state variable (int64 [counter_lo,
counter_hi, key]). Each draw reads the state and moves its counter (RngReadAndSkip) and runs a
stateless V2 op on the old key and counter, so the sequence equals TF's for the same seed, in
eager code and in tf.function (where the state variable is captured)."""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.building import init_scope
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.ops import array_ops
from eagerflow.ops._execute import execute1
from eagerflow.ops.random_ops import _shape_tensor
from eagerflow.ops.random_ops_util import Algorithm, convert_alg_to_int, unsupported_alg_error_msg
from eagerflow.ops.stateless_random_ops import _is_default_range
from eagerflow.ops.variables import Variable

_SEED_BIT_MASK = 0xFFFFFFFFFFFFFFFF
_STATE_SIZES = {Algorithm.PHILOX.value: 3, Algorithm.THREEFRY.value: 2, Algorithm.AUTO_SELECT.value: 3}
_COUNTER_SIZES = {Algorithm.PHILOX.value: 2, Algorithm.THREEFRY.value: 1, Algorithm.AUTO_SELECT.value: 2}


def _uint_to_int(n):
    return n - (1 << 64) if n >= 1 << 63 else n


def _state_size(alg):
    if alg not in _STATE_SIZES:
        raise ValueError(unsupported_alg_error_msg(alg))
    return _STATE_SIZES[alg]


def _state_tensor(t):
    """An int64 tensor from a state given as Python ints (unsigned 64-bit values allowed), an array
    or a tensor."""
    if isinstance(t, _core.Tensor) or hasattr(t, "_as_tensor"):
        t = t if isinstance(t, _core.Tensor) else t._as_tensor()
        return t if t.dtype == dtypes.int64 else execute1("Cast", [t], {"DstT": dtypes.int64})
    if isinstance(t, (list, tuple)):
        t = [_uint_to_int(v) if isinstance(v, int) else v for v in t]
    elif isinstance(t, int):
        t = _uint_to_int(t)
    return convert_to_tensor(np.asarray(t).astype(np.int64))


def create_rng_state(seed, alg):
    """tf.random.create_rng_state: the state of a generator seeded with `seed` (an int is cut into
    64-bit words, lowest first; an array is taken and zero-padded in front to the state size)."""
    alg = convert_alg_to_int(alg)
    size = _state_size(alg)
    if isinstance(seed, int):
        words = []
        for _ in range(size):
            words.append(_uint_to_int(seed & _SEED_BIT_MASK))
            seed >>= 64
        return convert_to_tensor(np.array(words, dtype=np.int64))
    s = _state_tensor(seed).numpy().reshape([-1])[:size]
    return convert_to_tensor(np.concatenate([np.zeros([size - s.shape[0]], np.int64), s]))


def _check_state_shape(shape, alg):
    _assert_compatible(shape, [_state_size(alg)])


def _assert_compatible(shape, expected):
    if not TensorShape(shape).is_compatible_with(expected):
        raise ValueError(f"Shapes {TensorShape(shape)} and {expected} are incompatible")


def _generator_shape(shape):
    if isinstance(shape, (tuple, list)) and not shape:
        return convert_to_tensor([], dtype=dtypes.int64)
    return _shape_tensor(shape)


class Generator:
    """tf.random.Generator: a random number generator whose state is a tf.Variable."""

    @classmethod
    def from_state(cls, state, alg):
        return cls(alg=alg, state=state)

    @classmethod
    def from_seed(cls, seed, alg=None):
        alg = convert_alg_to_int(Algorithm.PHILOX.value if alg is None else alg)
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        alg = convert_alg_to_int(Algorithm.PHILOX.value if alg is None else alg)
        state = execute1("NonDeterministicInts", [convert_to_tensor([_state_size(alg)], dtype=dtypes.int32)],
                         {"dtype": dtypes.int64})
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        alg = convert_alg_to_int(alg)
        counter, key = _state_tensor(counter), _state_tensor(key)
        _assert_compatible(counter.shape, [_state_size(alg) - 1])
        _assert_compatible(key.shape, [])
        return cls(state=array_ops.concat([counter, array_ops.reshape(key, [1])], 0), alg=alg)

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            assert (alg or state) is None
            self._state_var = self._create_variable(copy_from.state.read_value())
            self._alg = copy_from.algorithm
            return
        assert alg is not None and state is not None
        alg = convert_alg_to_int(alg)
        if isinstance(state, Variable):
            _check_state_shape(state.shape, alg)
            self._state_var = state
        else:
            state = _state_tensor(state)
            _check_state_shape(state.shape, alg)
            self._state_var = self._create_variable(state)
        self._alg = alg

    @staticmethod
    def _create_variable(state):
        return Variable(state, dtype=dtypes.int64, trainable=False, name="StateVar")

    # --- state --------------------------------------------------------------------------------
    @property
    def state(self):
        """The state variable: int64 [counter_lo, counter_hi, key] for Philox."""
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self._state_var[-1]

    def reset(self, state):
        state = _state_tensor(state)
        _assert_compatible(state.shape, [_state_size(self.algorithm)])
        self._state_var.assign(state)

    def reset_from_seed(self, seed):
        self._state_var.assign(create_rng_state(seed, self.algorithm))

    def reset_from_key_counter(self, key, counter):
        counter, key = _state_tensor(counter), _state_tensor(key)
        _assert_compatible(counter.shape, [_state_size(self.algorithm) - 1])
        _assert_compatible(key.shape, [])
        self._state_var.assign(array_ops.concat([counter, array_ops.reshape(key, [1])], 0))

    def skip(self, delta):
        """Moves the counter as drawing `delta` values would (256 blocks each); returns the old state."""
        delta = convert_to_tensor(delta)
        if delta.dtype != dtypes.int64:
            delta = execute1("Cast", [delta], {"DstT": dtypes.int64})
        alg = convert_to_tensor(self.algorithm, dtype=dtypes.int32)
        return execute1("RngReadAndSkip", [self._state_var.handle, alg, delta])

    def _prepare_key_counter(self, shape):
        delta = execute1("Prod", [shape, convert_to_tensor(0)], {"keep_dims": False})
        counter_key = self.skip(delta)
        n = _COUNTER_SIZES[self.algorithm]
        return counter_key[n:n + 1], counter_key[:n]

    def _v2(self, op, shape, dtype, extra=(), name=None):
        key, counter = self._prepare_key_counter(shape)
        alg = convert_to_tensor(self.algorithm, dtype=dtypes.int32)
        return execute1(op, [shape, key, counter, alg, *extra], {"dtype": dtype})

    # --- distributions ------------------------------------------------------------------------
    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        shape = _generator_shape(shape)
        mean = convert_to_tensor(mean, dtype=dtype)
        stddev = convert_to_tensor(stddev, dtype=dtype)
        rnd = self._v2("StatelessRandomNormalV2", shape, dtype)
        return execute1("AddV2", [execute1("Mul", [rnd, stddev]), mean])

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        shape = _generator_shape(shape)
        mean = convert_to_tensor(mean, dtype=dtype)
        stddev = convert_to_tensor(stddev, dtype=dtype)
        rnd = self._v2("StatelessTruncatedNormalV2", shape, dtype)
        return execute1("AddV2", [execute1("Mul", [rnd, stddev]), mean])

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"For integer dtype {dtype}, minval and maxval must be both `None` or both "
                                 f"non-`None`; got minval={minval} and maxval={maxval}")
        elif maxval is None:
            maxval = 1
        shape = _generator_shape(shape)
        if dtype.is_integer and minval is None:
            return self._v2("StatelessRandomUniformFullIntV2", shape, dtype)
        bounds = minval, maxval
        minval = convert_to_tensor(minval, dtype=dtype)
        maxval = convert_to_tensor(maxval, dtype=dtype)
        if dtype.is_integer:
            return self._v2("StatelessRandomUniformIntV2", shape, dtype, (minval, maxval))
        rnd = self._v2("StatelessRandomUniformV2", shape, dtype)
        if _is_default_range(*bounds):
            return rnd  # rnd * 1 + 0 is rnd, bit for bit
        return execute1("AddV2", [execute1("Mul", [rnd, execute1("Sub", [maxval, minval])]), minval])

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        return self._v2("StatelessRandomUniformFullIntV2", _generator_shape(shape), dtypes.as_dtype(dtype))

    def make_seeds(self, count=1):
        """`count` seeds for the stateless ops: a [2, count] int64 tensor (keys, then zeros)."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        return array_ops.stack([keys, execute1("ZerosLike", [keys])])

    def split(self, count=1):
        """`count` new generators, each with a fresh key and a zero counter."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        zeros = [0] * (_state_size(self.algorithm) - 1)
        return [Generator(state=array_ops.concat([convert_to_tensor(zeros, dtype=dtypes.int64),
                                                  array_ops.reshape(k, [1])], 0), alg=self.algorithm)
                for k in array_ops.unstack(keys, num=count)]


_global_generator = None


def get_global_generator():
    """tf.random.get_global_generator: the global Generator (created from a random state)."""
    global _global_generator
    if _global_generator is None:
        with init_scope():
            _global_generator = Generator.from_non_deterministic_state()
    return _global_generator


def set_global_generator(generator):
    """tf.random.set_global_generator: replaces the global Generator."""
    global _global_generator
    _global_generator = generator
