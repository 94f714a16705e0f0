"""tf.keras.layers: Layer (built on tf.Module: weights, sublayers, build on first call) and Dense."""
import numpy as np

from eagerflow.framework import dtypes
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.keras import activations, backend, initializers
from eagerflow.module.module import Module
from eagerflow.ops import array_ops, linalg_ops, math_ops
from eagerflow.ops.variables import Variable as _TFVariable
from eagerflow.framework import nest


def _to_tensor(x, dtype):
    """Layer inputs: NumPy arrays and Python numbers become tensors, floats are cast to the layer's dtype
    (Keras's autocast)."""
    if isinstance(x, (np.ndarray, np.generic, float, int, list)) and not isinstance(x, bool):
        x = convert_to_tensor(x)
    if isinstance(x, Tensor) and x.dtype.is_floating and x.dtype != dtype:
        x = math_ops.cast(x, dtype)
    return x


def _shape_of(x):
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
                shape = nest.map_structure(_shape_of, first) if first is not None else None
                self.build(shape)
                self.built = True
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


class Dense(Layer):
    """tf.keras.layers.Dense: activation(inputs @ kernel + bias); kernel and bias made on the first call."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 quantization_config=None, **kwargs):
        if isinstance(units, bool) or not isinstance(units, (int, np.integer)) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self._input_dim = None

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self._input_dim = input_dim
        self.kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                      initializer=self.kernel_initializer, constraint=self.kernel_constraint)
        self.bias = (self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                     constraint=self.bias_constraint) if self.use_bias else None)
        self.built = True

    def call(self, inputs, training=None):
        shape = _shape_of(inputs)
        if shape is not None and (len(shape) < 1 or shape[-1] not in (None, self._input_dim)):
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible with the layer: "
                             f"expected axis -1 of input shape to have value {self._input_dim}, but received input "
                             f"with shape {shape}")
        if shape is not None and len(shape) == 2:
            x = linalg_ops.matmul(inputs, self.kernel)
        else:  # contract the last axis: flatten the leading ones, multiply, restore them
            lead = array_ops.shape(inputs)[:-1]
            x = linalg_ops.matmul(array_ops.reshape(inputs, [-1, self._input_dim]), self.kernel)
            x = array_ops.reshape(x, array_ops.concat([lead, [self.units]], 0))
        if self.bias is not None:
            x = x + self.bias
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


Layer.__module__ = Dense.__module__ = "keras.layers"
