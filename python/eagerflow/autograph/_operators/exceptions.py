"""assert_stmt: `assert` on a tensor becomes tf.debugging.Assert (a runtime check in the graph)."""
from eagerflow.framework.tensor import Tensor


def assert_stmt(expression1, expression2):
    """`assert expression1, expression2()`"""
    if not callable(expression2):
        raise ValueError("{} must be a callable".format(expression2))
    if isinstance(expression1, Tensor):
        from eagerflow.ops.check_ops import Assert
        msg = expression2()
        data = msg if isinstance(msg, (list, tuple)) else ["Assertion failed" if msg is None else msg]
        return Assert(expression1, list(data))
    assert expression1, expression2()
    return None
