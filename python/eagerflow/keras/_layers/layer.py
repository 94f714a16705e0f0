"""keras.layers.Layer: built on tf.Module (weights, sublayers, build on the first call)."""
import numpy as np

from eagerflow.framework import dtypes
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.keras import _backend as backend, _initializers as initializers
from eagerflow.module.module import Module
from eagerflow.ops import math_ops
from eagerflow.ops.variables import Variable as _TFVariable
from eagerflow.framework import nest
from eagerflow.train._checkpoint import restore_deferred as _restore_deferred  # checkpoint values for new weights


def _to_tensor(x, dtype):
    """Layer inputs: NumPy arrays and Python numbers become tensors, floats are cast to the layer's dtype
    (Keras's autocast)."""
    if isinstance(x, (np.ndarray, np.generic, float, int, list)) and not isinstance(x, bool):
        x = convert_to_tensor(x)
    if isinstance(x, Tensor) and x.dtype.is_floating and x.dtype != dtype:
        x = math_ops.cast(x, dtype)
    return x


def shape_of(x):
    if isinstance(x, Tensor) or hasattr(x, "shape"):
        shape = x.shape
        return tuple(shape.as_list()) if hasattr(shape, "as_list") and shape.rank is not None else tuple(shape)
    return None


class Layer(Module):
    """tf.keras.layers.Layer: subclass with `build(input_shape)` (optional) and `call(inputs)`."""

    def __init__(self, activity_regularizer=None, trainable=True, dtype=None, autocast=True, name=None, **kwargs):
        if kwargs.keys() - {"input_shape", "input_dim", "batch_size"}:
            bad = sorted(kwargs.keys() - {"input_shape", "input_dim", "batch_size"})
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{ {k: kwargs[k] for k in bad} }")
        if name is None:
            name = backend.auto_name(type(self).__name__)
        elif not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name} (of type {type(name)})")
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_scope_name", name + "/")
        self._own_weights = []
        self.built = False
        self.trainable = trainable
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self.autocast = autocast

    # --- naming and state ------------------------------------------------------------------------
    @property
    def name(self):
        n = self.__dict__.get("_name")
        if n is None:  # subclass forgot super().__init__(): give it a name now
            n = backend.auto_name(type(self).__name__)
            object.__setattr__(self, "_name", n)
        return n

    @property
    def dtype(self):
        return self.__dict__.get("_dtype", dtypes.float32).name

    @property
    def compute_dtype(self):
        return self.dtype

    @property
    def variable_dtype(self):
        return self.dtype

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True, autocast=True, regularizer=None,
                   constraint=None, aggregation="none", overwrite_with_gradient=False, name=None):
        """Creates a keras.Variable owned by this layer (zeros for integer dtypes, glorot_uniform else)."""
        dtype = dtypes.as_dtype(dtype or self.__dict__.get("_dtype", dtypes.float32))
        shape = () if shape is None else tuple(shape)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        with backend.name_scope(self.name) if not _in_own_scope(self) else _nullcontext():
            v = backend.Variable(init, shape=shape, dtype=dtype, trainable=trainable, name=name,
                                 constraint=constraint)
        self.__dict__.setdefault("_own_weights", []).append(v)
        return v

    # --- calling ---------------------------------------------------------------------------------
    def build(self, input_shape=None):
        self.built = True

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def __call__(self, *args, **kwargs):
        dtype = self.__dict__.get("_dtype", dtypes.float32)
        if self.__dict__.get("autocast", True):
            args = nest.map_structure(lambda x: _to_tensor(x, dtype), list(args))
        with backend.name_scope(self.name):
            if not self.__dict__.get("built", False):
                first = args[0] if args else next(iter(kwargs.values()), None)
                shape = nest.map_structure(shape_of, first) if first is not None else None
                self.build(shape)
                self.built = True
                _restore_deferred(self)
            return self.call(*args, **kwargs)

    # --- tracking (Keras's order: own weights in creation order, then attributes as assigned) ------
    def _walk(self, trainable, seen):
        """(variable, effective trainable) pairs, depth first, each variable once."""
        trainable = trainable and self.__dict__.get("trainable", True)
        for v in self.__dict__.get("_own_weights", []):
            if id(v) not in seen:
                seen.add(id(v))
                yield v, trainable and v.trainable
        for key, value in self.__dict__.items():
            if key.startswith("_") and key in ("_own_weights", "_tf_function_cache", "_name", "_scope_name"):
                continue
            for leaf in _leaves(value):
                if isinstance(leaf, _TFVariable):
                    if id(leaf) not in seen:
                        seen.add(id(leaf))
                        yield leaf, trainable and leaf.trainable
                elif isinstance(leaf, Layer):
                    if id(leaf) not in seen:
                        seen.add(id(leaf))
                        yield from leaf._walk(trainable, seen)
                elif isinstance(leaf, Module) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    for v in leaf.variables:
                        if id(v) not in seen:
                            seen.add(id(v))
                            yield v, trainable and v.trainable

    @property
    def variables(self):
        return [v for v, _ in self._walk(True, set())]

    @property
    def weights(self):
        return self.variables

    @property
    def trainable_variables(self):
        return [v for v, t in self._walk(True, set()) if t]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        return [v for v, t in self._walk(True, set()) if not t]

    non_trainable_weights = non_trainable_variables

    @property
    def layers(self):
        """Direct sublayers, in the order they were assigned."""
        out, seen = [], set()
        for key, value in self.__dict__.items():
            for leaf in _leaves(value):
                if isinstance(leaf, Layer) and leaf is not self and id(leaf) not in seen:
                    seen.add(id(leaf))
                    out.append(leaf)
        return out

    def get_weights(self):
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(params)} weights.")
        for v, w in zip(params, weights):
            v.assign(w)

    def count_params(self):
        return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) for v in self.weights))

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.__dict__.get('built', False)}>"


def _in_own_scope(layer):
    s = backend._stack()
    return bool(s) and s[-1] == layer.name


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _leaves(value):
    if isinstance(value, (Module, _TFVariable)):
        return [value]
    if isinstance(value, (list, tuple, dict)):
        try:
            return nest.flatten(value)
        except Exception:  # pylint: disable=broad-except
            return []
    return []


Layer.__module__ = "keras.layers"
