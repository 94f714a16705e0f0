"""tf.keras.Model (subclassing; `Model(inputs, outputs)` makes a Functional) and tf.keras.Sequential."""
from eagerflow.keras._engine.training import TrainingMixin
from eagerflow.keras._layers.layer import Layer


def _is_functional_call(args, kwargs):
    return len(args) >= 2 or (len(args) == 1 and "outputs" in kwargs) or ("inputs" in kwargs and "outputs" in kwargs)


class Model(TrainingMixin, Layer):
    """tf.keras.Model: a Layer that groups layers, with `summary` and compile/fit (TrainingMixin)."""

    _functional_class = None  # set by the functional module (which builds on this one)

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            return super().__new__(Model._functional_class)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if _is_functional_call(args, kwargs):
            raise NotImplementedError("A subclass of tf.keras.Model that passes inputs and outputs to "
                                      "super().__init__ is not supported by eagerflow; build the functional model "
                                      "with tf.keras.Model(inputs, outputs).")
        super().__init__(*args, **kwargs)

    def call(self, inputs, training=None, mask=None):
        raise NotImplementedError("Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with "
                                  "the Functional API, please provide `inputs` and `outputs` arguments. Otherwise, "
                                  "subclass `Model` with an overridden `call()` method.")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        """Prints Keras 2's table of layers, output shapes and parameter counts."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                             "calling the model on a batch of data.")
        from eagerflow.keras._utils.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable, layer_range=layer_range)


Model.__module__ = "keras"
