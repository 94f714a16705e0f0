"""tf.get_logger(): the 'tensorflow' logger that warnings go to."""
import logging
import sys

_logger = None


def get_logger():
    """tf.get_logger(): the 'tensorflow' logger, printing `WARNING:tensorflow:...` to stderr by default."""
    global _logger
    if _logger is None:
        logger = logging.getLogger("tensorflow")
        if not logging.getLogger().handlers and not logger.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
            logger.addHandler(handler)
            logger.propagate = False
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.INFO)
        _logger = logger
    return _logger
