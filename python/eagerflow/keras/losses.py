"""tf.keras.losses: regression and cross-entropy losses, as classes and functions."""
from eagerflow.keras._losses import (MAE, MSE, BinaryCrossentropy, CategoricalCrossentropy, Loss,  # noqa: F401
                                     MeanAbsoluteError, MeanSquaredError, SparseCategoricalCrossentropy,
                                     binary_crossentropy, categorical_crossentropy, mae, mean_absolute_error,
                                     mean_squared_error, mse, sparse_categorical_crossentropy)

__all__ = ["BinaryCrossentropy", "CategoricalCrossentropy", "Loss", "MAE", "MSE", "MeanAbsoluteError",
           "MeanSquaredError", "SparseCategoricalCrossentropy", "binary_crossentropy", "categorical_crossentropy",
           "mae", "mean_absolute_error", "mse", "sparse_categorical_crossentropy"]
