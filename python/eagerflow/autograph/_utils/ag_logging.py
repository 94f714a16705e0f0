"""tf.autograph.set_verbosity and tf.autograph.trace."""


def set_verbosity(level, alsologtostdout=False):
    """Accepted for compatibility (AutoGraph logging is not implemented)."""


def trace(*args):
    """tf.autograph.trace: prints its arguments while tracing."""
    print(*args)
