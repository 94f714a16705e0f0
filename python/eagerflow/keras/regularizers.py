"""tf.keras.regularizers."""
from eagerflow.keras._regularizers import L1, L1L2, L2, Regularizer, get, l1, l1_l2, l2

__all__ = ["L1", "L1L2", "L2", "Regularizer", "get", "l1", "l1_l2", "l2"]
