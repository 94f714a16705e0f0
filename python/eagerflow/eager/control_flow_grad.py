"""Gradients of If/StatelessIf and While/StatelessWhile (tf.cond, tf.while_loop and their AutoGraph
forms), built with the helpers of function_grad.py and cached per forward function(s).

If: an If on the same predicate whose branches are the branches' gradient functions (each branch
re-executed under a tape in a graph with placeholders for the inputs and the output gradients);
a gradient one branch does not produce is zeros there, so both branches return the same types.

While: the loop is run again with each iteration's varying loop variables pushed onto TensorLists
(accumulators), then a backward While runs the body's gradient (the body re-executed under a tape
at the values of that iteration, read back from the accumulators) from the last iteration to the
first. Loop-invariant inputs (captured tensors, passed through by the body) are loop variables of
the backward loop too, so their gradients sum over the iterations; so do the variables the body
reads. Integer loop variables (counters) get None. The predicate of an If gets None.
"""
import numpy as np

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.gradient_registry import RegisterGradient
from eagerflow.ops._execute import convert_to_tensor, execute, execute1
from eagerflow.eager.function_grad import (building, check_recomputable, dims_of, entry_positions, function_op, new_graph, own,
                                         placeholder_like, trainable, variable_of, variable_zeros, vjp, zeros_like)


def _int32(v):
    return convert_to_tensor(v, dtypes.int32._type_enum)


def dims_of_shape(shape):
    return None if shape.rank is None else shape.as_list()


def _key(t):
    return _core.tensor_key(t)


def _zeros_for_position(pos, xs, handles):
    if pos < len(xs):
        return variable_zeros(xs[pos]) if _is_resource(xs[pos]) else zeros_like(xs[pos])
    return variable_zeros(handles[pos - len(xs)])


def _is_resource(t):
    return t.dtype == dtypes.resource


def _gradient_dims(t):
    """The dims of the gradient of input `t`: a resource's is its variable's."""
    return _handle_dims(t) if _is_resource(t) else dims_of(t)


# ------------------------------------------------------------------------------------------ If

class _IfBackward:
    """Gradient branches for one (then, else) pair: inputs (branch inputs, output gradients of
    `out_pos`), outputs the gradients of the branch inputs and handles at `grad_pos`."""

    __slots__ = ("then_fn", "else_fn", "op", "out_pos", "grad_pos")

    def __init__(self, then_f, else_f, handles):
        templates = then_f.inputs()
        t_outs, e_outs = then_f.outputs(), else_f.outputs()
        self.out_pos = [j for j, o in enumerate(t_outs) if trainable(o.dtype)]
        # Resource inputs are variables passed as arguments: their reads have gradients.
        src_pos = [i for i, x in enumerate(templates) if trainable(x.dtype) or _is_resource(x)]
        positions = src_pos + [len(templates) + k for k in range(len(handles))]
        built = []
        for f in (then_f, else_f):
            check_recomputable(f, "tf.cond branch")
        for f, name in ((then_f, "then"), (else_f, "else")):
            g = new_graph("%s_%s_grad" % (f.name, name))
            with building(g):
                xs = [placeholder_like(g, t) for t in templates]
                gs = [g.add_placeholder(t_outs[j]._dtype_enum, dims_of_shape(t_outs[j].shape.most_specific_compatible_shape(e_outs[j].shape)), "grad")
                      for j in self.out_pos]
                grads, _ = vjp(f, xs, src_pos, handles, self.out_pos, gs)
            built.append((g, xs, gs, dict(zip(positions, grads))))
        self.grad_pos = [p for p in positions if any(b[3][p] is not None for b in built)]
        fns = []
        for g, xs, gs, grads in built:
            with building(g):
                outs = [grads[p] if grads[p] is not None else _zeros_for_position(p, xs, handles)
                        for p in self.grad_pos]
            outs = [own(g, t) for t in outs]
            fns.append(_core.GraphFunction(g, xs + gs, outs, g.name))
        self.then_fn, self.else_fn = fns
        self.op = function_op([b[0] for b in built], "If")


