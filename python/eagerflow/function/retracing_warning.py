"""TF's "triggered tf.function retracing" warning: per Python function (shared by every
tf.function wrapping it, so re-wrapping in a loop is caught), when 5 of the last calls traced."""
import weakref

from eagerflow.framework.tf_logging import get_logger

THRESHOLD = 5          # tracing calls in the window that trigger the warning
MAX_CALL_HISTORY = 10  # calls the window spans (older tracing calls drop out)
MAX_WARNINGS = 2       # per Python function


class _Detector:
    __slots__ = ("calls_per_tracing", "call_count", "warnings")

    def __init__(self):
        self.calls_per_tracing = []  # calls since (and including) each tracing call in the window
        self.call_count = 0
        self.warnings = 0

    def called_with_tracing(self, function_name):
        self.call_count += 1
        self.calls_per_tracing.append(1)
        while self.calls_per_tracing and self.call_count - self.calls_per_tracing[0] > MAX_CALL_HISTORY:
            self.call_count -= self.calls_per_tracing.pop(0)
        if self.warnings >= MAX_WARNINGS or len(self.calls_per_tracing) < THRESHOLD:
            return
        self.warnings += 1
        get_logger().warning(
            "{} out of the last {} calls to {} triggered tf.function retracing. Tracing is expensive and the "
            "excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) "
            "passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), please "
            "define your @tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True option "
            "that can avoid unnecessary retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details.".format(
                len(self.calls_per_tracing), self.call_count, function_name))

    def called_without_tracing(self, n=1):
        # get_concrete_function traces without a call, so the first call may not trace.
        if not self.calls_per_tracing:
            self.calls_per_tracing = [0]
        self.calls_per_tracing[-1] += n
        self.call_count += n


_detectors = weakref.WeakKeyDictionary()
_strong = {}  # keys that cannot be weakly referenced


def key_for(python_function):
    """The code object of the underlying function (bound methods and partials unwrapped)."""
    f = python_function
    while hasattr(f, "__wrapped__"):
        f = f.__wrapped__
    while hasattr(f, "func"):  # functools.partial
        f = f.func
    if hasattr(f, "__func__"):
        f = f.__func__
    return getattr(f, "__code__", python_function)


def detector(key):
    try:
        d = _detectors.get(key)
        if d is None:
            d = _detectors[key] = _Detector()
    except TypeError:
        d = _strong.setdefault(id(key), _Detector())
    return d
