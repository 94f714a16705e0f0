"""keras.layers.Layer (Keras 2): built on tf.Module. Weights are tf.Variables named under the layer's
name scope ("dense/kernel:0"), sublayers and variables are tracked by attribute, `build` runs on the
first call, and a call on KerasTensors records a node of the functional API instead of computing."""
import threading

import numpy as np

from eagerflow.framework import dtypes, nest
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.ops import name_scope
from eagerflow.framework.tensor import Tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow import _core
from eagerflow.keras import _backend as backend, _initializers as initializers, _regularizers as regularizers
from eagerflow.keras._layers import call_info
from eagerflow.module.module import Module
from eagerflow.ops import math_ops
from eagerflow.ops.variables import Variable as _TFVariable
from eagerflow.train._checkpoint import restore_deferred as _restore_deferred  # checkpoint values for new weights

_ALLOWED_KWARGS = frozenset(["input_dim", "input_shape", "batch_input_shape", "batch_size", "weights",
                             "activity_regularizer", "autocast", "implementation"])
_BOOKKEEPING = frozenset(["_own_weights", "_tf_function_cache", "_name", "_scope_name", "_inbound_nodes",
                          "_outbound_nodes", "_eager_losses", "_callable_losses"])
_context = threading.local()  # the enclosing layer call: its `training` flag (inherited) and depth
_with_losses = []  # layers holding losses added by a call: cleared when an outermost call begins


def _to_tensor(x, dtype):
    """Layer inputs: NumPy arrays and Python numbers become tensors, floats are cast to the layer's dtype
    (Keras's autocast)."""
    if isinstance(x, (np.ndarray, np.generic, float, int, list)) and not isinstance(x, bool):
        x = convert_to_tensor(x)
    if isinstance(x, Tensor) and x.dtype.is_floating and x.dtype != dtype:
        x = math_ops.cast(x, dtype)
    return x


def shape_of(x):
    """The static shape of a tensor-like as a tuple (None for unknown dimensions), or None."""
    if isinstance(x, Tensor) or hasattr(x, "shape"):
        shape = x.shape
        return tuple(shape.as_list()) if hasattr(shape, "as_list") and shape.rank is not None else tuple(shape)
    return None


def _build_shape(x):
    """What `build` receives (Keras 2): a TensorShape, or a list of them for a list of inputs."""
    if isinstance(x, (list, tuple)):
        return [_build_shape(v) for v in x]
    if isinstance(x, dict):
        return {k: _build_shape(v) for k, v in x.items()}
    s = shape_of(x)
    return None if s is None else TensorShape(s)


def _is_keras_tensor(x):
    return getattr(x, "_is_keras_tensor", False)


def accepts_training(layer):
    """Whether the layer's `call` takes `training` (Keras passes it only to those); cached per class."""
    cls = type(layer)
    cached = cls.__dict__.get("_accepts_training_cache")
    if cached is None:
        import inspect
        try:
            params = inspect.signature(layer.call).parameters
            cached = "training" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())
        except (TypeError, ValueError):
            cached = False
        setattr(cls, "_accepts_training_cache", cached)
    return cached


