"""tf.autograph: converts Python control flow in functions into graph control flow."""
from eagerflow.autograph import experimental  # noqa: F401
from eagerflow.autograph.impl.api import StagingError, do_not_convert, to_code, to_graph  # noqa: F401


def set_verbosity(level, alsologtostdout=False):
    """Accepted for compatibility (AutoGraph logging is not implemented)."""


def trace(*args):
    """tf.autograph.trace: prints its arguments while tracing."""
    print(*args)
