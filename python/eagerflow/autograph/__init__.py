"""tf.autograph: converts Python control flow in functions into graph control flow."""
from eagerflow.autograph import experimental
from eagerflow.autograph._impl.api import StagingError, to_code, to_graph  # noqa: F401
from eagerflow.autograph._utils.ag_logging import set_verbosity, trace

__all__ = ["experimental", "set_verbosity", "to_code", "to_graph", "trace"]
