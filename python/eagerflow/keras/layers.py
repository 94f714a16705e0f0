"""tf.keras.layers: Layer, Dense, Conv2D, Flatten and global pooling."""
from eagerflow.keras._layers.conv import Conv2D
from eagerflow.keras._layers.dense import Dense
from eagerflow.keras._layers.layer import Layer
from eagerflow.keras._layers.reshaping import Flatten, GlobalAveragePooling2D, GlobalMaxPooling2D

GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D

__all__ = ["Conv2D", "Dense", "Flatten", "GlobalAvgPool2D", "GlobalAveragePooling2D", "GlobalMaxPool2D",
           "GlobalMaxPooling2D", "Layer"]
