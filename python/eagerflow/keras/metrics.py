"""tf.keras.metrics: Keras 2's stateful metrics and their functions."""
from eagerflow.keras._metrics import (Accuracy, BinaryAccuracy, CategoricalAccuracy, Mean,  # noqa: F401
                                      MeanMetricWrapper, Metric, SparseCategoricalAccuracy, Sum, accuracy,
                                      binary_accuracy, categorical_accuracy, sparse_categorical_accuracy)

__all__ = ["Accuracy", "BinaryAccuracy", "CategoricalAccuracy", "Mean", "MeanMetricWrapper", "Metric",
           "SparseCategoricalAccuracy", "Sum", "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy"]
