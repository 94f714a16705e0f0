"""tf.keras.losses: MeanSquaredError and the mean squared error function (Keras 3 reductions)."""
from eagerflow.keras._losses import MSE, Loss, MeanSquaredError, mean_squared_error, mse  # noqa: F401

__all__ = ["Loss", "MSE", "MeanSquaredError", "mse"]
