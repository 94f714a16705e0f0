"""tf.keras.layers: Layer and Dense."""
from eagerflow.keras._layers.dense import Dense
from eagerflow.keras._layers.layer import Layer

__all__ = ["Dense", "Layer"]
