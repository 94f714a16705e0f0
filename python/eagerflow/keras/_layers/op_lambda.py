"""TFOpLambda: a TF function applied to KerasTensors, recorded as a layer of the functional model. Python
operators on KerasTensors make one directly; TF API functions reach it through the framework's fallback
dispatch, which this module registers."""
from eagerflow.framework import dispatch, nest
from eagerflow.keras import _backend as backend
from eagerflow.keras._layers import node as node_mod
from eagerflow.keras._layers.keras_tensor import KerasTensor
from eagerflow.keras._layers.layer import Layer


def _has_keras_tensor(structure):
    return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))


class TFOpLambda(Layer):
    """Wraps `function` (an operator or TF API function) called on symbolic inputs; named after the API
    (`tf.concat`, `tf.math.add`, ... as Keras 2 names them)."""

    _accepts_training_cache = False  # the call's `training` is not the function's argument
    _calls_function = True  # call errors list the arguments by the function's parameters

    def __init__(self, function, api_name, **kwargs):
        super().__init__(name=backend.auto_name(api_name, snake=False), autocast=False, **kwargs)
        self.function = function
        self.symbol = api_name

    def __call__(self, *args, **kwargs):
        # a KerasTensor in any argument makes the call symbolic (`tf.matmul(weights, x)`)
        if _has_keras_tensor((args, kwargs)) and not _has_keras_tensor(args[:1]):
            return node_mod.symbolic_call(self, args, kwargs)
        return super().__call__(*args, **kwargs)

    def call(self, *args, **kwargs):
        return self.function(*args, **kwargs)


class SlicingOpLambda(TFOpLambda):
    """`x[...]` on a KerasTensor (Keras 2 gives slicing its own class, which `summary()` shows)."""


def _dispatch_to_layer(function, api_name, args, kwargs):
    return TFOpLambda(function, "tf." + api_name)(*args, **kwargs)


dispatch.add_fallback_dispatcher(lambda args, kwargs: _has_keras_tensor((args, kwargs)), _dispatch_to_layer)


def _op(api_name, fn):
    layer_class = SlicingOpLambda if api_name == "tf.__operators__.getitem" else TFOpLambda

    def method(self, *args):
        return layer_class(fn, api_name)(self, *args)
    method.__name__ = api_name
    return method


def _install_operators():
    """Python operators on KerasTensors: each call becomes a TFOpLambda layer named after the TF API."""
    from eagerflow.ops import math_ops, linalg_ops
    import operator

    def rev(f):
        return lambda x, y: f(y, x)
    table = {
        "__add__": ("tf.__operators__.add", operator.add), "__radd__": ("tf.__operators__.add", rev(operator.add)),
        "__sub__": ("tf.math.subtract", operator.sub), "__rsub__": ("tf.math.subtract", rev(operator.sub)),
        "__mul__": ("tf.math.multiply", operator.mul), "__rmul__": ("tf.math.multiply", rev(operator.mul)),
        "__truediv__": ("tf.math.truediv", operator.truediv),
        "__rtruediv__": ("tf.math.truediv", rev(operator.truediv)),
        "__pow__": ("tf.math.pow", operator.pow), "__rpow__": ("tf.math.pow", rev(operator.pow)),
        "__matmul__": ("tf.linalg.matmul", linalg_ops.matmul),
        "__neg__": ("tf.math.negative", math_ops.negative), "__abs__": ("tf.math.abs", math_ops.abs),
        "__getitem__": ("tf.__operators__.getitem", operator.getitem),
    }
    for method, (api_name, fn) in table.items():
        setattr(KerasTensor, method, _op(api_name, fn))


_install_operators()
