"""tf.config.optimizer: switches for the graph optimizer that runs on every traced function."""
from eagerflow.config._optimizer_options import get_experimental_options, set_experimental_options

__all__ = ["get_experimental_options", "set_experimental_options"]
