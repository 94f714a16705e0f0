"""`and`/`or`/`not` become ag__.and_/or_/not_ (lazy operands as lambdas), which build tensor logic
when an operand is a tensor."""
import ast

from eagerflow.autograph._converters import base


class _Logical(base.ScopedTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "and_" if isinstance(node.op, ast.And) else "or_"
        values = node.values
        result = values[-1]
        for v in reversed(values[:-1]):
            result = base.call(op, [base.lam(v), base.lam(result)])
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(base.not_(node.operand), node)
        return node


def transform(body):
    t = _Logical()
    return [t.visit(s) for s in body]
