"""`assert test, msg` becomes ag__.assert_stmt(test, lambda: msg): a runtime assertion on tensors."""
import ast

from eagerflow.autograph._converters import base


class _Asserts(base.ScopedTransformer):
    def visit_Assert(self, node):
        msg = node.msg if node.msg is not None else base.const(None)
        new = base.expr_stmt(base.call("assert_stmt", [node.test, base.lam(msg)]))
        return ast.copy_location(new, node)


def transform(body):
    t = _Asserts()
    return [t.visit(s) for s in body]
