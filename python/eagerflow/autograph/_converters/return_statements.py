"""`return` lowering: a function body that returns from inside control flow becomes straight-line
code that sets `do_return`/`retval_` (TF's names); statements after a conditional return move into
the other branch or under `if not do_return`, and a return inside a loop also breaks out of it."""
import ast

from eagerflow.autograph._converters import base

_COMPOUND = (ast.If, ast.While, ast.For, ast.With, ast.Try)


def has_return(stmts):
    for s in stmts:
        for n in _walk_scope(s):
            if isinstance(n, ast.Return):
                return True
    return False


def _walk_scope(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(n))


class ReturnLowering:
    def __init__(self, namer):
        self.do_return = namer.new("do_return")
        self.retval = namer.new("retval_")

    def _ret(self, node):
        """try: do_return = True; retval_ = value  except: do_return = False; raise"""
        value = node.value if node.value is not None else base.const(None)
        t = ast.Try(body=[base.assign(self.do_return, base.const(True)), base.assign(self.retval, value)],
                    handlers=[ast.ExceptHandler(type=None, name=None,
                                                body=[base.assign(self.do_return, base.const(False)), ast.Raise()])],
                    orelse=[], finalbody=[])
        return base.located([t], node)

    def _guard(self, rest, node):
        if not rest:
            return []
        return base.located([ast.If(test=base.not_(base.name(self.do_return)), body=rest, orelse=[])], node)

    def lower(self, stmts, in_loop):
        """(new statements, whether every path through them returns)."""
        out = []
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(s, ast.Return):
                out += self._ret(s)
                if in_loop:
                    out.append(ast.copy_location(ast.Break(), s))
                return out, True
            if not isinstance(s, _COMPOUND) or not has_return([s]):
                out.append(s)
                continue
            if isinstance(s, ast.If):
                body, b_all = self.lower(s.body, in_loop)
                orelse, e_all = self.lower(s.orelse, in_loop)
                if b_all and e_all:
                    out.append(ast.copy_location(ast.If(test=s.test, body=body, orelse=orelse), s))
                    return out, True
                if not in_loop and (b_all or e_all):
                    # The statements after run only on the branch that does not return.
                    if b_all:
                        orelse, all_ = self.lower(s.orelse + rest, in_loop)
                    else:
                        body, all_ = self.lower(s.body + rest, in_loop)
                    out.append(ast.copy_location(ast.If(test=s.test, body=body, orelse=orelse), s))
                    return out, all_
                out.append(ast.copy_location(ast.If(test=s.test, body=body, orelse=orelse), s))
            elif isinstance(s, (ast.While, ast.For)):
                s.body, _ = self.lower(s.body, True)
                out.append(s)
                if in_loop:
                    out += base.located([ast.If(test=base.name(self.do_return), body=[ast.Break()], orelse=[])], s)
                    continue
            elif isinstance(s, ast.With):
                s.body, all_ = self.lower(s.body, in_loop)
                out.append(s)
                if all_:
                    return out, True
            else:  # Try
                s.body, _ = self.lower(s.body, in_loop)
                for h in s.handlers:
                    h.body, _ = self.lower(h.body, in_loop)
                s.orelse, _ = self.lower(s.orelse, in_loop)
                out.append(s)
            if in_loop:
                continue  # the break lowering skips the rest of the iteration
            rest_l, _ = self.lower(rest, in_loop)
            out += self._guard(rest_l, s)
            return out, False
        return out, False


def transform(body, namer):
    """(new body, ReturnLowering or None when the function has no return statement)."""
    if not has_return(body):
        return body, None
    r = ReturnLowering(namer)
    new, _ = r.lower(body, False)
    return new, r
