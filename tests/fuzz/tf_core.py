"""Stands in for eagerflow._core when dumped calls run under TensorFlow (differential runs only):
execute(op, inputs, attrs) becomes tf.raw_ops.<op>(...), the flat inputs given to the op's input
args in order (a variadic arg takes what the others leave), attrs TF infers (T, N) dropped."""
import inspect

import tensorflow as tf
from tensorflow.python.framework import op_def_registry


class MissingOp(Exception):
    """The op does not exist in TF (the differential runner skips such calls)."""


def get_op(name):
    return name


def execute(op, inputs, attrs=None, name=None):
    op_def = op_def_registry.get(op)
    if op_def is None or not hasattr(tf.raw_ops, op):
        raise MissingOp(op)
    inputs, attrs = list(inputs), dict(attrs or {})
    args = list(op_def.input_arg)
    variadic = [a for a in args if a.number_attr or a.type_list_attr]
    rest = len(inputs) - (len(args) - len(variadic))
    if rest < 0 or (not variadic and rest > 0) or len(variadic) > 1:
        raise TypeError(f"{op} takes {len(args)} inputs, got {len(inputs)}")
    kwargs, pos = {}, 0
    for a in args:
        n = rest if (a.number_attr or a.type_list_attr) else None
        kwargs[a.name] = inputs[pos:pos + n] if n is not None else inputs[pos]
        pos += 1 if n is None else n
    fn = getattr(tf.raw_ops, op)
    params = inspect.signature(fn).parameters
    kwargs.update({k: v for k, v in attrs.items() if k in params and k not in kwargs})
    return fn(**kwargs)
