"""`a if test else b` becomes ag__.if_exp(test, lambda: a, lambda: b, 'test'), a cond on tensors."""
import ast

from eagerflow.autograph._converters import base


class _IfExp(base.ScopedTransformer):
    def visit_IfExp(self, node):
        text = getattr(node, "ag_source", None) or ast.unparse(node.test)
        self.generic_visit(node)
        new = base.call("if_exp", [node.test, base.lam(node.body), base.lam(node.orelse), base.const(text)])
        return ast.copy_location(new, node)


def mark_sources(body):
    """Remembers each conditional expression's test source (before other converters rewrite it)."""
    for s in body:
        for n in ast.walk(s):
            if isinstance(n, ast.IfExp):
                n.ag_source = ast.unparse(n.test)


def transform(body):
    t = _IfExp()
    return [t.visit(s) for s in body]
