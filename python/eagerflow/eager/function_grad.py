"""Gradients of function calls (PartitionedCall / StatefulPartitionedCall), and the helpers that
control_flow_grad.py shares: building a gradient graph by running a GraphFunction under a tape.

A call of a traced function is one tape entry whose inputs are the call's tensors followed by the
variables the function reads (the tape appends them: graphs hold variable handles as Consts). A
call recorded by ConcreteFunction also returns the forward values its gradient reads: the backward
function (_CallBackward with save=True, built once per function) comes from replaying the forward graph on a tape
with placeholder outputs (`_core.replay_function`), so it takes those values as inputs rather than
recomputing them. A plain call, or a gradient that reaches the saved values (higher order), uses
_CallBackward instead, which re-executes the forward nodes (`_core.inline_function`) inside the
backward function; side-effect-only nodes (assignments, prints) are not re-run.
"""
from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.framework.building import building
from eagerflow.eager.backprop import GradientTape
from eagerflow.ops import variable_registry
from eagerflow.ops._execute import execute, execute1

_Tensor = _core.Tensor


def trainable(dtype):
    """Dtypes that carry gradients through function boundaries (floating, complex, variant)."""
    dtype = dtypes.as_dtype(dtype)
    return dtype.is_floating or dtype.is_complex or dtype == dtypes.variant


def new_graph(name):
    g = _core.Graph()
    g.name = name
    return g


def dims_of(t):
    """The static shape of `t` as the placeholder form: a list (None for unknown dims) or None."""
    s = t._shape_tuple
    return None if s is None else list(s)


def placeholder_like(g, t, name="Placeholder", dims=False):
    ph = g.add_placeholder(t._dtype_enum, dims_of(t) if dims is False else dims, name)
    if t._dtype_enum == dtypes.resource._type_enum:
        _core.share_handle_value(ph, t)  # reads of it keep the variable's shape
    return ph


def own(g, t):
    """`t` as a tensor of graph `g` (an Identity of eager or outer values), for function outputs."""
    if isinstance(t, _Tensor) and t._is_symbolic and t.graph is not None and t.graph._graph.id == g.id:
        return t
    with building(g):
        return execute1("Identity", [t])


def zeros_like(t):
    return execute1("ZerosLike", [t])


def variable_of(handle):
    """The variable behind resource tensor `handle`: an eager handle, or a variable argument's
    placeholder (a variable of the spec it was traced with); None when unknown."""
    h = _core.handle_value_of(handle)
    return None if h is None else variable_registry.variable_of(h)


def variable_zeros(handle):
    """Zeros shaped like the variable behind resource `handle` (its gradient where it is unused)."""
    from eagerflow.ops.creation_ops import zeros
    v = variable_of(handle)
    if v is not None and v.shape.is_fully_defined():
        return zeros(v.shape, v.dtype)
    return zeros_like(execute1("ReadVariableOp", [handle], {"dtype": v.dtype if v is not None else dtypes.float32}))


def vjp(fn, args, src_pos, handles, out_pos, out_grads, run=_core.inline_function):
    """In the graph being built: re-executes GraphFunction `fn` on `args` under a tape and returns
    the gradients (None where unconnected) of its outputs `out_pos` (weighted by `out_grads`)
    w.r.t. `args[i]` for i in `src_pos`, then w.r.t. each resource handle in `handles`."""
    with GradientTape(persistent=False, watch_accessed_variables=False) as tape:
        for i in src_pos:
            tape.watch(args[i])
        for h in handles:
            tape.watch(h)
        outs = run(fn, list(args))
    if not out_pos:
        return [None] * (len(src_pos) + len(handles)), outs
    sources = [args[i] for i in src_pos] + list(handles)
    if not sources:
        return [], outs
    grads = tape.gradient([outs[j] for j in out_pos], sources, output_gradients=list(out_grads))
    return list(grads), outs


# Stateful ops whose recomputation gives the forward's value (a variable read, with no assign in
# between), and functional ops (their own bodies are checked when differentiated).
_RECOMPUTABLE_STATEFUL = {"ReadVariableOp", "If", "While", "StatefulPartitionedCall"}


def check_recomputable(f, what):
    """Raises UnimplementedError when an output of GraphFunction `f` depends on a stateful op that
    would give a different value if re-run (random ops, py_function): cond/while_loop gradients
    recompute their branches' and bodies' forward values, so the gradient would silently belong to
    another draw."""
    from eagerflow.framework import errors
    nodes = {n.name: n for n in f.graph.nodes()}
    stack = [t.name.rsplit(":", 1)[0] for t in f.outputs()]
    seen = set()
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        n = nodes[name]
        if n.stateful and n.type not in _RECOMPUTABLE_STATEFUL:
            raise errors.UnimplementedError(
                None, None, "Gradients of a %s whose result depends on the stateful op %s (%s) are not supported: "
                "its forward values would be recomputed with a different result. Draw random values outside "
                "the %s and pass them in." % (what, n.name, n.type, what))
        stack.extend(t.name.rsplit(":", 1)[0] for t in n.inputs())


_OP_TYPES = {"PartitionedCall": ("PartitionedCall", "StatefulPartitionedCall"), "If": ("StatelessIf", "If"),
             "While": ("StatelessWhile", "While")}


def function_op(graphs, kind):
    """The stateful variant of op `kind` when one of `graphs` has stateful nodes (program order)."""
    return _OP_TYPES[kind][any(bool(g.stateful_nodes()) for g in graphs)]


# ----------------------------------------------------------------------------------- calls

