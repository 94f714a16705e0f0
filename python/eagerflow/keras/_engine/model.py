"""tf.keras.Model (subclassing; `Model(inputs, outputs)` makes a Functional): summary, weights files."""
import os

from eagerflow.keras._engine.training import TrainingMixin
from eagerflow.keras._layers.layer import Layer


def _is_functional_call(args, kwargs):
    return len(args) >= 2 or (len(args) == 1 and "outputs" in kwargs) or ("inputs" in kwargs and "outputs" in kwargs)


class Model(TrainingMixin, Layer):
    """tf.keras.Model: a Layer that groups layers, with `summary` and compile/fit (TrainingMixin)."""

    _functional_class = None  # set by the functional module (which builds on this one)
    # compile's bookkeeping is no checkpoint dependency (the optimizer is)
    _untracked_attributes = Layer._untracked_attributes | {
        "loss", "compiled_loss", "compiled_metrics", "train_function", "test_function", "predict_function",
        "history"}

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

    def get_layer(self, name=None, index=None):
        """The layer called `name`, or at position `index` of `layers`."""
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: {list(l.name for l in self.layers)}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        """Prints Keras 2's table of layers, output shapes and parameter counts."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by "
                             "calling the model on a batch of data.")
        from eagerflow.keras._utils.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable, layer_range=layer_range)


    # --- weights files (TF's checkpoint format) -------------------------------------------------
    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Writes the model's weights (and its optimizer's, once compiled) as a TF checkpoint at the prefix
        `filepath`, and points the directory's `checkpoint` file at it (Keras 2's "tf" format)."""
        from eagerflow.train import Checkpoint
        from eagerflow.train._checkpoint_management import update_checkpoint_state
        filepath = os.fspath(filepath)
        if save_format == "h5" or filepath.endswith((".h5", ".keras", ".hdf5")):
            raise ImportError("`save_weights` requires h5py when saving in hdf5, but h5py is not available. Try "
                              "installing h5py package.")
        if save_format not in (None, "tf"):
            raise ValueError(f'Unknown format. Received: `save_format`={save_format}. Was expecting one of '
                             '{"tf", "h5"}.')
        Checkpoint(root=self).write(filepath)
        update_checkpoint_state(os.path.dirname(filepath), filepath)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, options=None):
        """Restores weights saved by `save_weights` (or by TF): weights not built yet get their values when
        they are created. Returns the restore status."""
        from eagerflow.train import Checkpoint
        filepath = os.fspath(filepath)
        if filepath.endswith((".h5", ".keras", ".hdf5")):
            raise ImportError("`load_weights` requires h5py package when loading weights from HDF5. Try "
                              "installing h5py.")
        if by_name:
            raise NotImplementedError("Weights may only be loaded based on topology into Models when loading "
                                      "TensorFlow-formatted weights (got by_name=True to load_weights).")
        return Checkpoint(root=self).read(filepath)


Model.__module__ = "keras"
