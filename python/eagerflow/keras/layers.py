"""tf.keras.layers: Layer, Dense, the convolutions, pooling and Flatten."""
from eagerflow.keras._layers.activation import LeakyReLU, ReLU, Softmax
from eagerflow.keras._layers.conv import Conv1D, Conv2D
from eagerflow.keras._layers.conv_variants import Conv2DTranspose, DepthwiseConv2D, SeparableConv2D
from eagerflow.keras._layers.core import Activation, Dropout, Embedding, Lambda, Reshape
from eagerflow.keras._layers.dense import Dense
from eagerflow.keras._layers.input_layer import Input, InputLayer
from eagerflow.keras._layers.layer import Layer
from eagerflow.keras._layers import op_lambda as _op_lambda  # noqa: F401 (KerasTensor operators)
from eagerflow.keras._layers.merging import Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract
from eagerflow.keras._layers.normalization import BatchNormalization, LayerNormalization
from eagerflow.keras._layers.pooling import AveragePooling1D, AveragePooling2D, MaxPooling1D, MaxPooling2D
from eagerflow.keras._layers.reshaping import (Flatten, GlobalAveragePooling1D, GlobalAveragePooling2D,
                                              GlobalMaxPooling1D, GlobalMaxPooling2D)

GlobalAvgPool2D = GlobalAveragePooling2D
GlobalMaxPool2D = GlobalMaxPooling2D
MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
Convolution2DTranspose = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D

__all__ = ["Input", "InputLayer", "Activation", "Add", "Average", "AveragePooling1D", "Concatenate", "Conv1D",
           "GlobalAveragePooling1D", "GlobalMaxPooling1D", "MaxPooling1D", "Maximum", "Minimum", "Multiply", "Subtract",
           "AveragePooling2D", "AvgPool2D", "Convolution2DTranspose", "SeparableConvolution2D", "BatchNormalization",
           "Conv2D", "Conv2DTranspose", "DepthwiseConv2D", "SeparableConv2D", "Dense", "Dropout", "Embedding", "Lambda",
           "LayerNormalization", "Reshape", "Flatten", "GlobalAvgPool2D", "GlobalAveragePooling2D", "GlobalMaxPool2D",
           "GlobalMaxPooling2D", "Layer", "MaxPool2D", "MaxPooling2D", "LeakyReLU", "ReLU", "Softmax"]
