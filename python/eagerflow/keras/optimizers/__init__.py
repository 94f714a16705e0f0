"""tf.keras.optimizers: SGD and Adam (Keras 3 semantics)."""
from eagerflow.keras.optimizers import schedules
from eagerflow.keras.optimizers.adam import Adam
from eagerflow.keras.optimizers.base_optimizer import Optimizer
from eagerflow.keras.optimizers.sgd import SGD

_BY_NAME = {"sgd": SGD, "adam": Adam}


def get(identifier):
    """An optimizer from a name ("sgd", "adam") or an Optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
