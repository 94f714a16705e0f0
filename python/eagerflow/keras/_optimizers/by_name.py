"""tf.keras.optimizers.get: an optimizer from its name."""
from eagerflow.keras._optimizers.adagrad import Adagrad
from eagerflow.keras._optimizers.adam import Adam
from eagerflow.keras._optimizers.base_optimizer import Optimizer
from eagerflow.keras._optimizers.rmsprop import RMSprop
from eagerflow.keras._optimizers.sgd import SGD

_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier):
    """An optimizer from a name ("sgd", "adam", "rmsprop", "adagrad") or an Optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        if identifier.lower() in _BY_NAME:
            return _BY_NAME[identifier.lower()]()
        raise ValueError(f"Unknown optimizer: '{identifier}'. Please ensure you are using a "
                         f"`keras.utils.custom_object_scope` and that this object is included in the scope. See "
                         f"https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object "
                         f"for details.")
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
