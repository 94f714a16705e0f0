"""Variable loads become `ag__.ld(name)`, which raises a clear error for undefined symbols."""
import ast

from eagerflow.autograph._converters import base


class _Loads(base.ScopedTransformer):
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id != "ag__":
            return ast.copy_location(base.call("ld", [node]), node)
        return node

    def visit_Lambda(self, node):  # lambda parameters are wrapped too (harmless, as TF does)
        self.generic_visit(node)
        return node

    def visit_AugAssign(self, node):  # the target stays a plain Store name
        node.value = self.visit(node.value)
        if not isinstance(node.target, ast.Name):
            node.target = self.visit(node.target)
        return node

    def visit_Call(self, node):
        # super() needs its implicit arguments: leave it unwrapped.
        if isinstance(node.func, ast.Name) and node.func.id in ("super", "locals", "globals", "vars"):
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            return node
        self.generic_visit(node)
        return node


def transform(body):
    return [_Loads().visit(s) for s in body]
