"""tf.cond, tf.while_loop, tf.case, tf.switch_case.

Eagerly they run the Python callables directly. While a graph is built (tf.function, tf.Graph)
each callable is traced once into its own function graph (a FuncGraph nested in the building
graph) and one If / While node runs them in C++ (cpp/kernels/cpu/functional.cc). Tensors of
enclosing graphs (and eager tensors) a branch or body uses are captured: they become extra
inputs of the node, passed through unchanged by a loop body.
"""
import itertools

from eagerflow import _core
from eagerflow.framework import dtypes
from eagerflow.framework.convert import convert_to_tensor
from eagerflow.framework.tensor_shape import TensorShape
from eagerflow.framework.func_graph import FuncGraph
from eagerflow.ops import _execute
from eagerflow.framework import nest

_Tensor = _core.Tensor
_ids = itertools.count(1)


def _in_graph():
    return _core.current_graph() is not None


def _dims(shape):
    """A TensorShape as the C++ attr form: list of dims (None unknown) or None for unknown rank."""
    return None if shape.rank is None else list(shape.as_list())


class _Branch:
    """One traced callable: its FuncGraph, placeholders for explicit inputs, flat outputs and
    the structure they pack into."""

    def __init__(self, fn, name, input_specs=(), pack_inputs=None):
        self.graph = FuncGraph(name)
        with self.graph.as_default():
            self.placeholders = [self.graph._graph.add_placeholder(dt._type_enum, _dims(sh), "Placeholder")
                                 for dt, sh in input_specs]
            args = pack_inputs(self.placeholders) if pack_inputs else ()
            self.structured = fn(*args)
            flat = nest.flatten(self.structured)
            self.outputs = [self._to_output(x) for x in flat]

    def _to_output(self, x):
        if x is None:
            return None
        if isinstance(x, _Tensor) and x._is_symbolic and x.graph is not None and x.graph._graph is self.graph._graph:
            return x
        if hasattr(x, "_as_tensor"):  # tf.Variable: its current value
            x = x._as_tensor()
        if not isinstance(x, _Tensor):
            x = convert_to_tensor(x)
        # An outer or eager tensor returned as is: an Identity in this graph captures it.
        return _execute.execute1("Identity", [x])

    def capture_list(self):
        return self.graph._graph.captures()  # [(outer tensor, placeholder)]


def _function(branch, inputs, outputs):
    return _core.GraphFunction(branch.graph._graph, inputs, outputs, branch.graph.name)


def _unify_captures(branches):
    """The union of the branches' captures (outer tensors, in first-seen order) and, per branch,
    its placeholder for each (a new unused one where a branch did not capture it)."""
    outer = []
    for b in branches:
        for t, _ in b.capture_list():
            if not any(t is o for o in outer):
                outer.append(t)
    per_branch = []
    for b in branches:
        mine = b.capture_list()
        phs = []
        for t in outer:
            ph = next((p for c, p in mine if c is t), None)
            if ph is None:
                ph = b.graph._graph.add_placeholder(t.dtype._type_enum, _dims(t.shape), "Placeholder")
            phs.append(ph)
        per_branch.append(phs)
    return outer, per_branch


# ----------------------------------------------------------------------------------------- cond

def cond(pred, true_fn=None, false_fn=None, name=None):
    """Returns `true_fn()` if `pred` is true else `false_fn()` (tf.cond)."""
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if not _in_graph():
        return true_fn() if bool(pred) else false_fn()
    pred = convert_to_tensor(pred)
    if pred.dtype != dtypes.bool:
        raise TypeError("Input 'pred' passed %s expected bool while building NodeDef '%s'"
                        % (pred.dtype.name, name or "cond"))
    if pred.shape.rank is not None and pred.shape.rank != 0:
        raise ValueError("The predicate of tf.cond must be a scalar, but it has shape %s" % pred.shape)
    return _build_if(pred, true_fn, false_fn, name or "cond")


def _build_if(pred, true_fn, false_fn, name):
    n = next(_ids)
    tb = _Branch(true_fn, "cond_true_%d" % n)
    fb = _Branch(false_fn, "cond_false_%d" % n)
    _check_branch_outputs(tb, fb)
    outer, phs = _unify_captures([tb, fb])
    t_out = [o for o in tb.outputs if o is not None]
    f_out = [o for o in fb.outputs if o is not None]
    shapes = [a.shape.most_specific_compatible_shape(b.shape) for a, b in zip(t_out, f_out)]
    stateful = tb.graph._graph.stateful_nodes() or fb.graph._graph.stateful_nodes()
    attrs = {
        "Tcond": dtypes.bool,
        "Tin": [t.dtype for t in outer],
        "Tout": [t.dtype for t in t_out],
        "then_branch": _function(tb, phs[0], t_out),
        "else_branch": _function(fb, phs[1], f_out),
        "output_shapes": [_dims(s) for s in shapes],
    }
    results = _execute.execute("If" if stateful else "StatelessIf", [pred] + outer, attrs, name) if t_out or stateful \
        else []
    if results:
        # As cond_v2: each output passes through an Identity in the cond's scope ("cond/Identity").
        scope = results[0]._node_name
        results = [_execute.execute1("Identity", [r], None, scope + "/Identity") for r in results]
    it = iter(results)
    flat = [None if o is None else next(it) for o in tb.outputs]
    return nest.pack_sequence_as(tb.structured, flat)


