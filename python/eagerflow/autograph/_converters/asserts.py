"""`assert test, msg` becomes ag__.assert_stmt(test, lambda: msg): a runtime assertion on tensors."""
from eagerflow.autograph._converters import base


class _Asserts(base.ScopedTransformer):
    def visit_Assert(self, node):
        msg = node.msg if node.msg is not None else base.const(None)
        new = base.expr_stmt(base.call("assert_stmt", [node.test, base.lam(msg)]))
        return base.located([new], node)[0]  # the error's frame then shows the assert's line


def transform(body):
    t = _Asserts()
    return [t.visit(s) for s in body]
