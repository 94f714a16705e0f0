"""and_, or_, not_: Python's lazy boolean operators, as tensor logic (tf.cond keeps the laziness)
when an operand is a symbolic tensor."""
from eagerflow.framework.tensor import Tensor


def _symbolic(x):
    from eagerflow.autograph._operators.control_flow import is_symbolic
    return is_symbolic(x)


def _bool_tensor(x):
    from eagerflow.framework.convert import convert_to_tensor
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def and_(a, b):
    """`a() and b()`"""
    a_val = a()
    if _symbolic(a_val):
        from eagerflow.ops import control_flow_ops
        return control_flow_ops.cond(a_val, lambda: _bool_tensor(b()), lambda: a_val)
    return a_val and b()


def or_(a, b):
    """`a() or b()`"""
    a_val = a()
    if _symbolic(a_val):
        from eagerflow.ops import control_flow_ops
        return control_flow_ops.cond(a_val, lambda: a_val, lambda: _bool_tensor(b()))
    return a_val or b()


def not_(a):
    """`not a`: logical_not for tensors."""
    if isinstance(a, Tensor):
        from eagerflow.ops.math_ops import logical_not
        return logical_not(a)
    return not a