def _check_branch_outputs(tb, fb):
    def err():
        return TypeError("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
                         "structure of return values.\n\ntrue_fn output: %s\nfalse_fn output: %s"
                         % (_describe(tb.structured), _describe(fb.structured)))
    try:
        nest.assert_same_structure(tb.structured, fb.structured)
    except (ValueError, TypeError):
        raise err() from None
    for a, b in zip(tb.outputs, fb.outputs):
        if (a is None) != (b is None) or (a is not None and a.dtype != b.dtype):
            raise err()


def _describe(structured):
    return nest.map_structure(lambda x: x, structured) if structured is not None else None


# ----------------------------------------------------------------------------------- while_loop

def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    """Repeats `body` while `cond` is true (tf.while_loop); returns the final loop variables in
    the structure of `loop_vars`."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations is not None and (not isinstance(parallel_iterations, int) or parallel_iterations < 1):
        raise TypeError("'parallel_iterations' must be a positive integer.")
    if loop_vars is None or (nest.is_nested(loop_vars) and not nest.flatten(loop_vars)):
        raise ValueError("'loop_vars' must be provided.")
    single = not isinstance(loop_vars, (list, tuple))
    packed_vars = (loop_vars,) if single else loop_vars
    if not _in_graph():
        return _eager_while(cond, body, packed_vars, single, maximum_iterations)
    return _build_while(cond, body, packed_vars, single, shape_invariants, maximum_iterations, name or "while")


def _eager_while(cond, body, loop_vars, single, maximum_iterations):
    limit = None if maximum_iterations is None else int(maximum_iterations)
    i = 0
    while (limit is None or i < limit) and bool(cond(*loop_vars)):
        out = body(*loop_vars)
        if len(loop_vars) == 1 and not isinstance(out, (list, tuple)):
            out = (out,)
        nest.assert_same_structure(list(loop_vars), list(out))  # a body that drops a variable would loop forever
        loop_vars = type(loop_vars)(out) if isinstance(loop_vars, list) else out
        i += 1
    return loop_vars[0] if single else loop_vars


def _leaf_to_tensor(x):
    if isinstance(x, _Tensor):
        return x
    if hasattr(x, "_as_tensor"):
        return x._as_tensor()
    return convert_to_tensor(x)


def _build_while(cond, body, loop_vars, single, shape_invariants, maximum_iterations, name):
    flat_vars = [_leaf_to_tensor(x) for x in nest.flatten(loop_vars)]
    if shape_invariants is not None:
        inv = nest.flatten(shape_invariants if not single else (shape_invariants,))
        if len(inv) != len(flat_vars):
            raise ValueError("The number of shape invariants (%d) must match the number of loop variables (%d)"
                             % (len(inv), len(flat_vars)))
        invariants = [TensorShape(s) if not isinstance(s, TensorShape) else s for s in inv]
        for v, s in zip(flat_vars, invariants):
            if not s.is_compatible_with(v.shape):
                raise ValueError("The shape invariant specified for %s is not compatible with the initial shape of "
                                 "the loop variable. It enters the loop with shape %s, but the specified shape "
                                 "invariant is %s." % (v.name if v._is_symbolic else "a loop variable", v.shape, s))
    else:
        invariants = [v.shape for v in flat_vars]
    counted = maximum_iterations is not None
    if counted:
        max_iter = convert_to_tensor(maximum_iterations, dtypes.int32._type_enum)
        if max_iter.shape.rank not in (None, 0):
            raise ValueError("maximum_iterations must be a scalar, saw shape: %s" % max_iter.shape)
        counter = convert_to_tensor(0, max_iter.dtype._type_enum)
    specs = [(v.dtype, s) for v, s in zip(flat_vars, invariants)]
    if counted:
        specs = [(counter.dtype, TensorShape([]))] + specs

    def pack(phs):  # the loop variables' structure (without the counter)
        phs = phs[1:] if counted else phs
        return tuple(nest.pack_sequence_as(list(loop_vars), phs))

    def cond_fn(*phs):
        p = cond(*pack(phs))
        return _execute.execute1("LogicalAnd", [phs[0] < max_iter, p]) if counted else p

    def body_fn(*phs):
        out = body(*pack(phs))
        if len(loop_vars) == 1 and not isinstance(out, (list, tuple)):
            out = (out,)
        try:
            nest.assert_same_structure(list(out), list(loop_vars))
        except (ValueError, TypeError) as e:
            raise type(e)(str(e)) from None
        return [phs[0] + 1] + list(out) if counted else out

    n = next(_ids)
    cb = _Branch(cond_fn, "while_cond_%d" % n, specs, list)
    _check_cond(cb)
    bb = _Branch(body_fn, "while_body_%d" % n, specs, list)
    body_out = list(bb.outputs)
    _check_body(flat_vars, invariants, body_out[1:] if counted else body_out, shape_invariants is not None)
    outer, phs = _unify_captures([cb, bb])
    inputs = ([counter] if counted else []) + flat_vars + outer
    all_specs = specs + [(t.dtype, t.shape) for t in outer]
    attrs = {
        "T": [d for d, _ in all_specs],
        "cond": _core.GraphFunction(cb.graph._graph, cb.placeholders + phs[0], cb.outputs, cb.graph.name),
        "body": _core.GraphFunction(bb.graph._graph, bb.placeholders + phs[1], body_out + phs[1], bb.graph.name),
        "output_shapes": [_dims(s) for _, s in all_specs],
        "parallel_iterations": 10,
    }
    stateful = cb.graph._graph.stateful_nodes() or bb.graph._graph.stateful_nodes()
    results = _execute.execute("While" if stateful else "StatelessWhile", inputs, attrs, name)
    results = results[1:] if counted else results
    packed = nest.pack_sequence_as(loop_vars, results[:len(flat_vars)])
    return packed[0] if single else packed


def _check_cond(cb):
    if len(cb.outputs) != 1 or cb.outputs[0] is None:
        raise TypeError("cond must return a single boolean scalar tensor, got %r" % (cb.structured,))
    p = cb.outputs[0]
    if p.dtype != dtypes.bool:
        raise TypeError("cond must return a boolean scalar tensor, but it returned a tensor of dtype %s"
                        % p.dtype.name)
    if p.shape.rank is not None and p.shape.rank != 0:
        raise ValueError("cond must return a boolean scalar tensor, but it has shape %s" % p.shape)


def _check_body(flat_vars, invariants, outs, explicit):
    for v, s, o in zip(flat_vars, invariants, outs):
        if o is None:
            raise TypeError("The loop body returned None for loop variable %s" % _var_name(v))
        if o.dtype != v.dtype:
            raise TypeError("Loop var %s enters the loop with type %s but has type %s after 1 iteration."
                            % (_var_name(v), v.dtype, o.dtype))
        if not s.is_compatible_with(o.shape):
            if explicit:
                raise ValueError("Input tensor `%s` enters the loop with shape %s, but has shape %s after one "
                                 "iteration, which is not compatible with the specified shape invariant %s."
                                 % (_var_name(v), v.shape, o.shape, s))
            raise ValueError("Input tensor `%s` enters the loop with shape %s, but has shape %s after one "
                             "iteration. To allow the shape to vary across iterations, use the `shape_invariants` "
                             "argument of tf.while_loop to specify a less-specific shape." % (_var_name(v), v.shape,
                                                                                              o.shape))


def _var_name(v):
    return v.name if v._is_symbolic else "loop_var"


# ------------------------------------------------------------------------------ case, switch_case

def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """Runs the fn of the first pair whose predicate is true, else `default` (tf.case)."""
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError("pred_fn_pairs must be a list or tuple, got %r" % (pred_fn_pairs,))
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple")
        if not callable(pair[1]):
            raise TypeError("fn for pred %s must be callable." % (pair[0],))
    if default is None:
        if not pred_fn_pairs:
            raise ValueError("pred_fn_pairs must not be empty when no default is given")
        pred_fn_pairs, default = list(pred_fn_pairs[:-1]), pred_fn_pairs[-1][1]
    if not _in_graph():
        for p, fn in pred_fn_pairs:
            if bool(p):
                return fn()
        return default()
    result = default
    for p, fn in reversed(list(pred_fn_pairs)):
        result = (lambda p=p, fn=fn, rest=result: cond(p, fn, rest, name=name))
    return result()


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """Runs `branch_fns[branch_index]`, or `default` (the last branch if None) when out of range."""
    if not isinstance(branch_index, _Tensor):
        raise TypeError("'branch_index' must be a Tensor, got {}".format(type(branch_index)))
    if not branch_index.dtype.is_integer:
        raise TypeError("'branch_index' must be an integer Tensor, got {}".format(branch_index.dtype))
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = sorted(branch_fns.items())
    elif branch_fns and isinstance(branch_fns[0], tuple):
        branch_fns = sorted(branch_fns)
    else:
        branch_fns = list(enumerate(branch_fns))
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    for k, fn in branch_fns:
        if not callable(fn):
            raise TypeError("fn for key %s must be callable." % k)
    if default is None:
        default = branch_fns[-1][1]
    if not _in_graph():
        idx = int(branch_index)
        for k, fn in branch_fns:
            if k == idx:
                return fn()
        return default()
    branch_index = convert_to_tensor(branch_index)
    if branch_index.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("branch_index must be an int32 or int64 tensor, got %s" % branch_index.dtype.name)
    result = default
    for k, fn in reversed(branch_fns):
        result = (lambda k=k, fn=fn, rest=result:
                  cond(_execute.execute1("Equal", [branch_index, convert_to_tensor(k, branch_index.dtype._type_enum)]),
                       fn, rest, name=name))
    return result()
