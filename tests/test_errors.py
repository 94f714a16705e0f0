"""tf.errors: the OpError hierarchy, codes and messages, and C++ error codes arriving as the
matching classes (including a huge allocation as ResourceExhaustedError)."""
import pickle

import pytest

import eagerflow as tf
from eagerflow import _core

CLASSES = {
    "CancelledError": 1, "UnknownError": 2, "InvalidArgumentError": 3, "DeadlineExceededError": 4,
    "NotFoundError": 5, "AlreadyExistsError": 6, "PermissionDeniedError": 7, "ResourceExhaustedError": 8,
    "FailedPreconditionError": 9, "AbortedError": 10, "OutOfRangeError": 11, "UnimplementedError": 12,
    "InternalError": 13, "UnavailableError": 14, "DataLossError": 15, "UnauthenticatedError": 16,
}
CODE_NAMES = {
    1: "CANCELLED", 2: "UNKNOWN", 3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND",
    6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED", 8: "RESOURCE_EXHAUSTED", 9: "FAILED_PRECONDITION",
    10: "ABORTED", 11: "OUT_OF_RANGE", 12: "UNIMPLEMENTED", 13: "INTERNAL", 14: "UNAVAILABLE", 15: "DATA_LOSS",
    16: "UNAUTHENTICATED",
}


@pytest.mark.parametrize("name,code", sorted(CLASSES.items(), key=lambda kv: kv[1]))
def test_class_hierarchy_and_codes(name, code):
    cls = getattr(tf.errors, name)
    assert issubclass(cls, tf.errors.OpError) and issubclass(cls, Exception)
    assert getattr(tf.errors, CODE_NAMES[code]) == code
    e = cls(None, None, "boom")
    assert e.error_code == code and e.message == "boom" and str(e) == "boom"
    assert e.op is None and e.node_def is None
    assert tf.compat.v1.errors.exception_type_from_error_code(code) is cls


def test_op_error_base():
    assert tf.errors.OK == 0
    e = tf.errors.OpError(None, None, "m", tf.errors.INVALID_ARGUMENT)
    assert e.error_code == 3 and e.message == "m"
    assert not issubclass(tf.errors.InvalidArgumentError, tf.errors.NotFoundError)
    p = pickle.loads(pickle.dumps(tf.errors.NotFoundError(None, None, "gone")))
    assert type(p) is tf.errors.NotFoundError and p.message == "gone"


def test_cpp_errors_arrive_as_tf_classes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\] \[Op:AddV2\]") as e:
        tf.constant([1, 2, 3]) + tf.constant([1, 2])
    assert e.value.error_code == tf.errors.INVALID_ARGUMENT
    with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'NoSuchOp'"):
        _core.get_op("NoSuchOp")
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[Op:StringLength\]"):
        tf.strings.length(tf.constant(1))


def test_huge_allocation_is_resource_exhausted_error():
    # A random op allocates through TensorImpl::empty, as tf.zeros does (the next test): it must fail
    # cleanly, not crash or overcommit.
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating tensor") as e:
        tf.random.normal([100000, 100000, 1000])
    assert e.value.error_code == tf.errors.RESOURCE_EXHAUSTED
    assert "[Op:RandomStandardNormal]" in e.value.message


def test_huge_zeros_is_resource_exhausted_error():
    with pytest.raises(tf.errors.ResourceExhaustedError, match="OOM when allocating tensor"):
        tf.zeros([100000, 100000, 1000])
