"""Errors escaping a converted function's trace, re-raised as TF 2.21 does: the message becomes
"in user code:" with the user's frames and the original "Class: message", and the class is kept
where TF can rebuild it from a message (else StagingError)."""
import linecache
import os
import traceback

from eagerflow.framework import errors as _errors


class StagingError(Exception):
    """An error raised while tracing converted code that is not re-raised as its own type."""


# Built-in classes TF rebuilds from a message (exact types: subclasses may need other arguments).
_STRING_CONSTRUCTOR_ERRORS = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError,
                              StopIteration, TypeError, UnboundLocalError, ValueError)


class MultilineMessageKeyError(KeyError):
    """A KeyError whose str() is its message as is (KeyError's own quotes and escapes it)."""

    def __init__(self, message, original_key):
        super().__init__(original_key)
        self.__message = message

    def __str__(self):
        return self.__message


MultilineMessageKeyError.__name__ = KeyError.__name__

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _is_library_frame(filename):
    return filename.startswith(_PACKAGE_DIR) or filename.startswith("<")


def _user_frames(tb):
    """(filename, lineno, function name, converted?) of the frames TF shows, outermost first: the
    converted functions' frames, then every frame below the innermost one (the user's helpers,
    other libraries), eagerflow's own frames left out."""
    frames = []
    current = None  # generated bodies (if_body, loop_body, ...) show their user function's name
    for frame, lineno in traceback.walk_tb(tb):
        code = frame.f_code
        fname = code.co_filename
        if _is_library_frame(fname):
            continue
        name = code.co_name
        converted = name.startswith("tf__") or "ag__" in code.co_freevars
        if name.startswith("tf__"):
            name = current = name[4:]
        elif converted and current is not None:
            name = current
        frames.append((fname, lineno, name, converted))
    last = max((i for i, f in enumerate(frames) if f[3]), default=None)
    if last is None:
        return []
    return [f for f in frames[:last] if f[3]] + frames[last:]


def _message(frames, e):
    lines = ["in user code:", ""]
    for fname, lineno, name, converted in frames:
        lines.append('    File "%s", line %d, in %s%s' % (fname, lineno, name, "  *" if converted else ""))
        lines.append("        " + (linecache.getline(fname, lineno).strip() or "<source unavailable>"))
    lines.append("")
    lines.extend("    " + line for line in ("%s: %s" % (type(e).__name__, e)).split("\n"))
    lines.append("")
    return "\n".join(lines)


def _rebuilt(e, msg):
    """`e`'s class made with the new message, as TF's error metadata makes it, or None."""
    cls = type(e)
    try:
        if issubclass(cls, _errors.OpError):
            return cls(e.node_def, e.op, msg)
        if cls in (_errors.OperatorNotAllowedInGraphError, StagingError):
            return cls(msg)
        if cls in _STRING_CONSTRUCTOR_ERRORS or cls.__init__ is Exception.__init__:
            return cls(msg)
    except Exception:  # noqa: BLE001 - a class whose constructor wants something else
        return None
    if cls is KeyError:
        return MultilineMessageKeyError(msg, str(e))
    return None


def rewrite_error(e, tb):
    """The exception to raise for error `e` escaping a converted function's trace: TF's rebuilt
    exception, or for classes TF cannot rebuild a StagingError that is also of `e`'s class (so an
    `except IndexError` around the call still catches it; TF's is a plain StagingError)."""
    if getattr(e, "ag_rewritten", False) or getattr(e, "ag_pass_through", False):
        return e
    if "is out of scope and cannot be used here" in str(e):
        return e  # TF's InaccessibleTensorError is not rewritten either
    frames = _user_frames(tb)
    if not frames:
        return e
    msg = _message(frames, e)
    new = _rebuilt(e, msg)
    if new is None:
        try:
            new = _staging_class(type(e))(msg)
        except Exception:  # noqa: BLE001 - the class's constructor wants other arguments
            new = StagingError(msg)
    new.ag_rewritten = True
    return new


_staging_classes = {}


def _staging_class(cls):
    """StagingError that is also a `cls`, named StagingError as TF's is."""
    sub = _staging_classes.get(cls)
    if sub is None:
        try:
            sub = type("StagingError", (StagingError, cls), {"__module__": StagingError.__module__})
        except TypeError:  # a class that cannot be a second base (layout conflict)
            sub = StagingError
        else:
            sub.__qualname__ = "StagingError"
        _staging_classes[cls] = sub
    return sub
