"""Calls become `ag__.converted_call(f, args, kwargs, fscope)` so that user functions called from
converted code are converted too (TF's call_trees). print and generated ag__ calls stay direct."""
import ast

from eagerflow.autograph._converters import base

_DIRECT = {"print", "super", "locals", "globals", "vars", "eval", "exec"}


def _callee_name(f):
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Call) and base.is_ag_call(f) and f.func.attr == "ld" and isinstance(f.args[0], ast.Name):
        return f.args[0].id
    return None


class _Calls(base.ScopedTransformer):
    def __init__(self, fscope):
        self.fscope = fscope

    def visit_Call(self, node):
        self.generic_visit(node)
        if base.is_ag_call(node) or _callee_name(node.func) in _DIRECT:
            return node
        args = base.tuple_([a for a in node.args])
        if node.keywords:
            kwargs = ast.Dict(keys=[ast.Constant(k.arg) if k.arg else None for k in node.keywords],
                              values=[k.value for k in node.keywords])
        else:
            kwargs = base.const(None)
        new = base.call("converted_call", [node.func, args, kwargs, base.name(self.fscope)])
        return ast.copy_location(new, node)


def transform(body, fscope):
    t = _Calls(fscope)
    return [t.visit(s) for s in body]
