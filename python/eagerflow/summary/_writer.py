"""tf.summary's writers and recording state: create_file_writer (an event file written by the C++
SummaryFileWriter on a background thread), create_noop_writer, the default writer (`as_default`,
`set_as_default`), the default step (`experimental.set_step`) and `record_if`."""
import atexit
import contextlib
import itertools
import os
import socket
import threading
import time
import weakref

from eagerflow import _core
from eagerflow.summary import _event

_state = threading.local()  # TF keeps the default writer, step and recording condition per thread
_file_ids = itertools.count()
_open_writers = weakref.WeakSet()
_DEFAULT_MAX_QUEUE = 10
_DEFAULT_FLUSH_MILLIS = 120_000


def _get(name, default=None):
    return getattr(_state, name, default)


class SummaryWriter:
    """tf.summary.SummaryWriter: the interface of the writers create_file_writer returns."""

    def set_as_default(self, step=None):
        """Makes this the default writer of this thread (and `step` the default step) until another is."""
        _state.writer = self
        if step is not None:
            _state.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        """While the block runs, summaries go to this writer (flushed when the block exits)."""
        old_writer, old_step = _get("writer"), _get("step")
        self.set_as_default(step)
        try:
            yield self
        finally:
            _state.writer = old_writer
            if step is not None:
                _state.step = old_step
            self.flush()

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def _write_event(self, record):
        pass


SummaryWriter.__module__ = "eagerflow.summary"


class _FileWriter(SummaryWriter):
    """An event file `events.out.tfevents.<time>.<host>.<pid>.<n><suffix>` in `logdir`."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        logdir = os.fspath(logdir)
        os.makedirs(logdir, exist_ok=True)
        now = time.time()
        name = (f"events.out.tfevents.{int(now)}.{socket.gethostname()}.{os.getpid()}.{next(_file_ids)}"
                f"{'.v2' if filename_suffix is None else filename_suffix}")
        self._path = os.path.join(logdir, name)
        self._writer = _core.SummaryFileWriter(
            self._path, _DEFAULT_MAX_QUEUE if max_queue is None else int(max_queue),
            _DEFAULT_FLUSH_MILLIS if flush_millis is None else int(flush_millis))
        self._closed = False
        self._writer.write(_event.header_event(float(int(now))))
        _open_writers.add(self)

    def _write_event(self, record):
        if self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")
        self._writer.write(record)

    def flush(self):
        """Writes everything recorded so far to the file."""
        if not self._closed:
            self._writer.flush()

    def close(self):
        """Flushes and closes the file; later summaries to this writer raise RuntimeError."""
        if not self._closed:
            self._closed = True
            self._writer.close()


_FileWriter.__module__ = "eagerflow.summary"


class _NoopWriter(SummaryWriter):
    """What create_noop_writer returns: summaries go nowhere."""


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    """A SummaryWriter appending events to a new file in `logdir` (created if needed)."""
    if logdir is None:
        raise ValueError("Expected logdir to be a string, got None.")
    return _FileWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer():
    return _NoopWriter()


def default_writer():
    return _get("writer")


def flush(writer=None, name=None):
    """Flushes `writer` (default: the default writer)."""
    writer = writer if writer is not None else default_writer()
    if writer is not None:
        writer.flush()


def get_step():
    """The default step set by `set_step` or `as_default(step=)` (None when unset)."""
    return _get("step")


def set_step(step):
    _state.step = step


@contextlib.contextmanager
def record_if(condition):
    """Summaries in the block are recorded only when `condition` (a bool, tensor or callable) is true."""
    old = _get("condition", True)
    _state.condition = condition
    try:
        yield
    finally:
        _state.condition = old


def recording_condition():
    condition = _get("condition", True)
    if callable(condition):
        condition = condition()
    return bool(condition)


@atexit.register
def _flush_all_at_exit():
    for writer in list(_open_writers):
        try:
            writer.close()
        except Exception:  # pylint: disable=broad-except  (exiting: nothing to report to)
            pass
