"""Static analysis on one function scope: names modified, names read, liveness after each compound
statement and names possibly defined before it. Results are attached to the If/While/For nodes
(ag_live_out, ag_live_in_body, ag_live_in_orelse, ag_live_head, ag_defined_in) for control_flow."""
import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


def scope_nodes(node):
    """Nodes under `node` in its scope (nested functions, classes, lambdas, comprehensions skipped,
    though a nested def's decorators/defaults are in this scope)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if n is not node and isinstance(n, _SCOPES):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stack.extend(n.decorator_list + n.args.defaults + [d for d in n.args.kw_defaults if d])
            elif isinstance(n, ast.Lambda):
                stack.extend(n.args.defaults)
            elif isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                stack.append(n.generators[0].iter)
            continue
        stack.extend(ast.iter_child_nodes(n))


def modified(stmts):
    """Names bound in this scope by `stmts` (assignments, loop targets, defs, imports, with-as)."""
    out = set()
    for s in stmts:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(s.name)
            continue
        for n in scope_nodes(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    out.add((a.asname or a.name).split(".")[0])
    return out


def reads(node):
    """Names read anywhere under `node`, nested scopes included (their free names are uses here)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _reads_all(nodes):
    out = set()
    for n in nodes:
        out |= reads(n)
    return out


def _kills(s):
    """Names certainly rebound by the simple statement `s`."""
    if isinstance(s, ast.Assign):
        return {t.id for t in s.targets if isinstance(t, ast.Name)} | {
            e.id for t in s.targets if isinstance(t, (ast.Tuple, ast.List)) for e in t.elts if isinstance(e, ast.Name)}
    if isinstance(s, ast.AnnAssign) and s.value is not None and isinstance(s.target, ast.Name):
        return {s.target.id}
    if isinstance(s, (ast.FunctionDef, ast.ClassDef)):
        return {s.name}
    return set()


def live_in(stmts, live_out):
    """Names live before `stmts` given those live after; annotates compound statements."""
    live = set(live_out)
    for s in reversed(stmts):
        live = _live_stmt(s, live)
    return live


def _live_stmt(s, out):
    if isinstance(s, ast.If):
        b = live_in(s.body, out)
        e = live_in(s.orelse, out)
        s.ag_live_out, s.ag_live_in_body, s.ag_live_in_orelse = set(out), b, e
        return reads(s.test) | b | e
    if isinstance(s, ast.While):
        head = set(out) | reads(s.test)
        for _ in range(8):  # fixpoint over the back edge; sets only grow
            new = set(out) | reads(s.test) | live_in(s.body, head)
            if new == head:
                break
            head = new
        live_in(s.body, head)
        e = live_in(s.orelse, out)
        s.ag_live_out, s.ag_live_head = set(out), head
        return head | e
    if isinstance(s, ast.For):
        targets = modified([ast.Assign(targets=[s.target], value=ast.Constant(None))])
        extra = getattr(s, "ag_extra_test", None)
        head = set(out) | (reads(extra) if extra is not None else set())
        for _ in range(8):
            new = head | (live_in(s.body, head) - targets)
            if new == head:
                break
            head = new
        live_in(s.body, head)
        e = live_in(s.orelse, out)
        s.ag_live_out, s.ag_live_head = set(out), head
        return head | e | reads(s.iter)
    if isinstance(s, ast.With):
        # The context expressions run first, then the `as` targets are bound, then the body.
        bound = modified([ast.Assign(targets=[i.optional_vars], value=ast.Constant(None))
                          for i in s.items if i.optional_vars is not None])
        head = live_in(s.body, out) - bound
        for i in s.items:
            head |= reads(i.context_expr)
        return head
    if isinstance(s, ast.Try):
        # Conservative: everything read in the statement is live throughout it.
        allr = set(out) | reads(s)
        for block in _blocks(s):
            live_in(block, allr)
        return allr
    return (set(out) - _kills(s)) | reads(s)


def _blocks(s):
    if isinstance(s, ast.Try):
        return [s.body, s.orelse, s.finalbody] + [h.body for h in s.handlers]
    return [s.body]


def defined(stmts, before):
    """Annotates compound statements with the names possibly defined before them; returns the
    names possibly defined after `stmts`."""
    d = set(before)
    for s in stmts:
        if isinstance(s, ast.If):
            s.ag_defined_in = set(d)
            d = defined(s.body, d) | defined(s.orelse, d)
        elif isinstance(s, (ast.While, ast.For)):
            s.ag_defined_in = set(d)
            inner = d | modified(s.body) | (modified([ast.Assign(targets=[s.target], value=ast.Constant(None))])
                                            if isinstance(s, ast.For) else set())
            defined(s.body, inner)
            d = defined(s.orelse, inner)
        elif isinstance(s, (ast.With, ast.Try)):
            inner = d | modified([s])
            for block in _blocks(s):
                defined(block, inner)
            d = inner
        else:
            d |= modified([s])
    return d
