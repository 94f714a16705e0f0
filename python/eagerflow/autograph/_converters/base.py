"""AST building helpers shared by the converters."""
import ast


def name(id_, ctx=None):
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def store(id_):
    return ast.Name(id=id_, ctx=ast.Store())


def ag(attr):
    """`ag__.<attr>`"""
    return ast.Attribute(value=name("ag__"), attr=attr, ctx=ast.Load())


def call(func, args=(), keywords=()):
    if isinstance(func, str):
        func = ag(func)
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def const(v):
    return ast.Constant(value=v)


def assign(target, value):
    if isinstance(target, str):
        target = store(target)
    return ast.Assign(targets=[target], value=value)


def expr_stmt(value):
    return ast.Expr(value=value)


def lam(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                         kwarg=None, defaults=[]), body=body)


def funcdef(fname, params, body, decorators=()):
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    return ast.FunctionDef(name=fname, args=args, body=list(body) or [ast.Pass()],
                           decorator_list=list(decorators), returns=None, type_comment=None)


def tuple_(elts, ctx=None):
    return ast.Tuple(elts=list(elts), ctx=ctx or ast.Load())


def not_(e):
    return call("not_", [e])


def is_ag_call(node):
    """True for a call of an ag__ operator (generated code, not converted again)."""
    f = node.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "ag__"


def located(new_nodes, old):
    """Puts generated nodes (those without a location) on `old`'s first line, so errors raised
    in them point at the user's statement (end positions too: 3.11 reports a call's line from them)."""
    for n in new_nodes:
        for sub in ast.walk(n):
            if "lineno" in sub._attributes and getattr(sub, "lineno", None) is None:
                sub.lineno = sub.end_lineno = old.lineno
                sub.col_offset = sub.end_col_offset = getattr(old, "col_offset", 0)
    return new_nodes


class ScopedTransformer(ast.NodeTransformer):
    """NodeTransformer that leaves nested function definitions alone (they are converted on their own)."""

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef


def tf_set_order(names):
    """`names` in the order TF's generated code lists a set of them: TF iterates a set of qualified names,
    each hashing as the tuple (name, False, False), so the order follows Python's hashes of those."""
    return [n for n, _, _ in set((n, False, False) for n in names)]
