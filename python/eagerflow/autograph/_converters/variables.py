"""Variable loads become `ag__.ld(name)`, which raises a clear error for undefined symbols."""
import ast

from eagerflow.autograph._converters import base


class _Loads(base.ScopedTransformer):
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id != "ag__" and not getattr(node, "ag_no_ld", False):
            return ast.copy_location(base.call("ld", [node]), node)
        return node

    def visit_Lambda(self, node):  # lambda parameters are wrapped too (harmless, as TF does)
        self.generic_visit(node)
        return node

    def visit_AugAssign(self, node):
        # TF reads a name target first (`x = ag__.ld(x)`) and leaves the statement itself as written.
        if isinstance(node.target, ast.Name):
            read = base.assign(node.target.id, base.call("ld", [base.name(node.target.id)]))
            return [ast.copy_location(read, node), node]
        node.value = self.visit(node.value)
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
    out = []
    for s in body:
        r = _Loads().visit(s)
        out.extend(r if isinstance(r, list) else [r])
    return out
