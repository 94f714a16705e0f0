"""Whole-function conversion: runs the converters in order on a FunctionDef and wraps its body in
`with ag__.FunctionScope(...) as fscope:` (TF's shape). Nested functions are converted first."""
import ast

from eagerflow.autograph._converters import (asserts, base, break_statements, call_trees, conditional_expressions,
                                           continue_statements, control_flow, logical_expressions,
                                           return_statements, variables)
from eagerflow.autograph._pyct import analysis
from eagerflow.autograph._pyct.parser import ConversionError

TOP_OPTIONS = ("ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), "
               "internal_convert_user_code=True)")


def _check_supported(node):
    for n in analysis.scope_nodes(node):
        if n is node:
            continue
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
            raise ConversionError("generators and coroutines are not converted")
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super" and not n.args:
            raise ConversionError("zero-argument super() is not converted")


def _nested(stmts, namer):
    """Converts nested function definitions (in any block) in place."""
    for i, s in enumerate(stmts):
        if isinstance(s, ast.FunctionDef):
            try:
                _check_supported(s)
            except ConversionError:
                continue  # left as is: runs unconverted
            stmts[i] = convert(s, namer, top=False)
        elif isinstance(s, (ast.If, ast.While, ast.For, ast.With, ast.Try)):
            for block in _blocks(s):
                _nested(block, namer)


def _blocks(s):
    if isinstance(s, ast.Try):
        return [s.body, s.orelse, s.finalbody] + [h.body for h in s.handlers]
    if isinstance(s, ast.With):
        return [s.body]
    return [s.body, s.orelse]


def _lower_loops(stmts, namer):
    """break/continue lowering, innermost loops first."""
    out = []
    for s in stmts:
        if isinstance(s, (ast.If, ast.While, ast.For, ast.With, ast.Try)):
            for block in _blocks(s):
                block[:] = _lower_loops(block, namer)
        if isinstance(s, (ast.While, ast.For)):
            new = break_statements.lower_loop(s, namer)
            continue_statements.lower_body(s, namer)
            out += new
        else:
            out.append(s)
    return out


def convert(node, namer, top=True):
    """The converted FunctionDef (renamed tf__<name> at the top level)."""
    _check_supported(node)
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
            isinstance(body[0].value.value, str):
        body = body[1:]  # docstring
    # The outer function's generated names come first (fscope, do_return, ...; nested get _1).
    fscope = namer.new("fscope")
    ret = return_statements.ReturnLowering(namer) if return_statements.has_return(body) else None
    _nested(body, namer)
    globals_ = {n for s in body for x in analysis.scope_nodes(s) if isinstance(x, ast.Global) for n in x.names}
    nonlocals = {n for s in body for x in analysis.scope_nodes(s) if isinstance(x, ast.Nonlocal) for n in x.names}
    conditional_expressions.mark_sources(body)
    body = asserts.transform(body)
    body = variables.transform(body)
    body = call_trees.transform(body, fscope)
    body = conditional_expressions.transform(body)
    body = logical_expressions.transform(body)
    if ret is not None:
        body, _ = ret.lower(body, False)
    body = _lower_loops(body, namer)
    a = node.args
    params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs} | {x.arg for x in (a.vararg, a.kwarg) if x}
    live_out = {ret.do_return, ret.retval} if ret else set()
    analysis.live_in(body, live_out)
    analysis.defined(body, params | live_out | globals_ | nonlocals)
    body = control_flow.ControlFlow(namer, globals_).block(body)
    if ret:
        body = [base.assign(ret.do_return, base.const(False)),
                base.assign(ret.retval, base.call("UndefinedReturnValue"))] + body + [
            ast.Return(value=ast.Call(func=ast.Attribute(value=base.name(fscope), attr="ret", ctx=ast.Load()),
                                      args=[base.name(ret.retval), base.name(ret.do_return)], keywords=[]))]
    options = ast.parse(TOP_OPTIONS, mode="eval").body if top else base.ag("STD")
    scope = base.call("FunctionScope", [base.const(node.name), base.const(fscope), options])
    with_ = ast.With(items=[ast.withitem(context_expr=scope, optional_vars=base.store(fscope))], body=body or [ast.Pass()])
    new = ast.FunctionDef(name=("tf__" + node.name) if top else node.name, args=node.args, body=[with_],
                          decorator_list=[] if top else [base.ag("autograph_artifact")], returns=None,
                          type_comment=None)
    ast.copy_location(new, node)
    ast.copy_location(with_, node)
    base.located([new], node)
    return new
