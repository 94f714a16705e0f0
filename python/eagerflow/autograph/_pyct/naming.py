"""Fresh names for generated symbols that clash with none of the function's names."""
import ast


class Namer:
    """Hands out `base`, `base_1`, `base_2`, ... skipping names used in the source (TF's scheme)."""

    def __init__(self, node):
        self.used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        self.used |= {n.arg for n in ast.walk(node) if isinstance(n, ast.arg)}
        self.used |= {n.name for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}

    def new(self, base):
        name, i = base, 0
        while name in self.used:
            i += 1
            name = "%s_%d" % (base, i)
        self.used.add(name)
        return name
