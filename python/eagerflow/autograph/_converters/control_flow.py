"""if/while/for statements become ag__.if_stmt / while_stmt / for_stmt calls over generated body
functions and get_state/set_state closures (TF's generated-code shape). Which variables a statement
carries comes from pyct.analysis (modified in the statement and live at its end or loop head)."""
import ast

from eagerflow.autograph._converters import base
from eagerflow.autograph._pyct import analysis

# Flags and return slots made by the lowering converters: listed after the user's variables.
_GENERATED = ("break_", "continue_", "do_return", "retval_")


def _order(names):
    return sorted(names, key=lambda n: (n.startswith(_GENERATED), n))


class ControlFlow:
    def __init__(self, namer, global_names):
        self.namer = namer
        self.global_names = global_names

    def _decls(self, names):
        names = base.tf_set_order(names)
        out = []
        nl = [n for n in names if n not in self.global_names]
        gl = [n for n in names if n in self.global_names]
        if gl:
            out.append(ast.Global(names=gl))
        if nl:
            out.append(ast.Nonlocal(names=nl))
        return out

    def _state_fns(self, names, kind):
        get = self.namer.new("get_state")
        set_ = self.namer.new("set_state")
        getf = base.funcdef(get, [], [ast.Return(value=base.tuple_([base.name(n) for n in names]))])
        if names:
            target = base.tuple_([base.store(n) for n in names], ast.Store())
            setf = base.funcdef(set_, ["vars_"], self._decls(names) + [ast.Assign(targets=[target],
                                                                                   value=base.name("vars_"))])
        else:
            setf = base.funcdef(set_, ["block_vars"], [ast.Pass()])
        return get, set_, [getf, setf]

    def _undefined(self, names, defined):
        """`x = ag__.Undefined('x')` for each name the statement may bind that is not yet defined (TF declares
        every one, loop-local ones too, in its set order)."""
        return [base.assign(n, base.call("Undefined", [base.const(n)]))
                for n in base.tf_set_order(set(names) - set(defined))]

    def block(self, stmts):
        out = []
        for s in stmts:
            if isinstance(s, ast.If):
                out += base.located(self._if(s), s)
            elif isinstance(s, ast.While):
                out += base.located(self._while(s), s)
            elif isinstance(s, ast.For):
                out += base.located(self._for(s), s)
            else:
                if isinstance(s, (ast.With, ast.Try)):
                    s.body = self.block(s.body)
                    if isinstance(s, ast.Try):
                        s.orelse, s.finalbody = self.block(s.orelse), self.block(s.finalbody)
                        for h in s.handlers:
                            h.body = self.block(h.body)
                out.append(s)
        return out

    def _if(self, node):
        mod = analysis.modified(node.body) | analysis.modified(node.orelse)
        live = node.ag_live_out | node.ag_live_in_body | node.ag_live_in_orelse
        names = _order(mod & live)
        body, orelse = self.block(node.body), self.block(node.orelse)
        get, set_, fns = self._state_fns(names, "if")
        if_body = self.namer.new("if_body")
        else_body = self.namer.new("else_body")
        fns.append(base.funcdef(if_body, [], self._decls(names) + body))
        fns.append(base.funcdef(else_body, [], self._decls(names) + (orelse or [ast.Pass()])))
        call = base.call("if_stmt", [node.test, base.name(if_body), base.name(else_body), base.name(get),
                                     base.name(set_), base.tuple_([base.const(n) for n in names]),
                                     base.const(len(names))])
        return fns + self._undefined(mod, node.ag_defined_in) + [base.expr_stmt(call)]

    def _while(self, node):
        mod = analysis.modified(node.body)
        names = _order(mod & node.ag_live_head)
        body = self.block(node.body)
        get, set_, fns = self._state_fns(names, "loop")
        loop_body = self.namer.new("loop_body")
        loop_test = self.namer.new("loop_test")
        opts, body = _loop_options(body)
        fns.append(base.funcdef(loop_body, [], self._decls(names) + body))
        fns.append(base.funcdef(loop_test, [], [ast.Return(value=node.test)]))
        call = base.call("while_stmt", [base.name(loop_test), base.name(loop_body), base.name(get), base.name(set_),
                                        base.tuple_([base.const(n) for n in names]), opts])
        return fns + self._undefined(mod, node.ag_defined_in) + [base.expr_stmt(call)]

    def _for(self, node):
        targets = analysis.modified([ast.Assign(targets=[node.target], value=base.const(None))])
        mod = analysis.modified(node.body)
        names = _order((mod & node.ag_live_head) - targets)
        body = self.block(node.body)
        get, set_, fns = self._state_fns(names, "loop")
        loop_body = self.namer.new("loop_body")
        itr = self.namer.new("itr")
        opts, body = _loop_options(body)
        bind = ast.Assign(targets=[_store_target(node.target)], value=base.name(itr))
        fns.append(base.funcdef(loop_body, [itr], self._decls(names) + [ast.copy_location(bind, node)] + body))
        extra = getattr(node, "ag_extra_test", None)
        if extra is not None:
            extra_test = self.namer.new("extra_test")
            fns.append(base.funcdef(extra_test, [], self._decls(names) + [ast.Return(value=extra)]))
            extra = base.name(extra_test)
        else:
            extra = base.const(None)
        opts.keys.append(base.const("iterate_names"))
        opts.values.append(base.const(", ".join(sorted(targets, key=_target_pos(node.target)))))
        call = base.call("for_stmt", [node.iter, extra, base.name(loop_body), base.name(get), base.name(set_),
                                      base.tuple_([base.const(n) for n in names]), opts])
        return fns + self._undefined(mod | targets, node.ag_defined_in) + [base.expr_stmt(call)]


def _target_pos(target):
    order = [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    return lambda n: order.index(n) if n in order else len(order)


def _store_target(t):
    if isinstance(t, ast.Name):
        return base.store(t.id)
    return t


def _loop_options(body):
    """Pulls `tf.autograph.experimental.set_loop_options(...)` calls out of a loop body into the
    operator's options dict."""
    keys, values, rest = [], [], []
    for s in body:
        c = s.value if isinstance(s, ast.Expr) else None
        f = _unwrap_converted(c) if isinstance(c, ast.Call) else None
        if f is not None and isinstance(f[0], ast.Attribute) and f[0].attr == "set_loop_options":
            for k in f[1]:
                keys.append(base.const(k[0]))
                values.append(k[1])
            continue
        rest.append(s)
    return ast.Dict(keys=keys, values=values), rest


def _unwrap_converted(c):
    """(callee, [(kwarg, value)]) of a converted_call or plain call."""
    if base.is_ag_call(c) and c.func.attr == "converted_call":
        kw = c.args[2]
        pairs = list(zip([k.value for k in kw.keys], kw.values)) if isinstance(kw, ast.Dict) else []
        return c.args[0], pairs
    return c.func, [(k.arg, k.value) for k in c.keywords]
