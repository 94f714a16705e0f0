"""tf.errors: OpError and its subclasses, raised from C++ error codes with TF's messages."""
from eagerflow import _core

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """The base class of errors raised while running an op."""

    def __init__(self, node_def, op, message, *args):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = args[0] if args else getattr(type(self), "_code", UNKNOWN)

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    def __str__(self):
        return self._message

    def __reduce__(self):
        return type(self), (self._node_def, self._op, self._message)


def _make(name, code, doc):
    cls = type(name, (OpError,), {"__doc__": doc, "_code": code, "__module__": __name__})

    def __init__(self, node_def=None, op=None, message="", *args):
        OpError.__init__(self, node_def, op, message, code)

    cls.__init__ = __init__
    return cls


CancelledError = _make("CancelledError", CANCELLED, "The operation was cancelled.")
UnknownError = _make("UnknownError", UNKNOWN, "Unknown error.")
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT, "An op received an invalid argument.")
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED, "A deadline expired.")
NotFoundError = _make("NotFoundError", NOT_FOUND, "A requested entity was not found.")
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS, "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED, "Permission denied.")
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED, "Some resource has been exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION, "A precondition failed.")
AbortedError = _make("AbortedError", ABORTED, "The operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE, "An operation iterated past the valid range.")
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED, "The operation is not implemented.")
InternalError = _make("InternalError", INTERNAL, "An internal error occurred.")
UnavailableError = _make("UnavailableError", UNAVAILABLE, "The runtime is unavailable.")
DataLossError = _make("DataLossError", DATA_LOSS, "Unrecoverable data loss or corruption.")
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED, "The request is not authenticated.")

_CODE_TO_CLASS = {
    c._code: c
    for c in (CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
              AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
              AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError,
              DataLossError, UnauthenticatedError)
}
_core.set_error_classes(_CODE_TO_CLASS)


def exception_type_from_error_code(error_code):
    return _CODE_TO_CLASS[error_code]


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (bool(), iteration) on a symbolic tensor that only works eagerly."""
