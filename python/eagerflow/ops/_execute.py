"""The Python side of the one dispatch path: look an op up once, then execute it in C++."""
from eagerflow import _core

_OPS = {}


def op_def(name):
    """The registered OpDef for a TF op type name (cached)."""
    d = _OPS.get(name)
    if d is None:
        d = _OPS[name] = _core.get_op(name)
    return d


def execute(name, inputs, attrs=None):
    """Runs op `name` and returns its list of outputs."""
    return _core.execute(op_def(name), inputs, attrs)


def execute1(name, inputs, attrs=None):
    """Runs single-output op `name` and returns the output tensor."""
    return _core.execute1(op_def(name), inputs, attrs)


convert_to_tensor = _core.convert_to_tensor  # (value, dtype_hint_enum=None), fast C++ path
