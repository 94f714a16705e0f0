"""tf.errors: OpError, its subclasses by error code, and the codes."""
from eagerflow.framework.errors import (ABORTED, ALREADY_EXISTS, CANCELLED, DATA_LOSS, DEADLINE_EXCEEDED,
                                        FAILED_PRECONDITION, INTERNAL, INVALID_ARGUMENT, NOT_FOUND, OK, OUT_OF_RANGE,
                                        PERMISSION_DENIED, RESOURCE_EXHAUSTED, UNAUTHENTICATED, UNAVAILABLE,
                                        UNIMPLEMENTED, UNKNOWN, AbortedError, AlreadyExistsError, CancelledError,
                                        DataLossError, DeadlineExceededError, FailedPreconditionError, InternalError,
                                        InvalidArgumentError, NotFoundError, OperatorNotAllowedInGraphError, OpError,
                                        OutOfRangeError, PermissionDeniedError, ResourceExhaustedError,
                                        UnauthenticatedError, UnavailableError, UnimplementedError, UnknownError)

__all__ = ["ABORTED", "ALREADY_EXISTS", "CANCELLED", "DATA_LOSS", "DEADLINE_EXCEEDED", "FAILED_PRECONDITION",
           "INTERNAL", "INVALID_ARGUMENT", "NOT_FOUND", "OK", "OUT_OF_RANGE", "PERMISSION_DENIED",
           "RESOURCE_EXHAUSTED", "UNAUTHENTICATED", "UNAVAILABLE", "UNIMPLEMENTED", "UNKNOWN", "AbortedError",
           "AlreadyExistsError", "CancelledError", "DataLossError", "DeadlineExceededError",
           "FailedPreconditionError", "InternalError", "InvalidArgumentError", "NotFoundError",
           "OperatorNotAllowedInGraphError", "OpError", "OutOfRangeError", "PermissionDeniedError",
           "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "UnimplementedError", "UnknownError"]