class Layer(Module):
    """tf.keras.layers.Layer: subclass with `build(input_shape)` (optional) and `call(inputs)`."""

    # bookkeeping that checkpoints do not save as dependencies
    _untracked_attributes = frozenset(["_inbound_nodes", "_eager_losses", "_callable_losses",
                                       "_activity_regularizer", "_initial_weights"])

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        for key in kwargs:
            if key not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", key)
        if name is None:
            name = backend.auto_name(type(self).__name__)
        elif not isinstance(name, str):
            raise TypeError(f"Expected `name` argument to be a string, but got: {name}")
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_scope_name", name + "/")
        object.__setattr__(self, "_own_weights", [])
        object.__setattr__(self, "_inbound_nodes", [])
        object.__setattr__(self, "_eager_losses", [])
        object.__setattr__(self, "_callable_losses", [])
        self._activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        self.built = False
        self.trainable = trainable
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self.autocast = kwargs.get("autocast", True)
        self.dynamic = dynamic
        self._initial_weights = kwargs.get("weights")
        if "input_shape" in kwargs or "batch_input_shape" in kwargs or "input_dim" in kwargs:
            if "batch_input_shape" in kwargs:
                batch_shape = tuple(kwargs["batch_input_shape"])
            else:
                shape = kwargs["input_shape"] if "input_shape" in kwargs else (kwargs["input_dim"],)
                batch_shape = (kwargs.get("batch_size"),) + tuple(shape)
            self._batch_input_shape = batch_shape

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

    def __setattr__(self, key, value):
        # Variables assigned as attributes are the layer's own weights, in assignment order (Keras 2).
        if not key.startswith("__"):
            own = self.__dict__.get("_own_weights")
            if own is not None:
                for leaf in _leaves(value):
                    if isinstance(leaf, _TFVariable) and not any(leaf is w for w in own):
                        own.append(leaf)
        object.__setattr__(self, key, value)

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, use_resource=None, synchronization=None, aggregation=None, **kwargs):
        """Creates a tf.Variable owned by this layer (zeros for integer dtypes, glorot_uniform else)."""
        dtype = dtypes.as_dtype(dtype or self.__dict__.get("_dtype", dtypes.float32))
        shape = () if shape is None else tuple(shape)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        trainable = True if trainable is None else bool(trainable)
        constraint = constraint or self._per_weight(name, "constraint")
        v = _TFVariable(lambda: init(shape, dtype=dtype), dtype=dtype, trainable=trainable, name=name or "Variable",
                        constraint=constraint, shape=shape)
        own = self.__dict__.setdefault("_own_weights", [])
        if not any(v is w for w in own):
            own.append(v)
        regularizer = regularizers.get(regularizer or self._per_weight(name, "regularizer"))
        if regularizer is not None:
            self.add_loss(lambda: regularizer(v))
        return v

    def _per_weight(self, name, kind):
        """The layer's `<weight>_<kind>` attribute (kernel_regularizer, gamma_constraint, depthwise_regularizer
        for depthwise_kernel, ...): Keras layers keep their per-weight settings under these names."""
        if not name:
            return None
        found = self.__dict__.get(f"{name}_{kind}")
        if found is None and name.endswith("_kernel"):
            found = self.__dict__.get(f"{name[:-len('_kernel')]}_{kind}")
        return found

    # --- losses (regularization and add_loss) -------------------------------------------------------
    def add_loss(self, losses, **kwargs):
        """Adds loss tensors (from this call; replaced at the next outermost call) or zero-argument callables
        (evaluated whenever `losses` is read, as weight regularizers are)."""
        for loss in nest.flatten(losses):
            if loss is None:
                continue
            if callable(loss):
                self.__dict__.setdefault("_callable_losses", []).append(loss)
                continue
            graph = _core.current_graph()
            if graph is not None and graph.name == "keras_graph":
                continue  # a call on KerasTensors: there is no value to keep
            eager = self.__dict__.setdefault("_eager_losses", [])
            if not eager:
                _with_losses.append(self)
            eager.append(math_ops.cast(convert_to_tensor(loss), dtypes.float32)
                         if not isinstance(loss, Tensor) or loss.dtype != dtypes.float32 else loss)

    @property
    def losses(self):
        """This layer's and its sublayers' losses: those added by the last call, then the regularizers'."""
        out = []
        for layer in self._flatten_layers():
            out.extend(layer.__dict__.get("_eager_losses", []))
            for fn in layer.__dict__.get("_callable_losses", []):
                value = fn()
                if value is not None:
                    out.append(value if isinstance(value, Tensor) else convert_to_tensor(value, dtypes.float32))
        return out

    def _flatten_layers(self):
        """This layer, then its sublayers depth first, each once."""
        out, seen, stack = [], set(), [self]
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            out.append(layer)
            stack.extend(reversed(layer.layers if isinstance(layer, Layer) else []))
        return out

    # --- calling ---------------------------------------------------------------------------------
    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def __call__(self, *args, **kwargs):
        if args and any(_is_keras_tensor(x) for x in nest.flatten(args[0])):
            from eagerflow.keras._layers import node
            return node.symbolic_call(self, args, kwargs)
        dtype = self.__dict__.get("_dtype", dtypes.float32)
        if self.__dict__.get("autocast", True) and args:
            args = (nest.map_structure(lambda x: _to_tensor(x, dtype), args[0]),) + args[1:]
        outer = getattr(_context, "training", None)
        depth = getattr(_context, "depth", 0)
        if depth == 0 and _with_losses:
            self._clear_losses()
        takes_training = accepts_training(self)
        if kwargs.get("training") is None and outer is not None and takes_training:
            kwargs["training"] = outer
        _context.training = kwargs.get("training", outer)
        if not takes_training and "training" in kwargs:  # Keras passes it on only to a call that takes it
            del kwargs["training"]
        _context.depth = depth + 1
        try:
            with name_scope(self.name):
                if not self.__dict__.get("built", False):
                    self._maybe_build(args[0] if args else next(iter(kwargs.values()), None))
                if args:
                    self._assert_input_compatibility(args[0])
                try:
                    outputs = self.call(*args, **kwargs)
                except Exception as e:  # pylint: disable=broad-except
                    wrapped = call_info.with_call_info(self, e, args, kwargs)
                    if wrapped is None:
                        raise
                    raise wrapped from None
                if self.__dict__.get("_activity_regularizer") is not None:
                    self._add_activity_losses(outputs)
                return outputs
        finally:
            _context.training = outer
            _context.depth = depth

    def _clear_losses(self):
        tree = {id(layer) for layer in self._flatten_layers()}
        keep = []
        for layer in _with_losses:
            if id(layer) in tree:
                layer.__dict__["_eager_losses"] = []
            else:
                keep.append(layer)
        _with_losses[:] = keep

    def _add_activity_losses(self, outputs):
        from eagerflow.ops import array_ops
        for out in nest.flatten(outputs):
            loss = self._activity_regularizer(out)
            batch = math_ops.cast(array_ops.shape(out)[0], loss.dtype)
            self.add_loss(loss / batch)

    def _maybe_build(self, inputs):
        self.build(_build_shape(inputs) if inputs is not None else None)
        self.built = True
        if self.__dict__.get("_initial_weights") is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None
        _restore_deferred(self)

    def _assert_input_compatibility(self, inputs):
        """Keras's InputSpec check, before `call` (layers with requirements override it)."""

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"Please run in eager mode or implement the compute_output_shape method on "
                                  f"your layer ({type(self).__name__}).")

    # --- the functional API's view of the layer (its calls on KerasTensors) -----------------------
    def _node_shapes(self, attr):
        nodes = self.__dict__.get("_inbound_nodes", [])
        if not nodes:
            raise AttributeError(f'The layer "{self.name}" has never been called and thus has no defined '
                                 f"{attr.replace('_', ' ')}.")
        shapes = [getattr(n, attr) for n in nodes]
        if any(str(s) != str(shapes[0]) for s in shapes):
            raise AttributeError(f'The layer "{self.name}" has multiple inbound nodes, with different '
                                 f"{attr.replace('_', ' ')}s. Hence the notion of \"{attr.replace('_', ' ')}\" "
                                 f"is ill-defined for the layer. Use `get_{attr}_at(node_index)` instead.")
        return shapes[0]

    @property
    def output_shape(self):
        return self._node_shapes("output_shape")

    @property
    def input_shape(self):
        return self._node_shapes("input_shape")

    @property
    def output(self):
        nodes = self.__dict__.get("_inbound_nodes", [])
        if not nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return nodes[0].outputs

    @property
    def input(self):
        nodes = self.__dict__.get("_inbound_nodes", [])
        if not nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return nodes[0].input_tensors

    # --- tracking (Keras 2: trainable weights, then non-trainable; own ones before sublayers') -------
    def _sublayers(self):
        out, seen = [], {id(self)}
        for key, value in self.__dict__.items():
            if key in _BOOKKEEPING:
                continue
            for leaf in _leaves(value):
                if isinstance(leaf, Module) and id(leaf) not in seen:
                    seen.add(id(leaf))
                    out.append(leaf)
        return out

    def _gather(self, trainable):
        """Own variables then each sublayer's: the trainable ones (trainable=True) or the others."""
        own = self.__dict__.get("_own_weights", [])
        layer_trainable = self.__dict__.get("trainable", True)
        if trainable:
            if not layer_trainable:
                return []
            out = [v for v in own if v.trainable]
        else:
            out = [v for v in own if not v.trainable or not layer_trainable]
        for sub in self._sublayers():
            if getattr(sub, "_is_metric", False):
                continue  # a metric held by a model keeps its state out of the model's weights (Keras 2)
            if isinstance(sub, Layer):
                if trainable:
                    vs = sub._gather(True)
                elif layer_trainable:
                    vs = sub._gather(False)
                else:
                    vs = sub._gather(True) + sub._gather(False)
            else:  # a tf.Module inside a layer: its variables by their own flag
                vs = [v for v in sub.variables if bool(v.trainable and layer_trainable) == trainable]
            out.extend(vs)
        return _unique(out)

    @property
    def trainable_weights(self):
        return self._gather(True)

    @property
    def non_trainable_weights(self):
        return self._gather(False)

    @property
    def weights(self):
        return _unique(self._gather(True) + self._gather(False))

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def layers(self):
        """Direct sublayers, in the order they were assigned."""
        return [s for s in self._sublayers() if isinstance(s, Layer)]

    def get_weights(self):
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer \"{self.name}\" with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(params)} weights. "
                             f"Provided weights: {str(weights)[:50]}...")
        for v, w in zip(params, weights):
            w_shape = tuple(np.shape(w))
            if tuple(v.shape.as_list()) != w_shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape.as_list())} is not compatible "
                                 f"with provided weight shape {w_shape}.")
            v.assign(w)

    def count_params(self):
        if not self.__dict__.get("built", False):
            raise ValueError(f"You tried to call `count_params` on layer {self.name}, but the layer isn't built. "
                             "You can build it manually via: `" + self.name + ".build(batch_input_shape)`.")
        return int(sum(np.prod([d or 0 for d in v.shape.as_list()], dtype=np.int64) for v in self.weights))

    def get_config(self):
        config = {"name": self.name, "trainable": self.trainable, "dtype": self.dtype}
        if hasattr(self, "_batch_input_shape"):
            config["batch_input_shape"] = self._batch_input_shape
        return config


def _unique(variables):
    seen, out = set(), []
    for v in variables:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


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
