"""tf.keras.optimizers: SGD, Adam, RMSprop and Adagrad."""
from eagerflow.keras.optimizers import schedules
from eagerflow.keras._optimizers.adagrad import Adagrad
from eagerflow.keras._optimizers.adam import Adam
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.keras._optimizers.by_name import get
from eagerflow.keras._optimizers.rmsprop import RMSprop
from eagerflow.keras._optimizers.sgd import SGD

__all__ = ["Adagrad", "Adam", "Optimizer", "RMSprop", "SGD", "get", "schedules"]
