"""tf.keras.Model (subclassing API only) and tf.keras.Sequential."""
import inspect

from eagerflow.keras._engine.training import TrainingMixin
from eagerflow.keras._layers.layer import Layer


def _takes_training(layer):
    """Whether the layer's call accepts `training` (Keras passes it only to those)."""
    try:
        params = inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False
    return "training" in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


class Model(TrainingMixin, Layer):
    """tf.keras.Model: a Layer whose subclasses define `call`; tracks its layers and variables.

    Only the subclassing API: `Model(inputs, outputs)` (the functional API) is not implemented;
    compile/fit/evaluate/predict come from TrainingMixin.
    """

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError("eagerflow's tf.keras.Model supports only subclassing (define `call`); "
                                      "the functional API Model(inputs, outputs) is not implemented.")
        super().__init__(**kwargs)

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` method implemented.")

    def summary(self, *args, **kwargs):
        raise NotImplementedError("Model.summary is not implemented in eagerflow.")


class Sequential(Model):
    """tf.keras.Sequential: calls its layers one after the other."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._layers = []
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. "
                             f"Received: {layer} (of type {type(layer)})")
        self._layers.append(layer)
        self.built = False

    def pop(self):
        if not self._layers:
            raise IndexError("There are no layers in the model.")
        return self._layers.pop()

    @property
    def layers(self):
        return list(self._layers)

    def build(self, input_shape=None):
        self.built = True

    def call(self, inputs, training=None):
        x = inputs
        for layer in self._layers:
            x = layer(x, training=training) if _takes_training(layer) else layer(x)
        return x


Model.__module__ = Sequential.__module__ = "keras"
