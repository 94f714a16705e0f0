"""tf.keras.optimizers: SGD and Adam (Keras 3 semantics)."""
from eagerflow.keras.optimizers import schedules
from eagerflow.keras._optimizers.adam import Adam
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.keras._optimizers.by_name import get
from eagerflow.keras._optimizers.sgd import SGD

__all__ = ["Adam", "Optimizer", "SGD", "get", "schedules"]
