"""DefaultStack: a per-thread stack of defaults (TF's _DefaultStack): the graph being built, the
default session, the variable-creation rule of the trace in progress."""
import contextlib
import threading


class DefaultStack(threading.local):
    def __init__(self):
        super().__init__()
        self.stack = []

    def get_default(self):
        """The innermost entry on this thread, or None."""
        return self.stack[-1] if self.stack else None

    @contextlib.contextmanager
    def get_controller(self, default):
        """Makes `default` the innermost entry while the block runs."""
        self.stack.append(default)
        try:
            yield default
        finally:
            self.stack.pop()
