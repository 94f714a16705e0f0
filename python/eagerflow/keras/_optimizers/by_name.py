"""tf.keras.optimizers.get: an optimizer from its name."""
from eagerflow.keras._optimizers.adam import Adam
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.keras._optimizers.sgd import SGD

_BY_NAME = {"sgd": SGD, "adam": Adam}


def get(identifier):
    """An optimizer from a name ("sgd", "adam") or an Optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