def _if_grad(op, *grads):
    then_f, else_f = op.get_attr("then_branch"), op.get_attr("else_branch")
    inputs = op.inputs
    n = len(then_f.inputs())
    handles = _core.implicit_resource_inputs([then_f, else_f])
    result = [None] * len(inputs)
    b = _core.function_grad_cache_get([then_f, else_f], "if")
    if b is None:
        b = _IfBackward(then_f, else_f, handles)
        _core.function_grad_cache_set([then_f, else_f], "if", b)
    if not b.grad_pos:
        return result
    outs = op.outputs
    gs = [grads[j] if grads[j] is not None else zeros_like(outs[j]) for j in b.out_pos]
    ins = list(inputs[1:1 + n]) + gs
    shapes = [_gradient_dims(inputs[1 + p]) if p < n else _handle_dims(handles[p - n]) for p in b.grad_pos]
    attrs = {
        "Tcond": inputs[0].dtype,
        "Tin": [t.dtype for t in ins],
        "Tout": [t.dtype for t in b.then_fn.outputs()],
        "then_branch": b.then_fn,
        "else_branch": b.else_fn,
        "output_shapes": shapes,
    }
    res = execute(b.op, [inputs[0]] + ins, attrs)
    place = entry_positions(inputs[1:], n, handles)
    for p, r in zip(b.grad_pos, res):
        q = place(p)
        if q is not None:
            result[1 + q] = r
    return result


def _handle_dims(handle):
    v = variable_of(handle)
    if v is None or v.shape.rank is None:
        return None
    return v.shape.as_list()


RegisterGradient("If")(_if_grad)
RegisterGradient("StatelessIf")(_if_grad)


# --------------------------------------------------------------------------------------- While

class _WhileBackward:
    """For one (cond, body) pair: the accumulating forward loop and the backward loop."""

    def __init__(self, cond_f, body_f, handles):
        phs, body_outs = body_f.inputs(), body_f.outputs()
        n = len(phs)
        self.n = n
        self.dtypes = [p.dtype for p in phs]
        self.dims = [dims_of(p) for p in phs]
        self.invariant = [_key(o) == _key(p) for o, p in zip(body_outs, phs)]
        self.varying = [j for j in range(n) if not self.invariant[j]]
        self.train = [j for j in range(n) if trainable(self.dtypes[j])]
        # Variables passed as arguments and read in the loop: loop-invariant resource loop vars,
        # whose gradients accumulate over the iterations like the implicit handles'.
        self.res = [j for j in range(n) if self.dtypes[j] == dtypes.resource and self.invariant[j]]
        self._templates = list(phs)
        self._build_accumulating(cond_f, body_f)
        self._build_backward(body_f, handles)

    def _build_accumulating(self, cond_f, body_f):
        """While over [count, loop vars..., accumulators...]: the forward loop that also pushes the
        varying loop vars of each iteration (their values on entry) onto TensorLists."""
        check_recomputable(cond_f, "tf.while_loop condition")
        check_recomputable(body_f, "tf.while_loop body")
        specs = [(dtypes.int32, [])] + list(zip(self.dtypes, self.dims)) + [(dtypes.variant, [])] * len(self.varying)
        fns = []
        for which in ("cond", "body"):
            g = new_graph("%s_acc_%s" % (body_f.name, which))
            with building(g):
                phs = [g.add_placeholder(d._type_enum, dims, "loop_var") for d, dims in specs]
                for j in self.res:
                    _core.share_handle_value(phs[1 + j], self._templates[j])
                count, lv, accs = phs[0], phs[1:1 + self.n], phs[1 + self.n:]
                if which == "cond":
                    outs = [_core.inline_function(cond_f, lv)[0]]
                else:
                    pushed = [execute1("TensorListPushBack", [a, lv[j]], {"element_dtype": self.dtypes[j]})
                              for a, j in zip(accs, self.varying)]
                    new_lv = _core.inline_function(body_f, lv)
                    outs = [execute1("AddV2", [count, _int32(1)])] + list(new_lv) + pushed
            fns.append((g, _core.GraphFunction(g, phs, [own(g, t) for t in outs], g.name)))
        self.acc_op = function_op([fns[0][0], fns[1][0]], "While")
        self.acc_attrs = {"T": [d for d, _ in specs], "cond": fns[0][1], "body": fns[1][1],
                          "output_shapes": [dims for _, dims in specs], "parallel_iterations": 10}

    def _build_backward(self, body_f, handles):
        """While over [i, n, grads of float loop vars..., grads of handles..., accumulators...,
        invariant loop vars...]: iteration i runs the body's gradient at forward iteration n-1-i."""
        train, varying, res = self.train, self.varying, self.res
        inv_pos = [j for j in range(self.n) if self.invariant[j]]
        specs = ([(dtypes.int32, []), (dtypes.int32, [])] + [(self.dtypes[j], self.dims[j]) for j in train]
                 + [(None, h) for h in handles] + [(None, self._templates[j]) for j in res]
                 + [(dtypes.variant, [])] * len(varying) + [(self.dtypes[j], self.dims[j]) for j in inv_pos])
        g = new_graph(body_f.name + "_grad_body")
        with building(g):
            phs = []
            for d, dims in specs:
                if d is None:  # a handle's gradient: the variable's dtype and shape
                    v = _variable(dims)
                    phs.append(g.add_placeholder(v.dtype._type_enum, v.shape.as_list()
                                                 if v.shape.rank is not None else None, "grad"))
                else:
                    phs.append(g.add_placeholder(d._type_enum, dims, "loop_var"))
            i, count = phs[0], phs[1]
            k = 2
            g_train = phs[k:k + len(train)]
            k += len(train)
            g_handles = phs[k:k + len(handles)]
            k += len(handles)
            g_res = phs[k:k + len(res)]
            k += len(res)
            accs = phs[k:k + len(varying)]
            invs = phs[k + len(varying):]
            for p, j in zip(invs, inv_pos):
                if j in res:
                    _core.share_handle_value(p, self._templates[j])
            index = execute1("Sub", [execute1("Sub", [count, _int32(1)]), i])
            values = [None] * self.n
            for a, j in zip(accs, varying):
                values[j] = execute1("TensorListGetItem", [a, index, _element_shape(self.dims[j])],
                                     {"element_dtype": self.dtypes[j]})
            for p, j in zip(invs, inv_pos):
                values[j] = p
            grads, _ = vjp(body_f, values, train + res, handles, train, g_train)
            new_train = [gr if gr is not None else zeros_like(values[j]) for gr, j in zip(grads, train)]
            res_grads, handle_grads = grads[len(train):len(train) + len(res)], grads[len(train) + len(res):]
            new_handles = [gh if gr is None else execute1("AddV2", [gh, gr]) for gh, gr in zip(g_handles, handle_grads)]
            new_res = [gh if gr is None else execute1("AddV2", [gh, gr]) for gh, gr in zip(g_res, res_grads)]
            outs = ([execute1("AddV2", [i, _int32(1)]), count] + new_train + new_handles + new_res + list(accs)
                    + list(invs))
        body = _core.GraphFunction(g, phs, [own(g, t) for t in outs], g.name)
        cg = new_graph(body_f.name + "_grad_cond")
        with building(cg):
            cphs = [placeholder_like(cg, p) for p in phs]
            cond_out = execute1("Less", [cphs[0], cphs[1]])
        cond = _core.GraphFunction(cg, cphs, [cond_out], cg.name)
        self.bwd_op = function_op([g, cg], "While")
        self.bwd_attrs = {"T": [p.dtype for p in phs], "cond": cond, "body": body,
                          "output_shapes": [dims_of(p) for p in phs], "parallel_iterations": 10}


