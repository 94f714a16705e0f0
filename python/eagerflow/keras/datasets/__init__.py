"""tf.keras.datasets: the datasets Keras downloads into its cache."""
from eagerflow.keras.datasets import mnist

__all__ = ["mnist"]
