"""`continue` lowering: `continue` sets a `continue_` flag and the rest of the loop body runs under
`if not continue_`, so loop bodies have no jumps left."""
import ast

from eagerflow.autograph._converters import base


def _has_continue(stmts):
    for s in stmts:
        if isinstance(s, ast.Continue):
            return True
        if isinstance(s, ast.If) and (_has_continue(s.body) or _has_continue(s.orelse)):
            return True
        if isinstance(s, ast.With) and _has_continue(s.body):
            return True
        if isinstance(s, ast.Try) and any(_has_continue(b) for b in [s.body, s.orelse, s.finalbody] +
                                          [h.body for h in s.handlers]):
            return True
    return False


def _guard(stmts, flag):
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Continue):
            out += base.located([base.assign(flag, base.const(True))], s)
            return out  # the rest of the block is unreachable
        if _has_continue([s]):
            if isinstance(s, ast.If):
                s.body, s.orelse = _guard(s.body, flag), _guard(s.orelse, flag)
            elif isinstance(s, ast.With):
                s.body = _guard(s.body, flag)
            else:
                s.body, s.orelse, s.finalbody = _guard(s.body, flag), _guard(s.orelse, flag), _guard(s.finalbody, flag)
                for h in s.handlers:
                    h.body = _guard(h.body, flag)
            out.append(s)
            rest = _guard(stmts[i + 1:], flag)
            if rest:
                out += base.located([ast.If(test=base.not_(base.name(flag)), body=rest, orelse=[])], s)
            return out
        out.append(s)
    return out


def lower_body(loop, namer):
    if not _has_continue(loop.body):
        return
    flag = namer.new("continue_")
    loop.body = base.located([base.assign(flag, base.const(False))], loop) + _guard(loop.body, flag)