def _element_shape(dims):
    """An element_shape input: -1 for an unknown rank, else the dims with -1 for unknown ones."""
    if dims is None:
        return _int32(-1)
    return convert_to_tensor(np.array([-1 if d is None else d for d in dims], np.int32))


def _variable(handle):
    v = variable_of(handle)
    if v is None:
        raise ValueError("While gradient: a variable read in the loop body no longer exists")
    return v


def _while_grad(op, *grads):
    cond_f, body_f = op.get_attr("cond"), op.get_attr("body")
    inputs = op.inputs
    n = len(body_f.inputs())
    handles = _core.implicit_resource_inputs([cond_f, body_f])
    result = [None] * len(inputs)
    b = _core.function_grad_cache_get([cond_f, body_f], "while")
    if b is None:
        b = _WhileBackward(cond_f, body_f, handles)
        _core.function_grad_cache_set([cond_f, body_f], "while", b)
    if not b.train and not handles and not b.res:
        return result
    loop_in = list(inputs[:n])
    empty = [execute1("EmptyTensorList", [_int32(-1), _int32(-1)],
                      {"element_dtype": b.dtypes[j], "shape_type": dtypes.int32}) for j in b.varying]
    fwd = execute(b.acc_op, [_int32(0)] + loop_in + empty, b.acc_attrs)
    count, accs = fwd[0], fwd[1 + n:]
    outs = op.outputs
    g0 = [grads[j] if grads[j] is not None else zeros_like(outs[j]) for j in b.train]
    h0 = [variable_zeros(h) for h in handles] + [variable_zeros(loop_in[j]) for j in b.res]
    invs = [loop_in[j] for j in range(n) if b.invariant[j]]
    res = execute(b.bwd_op, [_int32(0), count] + g0 + h0 + list(accs) + invs, b.bwd_attrs)
    k = 2
    for j in b.train:
        result[j] = res[k]
        k += 1
    place = entry_positions(inputs, n, handles)
    for m in range(len(handles)):
        q = place(n + m)
        if q is not None:
            result[q] = res[k]
        k += 1
    for j in b.res:
        result[j] = res[k]
        k += 1
    return result


RegisterGradient("While")(_while_grad)
RegisterGradient("StatelessWhile")(_while_grad)
