"""`break` lowering: `break` sets a `break_` flag and skips the rest of the iteration (continue);
the loop condition (while) or extra test (for) checks the flag; a loop's `else` runs if not set."""
import ast

from eagerflow.autograph._converters import base


def _replace(stmts, flag):
    """Replaces this loop's breaks in `stmts` (not those of nested loops); True if any."""
    found = False
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Break):
            stmts[i:i + 1] = base.located([base.assign(flag, base.const(True)), ast.Continue()], s)
            found = True
        elif isinstance(s, ast.If):
            found |= _replace(s.body, flag)
            found |= _replace(s.orelse, flag)
        elif isinstance(s, ast.With):
            found |= _replace(s.body, flag)
        elif isinstance(s, ast.Try):
            for b in [s.body, s.orelse, s.finalbody] + [h.body for h in s.handlers]:
                found |= _replace(b, flag)
    return found


def _has_break(stmts):
    for s in stmts:
        if isinstance(s, ast.Break):
            return True
        if isinstance(s, ast.If) and (_has_break(s.body) or _has_break(s.orelse)):
            return True
        if isinstance(s, ast.With) and _has_break(s.body):
            return True
        if isinstance(s, ast.Try) and any(_has_break(b) for b in [s.body, s.orelse, s.finalbody] +
                                          [h.body for h in s.handlers]):
            return True
    return False


def lower_loop(loop, namer):
    """Statements replacing `loop` (flag init, the loop, its else block)."""
    orelse, loop.orelse = loop.orelse, []
    if not _has_break(loop.body):
        return [loop] + orelse
    flag = namer.new("break_")
    _replace(loop.body, flag)
    not_break = base.not_(base.name(flag))
    if isinstance(loop, ast.While):
        loop.test = ast.copy_location(base.call("and_", [base.lam(not_break), base.lam(loop.test)]), loop.test)
    else:
        loop.ag_extra_test = not_break
        # TF marks the flag as used at the top of the body with a no-op `(break_,)` (to_code shows it).
        mark = base.name(flag)
        mark.ag_no_ld = True
        loop.body.insert(0, ast.copy_location(base.expr_stmt(base.tuple_([mark])), loop))
    out = base.located([base.assign(flag, base.const(False))], loop) + [loop]
    if orelse:
        out += base.located([ast.If(test=base.not_(base.name(flag)), body=orelse, orelse=[])], loop)
    return out