class _CallBackward:
    """The backward function of one forward function: inputs (forward inputs, gradients of the
    outputs in `out_pos`, then with `save` the saved forward values), outputs the gradients of the
    op inputs in `grad_pos`. Without `save` the forward nodes are re-executed inside it
    (`_core.inline_function`); with `save` they are replayed on the tape with placeholder outputs
    (`_core.replay_function`) and the values the gradient reads become inputs, which the forward
    call returns as extra outputs (`forward`): nothing is recomputed."""

    __slots__ = ("n_out", "out_pos", "grad_pos", "fn", "op", "attrs", "_saved_endpoints")

    def __init__(self, f, save=False):
        f_inputs, f_outputs = f.inputs(), f.outputs()
        handles = _core.implicit_resource_inputs([f])
        g = new_graph("__backward_" + f.name)
        replayed = []  # (placeholder, endpoint of f) per replayed value

        def replay(fn, args):
            outs, phs, endpoints = _core.replay_function(fn, args)
            replayed.extend(zip(phs, endpoints))
            return outs
        with building(g):
            xs = [placeholder_like(g, t) for t in f_inputs]
            self.out_pos = [j for j, o in enumerate(f_outputs) if trainable(o.dtype)]
            gs = [placeholder_like(g, f_outputs[j]) for j in self.out_pos]
            # Resource inputs are variables passed as arguments: their reads have gradients.
            src_pos = [i for i, x in enumerate(xs) if trainable(x.dtype) or x.dtype == dtypes.resource]
            grads, _ = vjp(f, xs, src_pos, handles, self.out_pos, gs, run=replay if save else _core.inline_function)
        n = len(f_inputs)
        positions = src_pos + [n + k for k in range(len(handles))]
        kept = [(p, gr) for p, gr in zip(positions, grads) if gr is not None]
        self.grad_pos = [p for p, _ in kept]
        outputs = [own(g, gr) for _, gr in kept]
        # The replayed values the gradient reads: those some node (or an output) takes as input.
        read = {t.name for node in g.nodes() for t in node.inputs()} | {t.name for t in outputs} if replayed else ()
        saved = [(ph, ep) for ph, ep in replayed if ph.name in read]
        inputs = xs + gs + [ph for ph, _ in saved]
        self.n_out = len(f_outputs)
        self.fn = _core.GraphFunction(g, inputs, outputs, g.name) if outputs else None
        self.op = function_op([g], "PartitionedCall")
        self.attrs = {"Tin": [t.dtype for t in inputs], "Tout": [t.dtype for t in outputs], "f": self.fn}
        self._saved_endpoints = [ep for _, ep in saved]

    def forward(self, f, call_op):
        """(op type, attrs) of the forward call of `f` that also returns the saved values."""
        outs = f.outputs() + self._saved_endpoints
        f_aug = _core.GraphFunction(f.graph, f.inputs(), outs, f.name)
        self._saved_endpoints = None  # the backward must not keep f's graph alive through them
        _core.function_grad_cache_set([f_aug], "saved", self)
        return call_op, {"Tin": [t.dtype for t in f.inputs()], "Tout": [t.dtype for t in outs], "f": f_aug}


def call_backward(f):
    """The cached _CallBackward of GraphFunction `f` (recomputing its forward values)."""
    b = _core.function_grad_cache_get([f], "call")
    if b is None:
        b = _CallBackward(f)
        _core.function_grad_cache_set([f], "call", b)
    return b


def saving_call(f, call_op):
    """(op type, attrs, number of f's own outputs) of a call of GraphFunction `f` recorded on a tape:
    the call also returns the forward values its gradient needs (built once per function)."""
    b = _CallBackward(f, save=True)
    op, attrs = b.forward(f, call_op)
    return op, attrs, b.n_out


def _call_grad(op, *grads):
    f = op.get_attr("f")
    saved = _core.function_grad_cache_get([f], "saved")
    if saved is not None and all(g is None for g in grads[saved.n_out:]):
        # The forward returned the values its backward reads: feed them (op.outputs after f's own).
        return _run_backward(saved, f, op, grads, list(op.outputs[saved.n_out:]))
    # A plain call, or gradients reaching the saved values (higher order): recompute in the backward.
    return _run_backward(call_backward(f), f, op, grads, [])


def _run_backward(b, f, op, grads, extra):
    """Calls backward function `b` on the call's inputs, its output gradients and `extra`, and
    places the results at the entry's input positions."""
    inputs = op.inputs
    result = [None] * len(inputs)
    if b.fn is None:
        return result
    n = len(f.inputs())
    outs = op.outputs
    gs = [grads[j] if grads[j] is not None else zeros_like(outs[j]) for j in b.out_pos]
    res = execute(b.op, list(inputs[:n]) + gs + extra, b.attrs)
    place = entry_positions(inputs, n, _core.implicit_resource_inputs([f]))
    for p, r in zip(b.grad_pos, res):
        q = place(p)
        if q is not None:
            result[q] = r
    return result


def entry_positions(inputs, n, handles):
    """Maps a position over (the first `n` op inputs, then every handle of the functions) to the
    entry's input position: the tape appended only the watched handles after the n inputs."""
    where = {_core.tensor_key(h): n + m for m, h in enumerate(inputs[n:])}
    keys = [_core.tensor_key(h) for h in handles]

    def place(p):
        return p if p < n else where.get(keys[p - n])
    return place


_call_grad.accepts_none_gradients = True  # None for outputs without gradient (saved values)
RegisterGradient("PartitionedCall")(_call_grad)
RegisterGradient("StatefulPartitionedCall")(_call_grad)
