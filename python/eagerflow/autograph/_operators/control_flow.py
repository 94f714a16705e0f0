"""if_stmt, while_stmt, for_stmt: graph control flow (tf.cond / tf.while_loop) when the condition or
iterable is a symbolic tensor, plain Python otherwise. Loop and branch variables are checked for
the consistency graph control flow needs, with errors naming the variable (TF's messages)."""
from eagerflow.autograph._operators.variables import Undefined, UndefinedReturnValue
from eagerflow.framework.tensor import Tensor
from eagerflow.framework import nest

_PY_SCALARS = (bool, int, float, complex, str, bytes)


def is_symbolic(x):
    """A tensor of a graph being built (variables inside a graph count: reading them is symbolic)."""
    if isinstance(x, Tensor):
        return x._is_symbolic
    if hasattr(x, "_as_tensor"):
        from eagerflow import _core
        return _core.current_graph() is not None
    return False


def _cf():
    from eagerflow.ops import control_flow_ops  # tf.cond / tf.while_loop
    return control_flow_ops


def _to_tensors(v):
    """Python numbers/strings (and NumPy values) inside `v` become tensors, as graph outputs must be."""
    import numpy as np
    from eagerflow.framework.convert import convert_to_tensor

    def conv(x):
        if isinstance(x, _PY_SCALARS + (np.ndarray, np.generic)):
            return convert_to_tensor(x)
        if hasattr(x, "_as_tensor") and not hasattr(x, "__tf_flatten__"):
            return x._as_tensor()
        return x
    if nest.is_nested(v):
        return nest.map_structure(conv, v)
    return conv(v)


def _shape_of(x):
    """Structure sketch in TF's form: '.' per leaf, (..) tuples, [..] lists, {k: .} dicts."""
    if isinstance(x, dict):
        return "{" + ", ".join("%r: %s" % (k, _shape_of(x[k])) for k in sorted(x, key=str)) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_shape_of(c) for c in x) + "]"
    if isinstance(x, tuple):
        inner = ", ".join(_shape_of(c) for c in x)
        return "(" + inner + ("," if len(x) == 1 else "") + ")"
    return "."


def _describe(x):
    return "type=%s str=%s" % (type(x).__name__, x)


def _mismatch(a, b):
    """The first differing substructures of a and b, or None."""
    na, nb = nest.is_nested(a), nest.is_nested(b)
    if na != nb:
        return ('Substructure "%s" is a sequence, while substructure "%s" is not' % (_describe(a), _describe(b))
                if na else 'Substructure "%s" is not a sequence, while substructure "%s" is' % (_describe(a),
                                                                                                _describe(b)))
    if not na:
        return None
    if type(a) is not type(b) and not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))
                                       and type(a).__name__ in ("list", "tuple") and type(b).__name__ in ("list", "tuple")):
        return "The two namedtuples don't have the same sequence type. First structure type=%s str=%s has type %s, " \
               "while second structure type=%s str=%s has type %s" % (type(a).__name__, a, type(a).__name__,
                                                                      type(b).__name__, b, type(b).__name__)
    if isinstance(a, dict):
        if set(a) != set(b):
            return "The two dictionaries don't have the same set of keys. First structure has keys %s, while " \
                   "second structure has keys %s." % (sorted(a, key=str), sorted(b, key=str))
        pairs = [(a[k], b[k]) for k in sorted(a, key=str)]
    else:
        ca, cb = nest._children(a), nest._children(b)  # composites (TensorArray) by their components
        if len(ca) != len(cb):
            return "The two structures don't have the same sequence length. Input structure has length %d, while " \
                   "shallow structure has length %d." % (len(ca), len(cb))
        pairs = list(zip(ca, cb))
    for x, y in pairs:
        m = _mismatch(x, y)
        if m:
            return m
    return None


def _same_structure(a, b):
    """None when a and b have the same nested structure, else TF's explanation."""
    m = _mismatch(a, b)
    if m is None:
        return None
    return ("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\nSecond structure: "
            "%s\n\nMore specifically: %s\nEntire first structure:\n%s\nEntire second structure:\n%s"
            % (_describe(a), _describe(b), m, _shape_of(a), _shape_of(b)))


# --- if ------------------------------------------------------------------------------------------

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    """`if cond: body() else: orelse()`; a tensor cond becomes tf.cond over both traced branches."""
    if is_symbolic(cond):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    elif cond:
        body()
    else:
        orelse()


def _verify_branch_vars(values, symbol_names, branch):
    for name, v in zip(symbol_names, values):
        if isinstance(v, Undefined):
            raise ValueError("'{}' must also be initialized in the {} branch".format(name, branch))
        if isinstance(v, UndefinedReturnValue):
            raise ValueError("the {} branch must also have a return statement.".format(branch))


def _verify_cond_vars(main, other, symbol_names):
    for name, a, b in zip(symbol_names, main, other):
        if (a is None) != (b is None) or nest.is_nested(a) or nest.is_nested(b):
            msg = _same_structure(a, b)
            if msg is not None or (a is None) != (b is None):
                raise TypeError("'{}' must have the same nested structure in the main and else branches:\n\n{}".format(
                    name, msg or "None vs. %r" % (a if b is None else b,)))
        for x, y in zip(nest.flatten(a), nest.flatten(b)):
            if isinstance(x, Tensor) and isinstance(y, Tensor) and x.dtype != y.dtype:
                raise TypeError("'{}' has dtype {} in the main branch, but dtype {} in the else branch".format(
                    name, x.dtype.name, y.dtype.name))


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    init = get_state()
    main = []

    def branch(fn, name):
        def run():
            set_state(init)
            fn()
            new = tuple(_to_tensors(v) for v in get_state()[:nouts])
            _verify_branch_vars(new, symbol_names, name)
            if name == "main":
                main.append(new)
            else:
                _verify_cond_vars(main[0], new, symbol_names)
            # None values stay out of the graph (they must be None in both branches).
            return tuple(v for v in new if v is not None)
        return run

    out = _cf().cond(cond, branch(body, "main"), branch(orelse, "else"))
    out = iter(() if out is None else (out if isinstance(out, (tuple, list)) else (out,)))
    set_state(tuple(None if v is None else next(out) for v in main[0]))


def if_exp(cond, if_true, if_false, expr_repr):
    """`if_true() if cond else if_false()`; a tensor cond becomes tf.cond."""
    if not is_symbolic(cond):
        return if_true() if cond else if_false()
    main = []

    def true_fn():
        v = _to_tensors(if_true())
        main.append(v)
        return v

    def false_fn():
        v = _to_tensors(if_false())
        _verify_cond_vars((main[0],), (v,), (expr_repr,))
        return v
    return _cf().cond(cond, true_fn, false_fn)


# --- loops ---------------------------------------------------------------------------------------

def _verify_loop_init(values, symbol_names):
    for name, v in zip(symbol_names, values):
        if isinstance(v, UndefinedReturnValue):
            raise NotImplementedError(
                "a return statement cannot be placed inside this TensorFlow loop; this may happen if a return "
                "statement depends on a static Python condition such as a hyperparameter")
        if v is None:
            raise ValueError("'{}' is not allowed to be None before the loop".format(name))
        if isinstance(v, Undefined):
            raise ValueError("'{}' must be defined before the loop".format(name))


def _is_subshape(new, entry):
    """True when `new` is at least as specific as the loop's entry shape (its invariant)."""
    if entry.rank is None:
        return True
    if new.rank is None or new.rank != entry.rank:
        return False
    return all(e is None or n == e for n, e in zip(new.as_list(), entry.as_list()))


def _verify_loop_vars(init, entry, new, symbol_names):
    for name, a, e, b in zip(symbol_names, init, entry, new):
        if b is None or isinstance(b, (Undefined, UndefinedReturnValue)):
            raise ValueError("'{}' is not allowed to be None at the end of an iteration".format(name)
                             if b is None else "'{}' must be defined before the loop".format(name))
        msg = _same_structure(a, b)
        if msg is not None:
            raise TypeError("'{}' does not have the same nested structure after one iteration.\n\n{}".format(name, msg))
        for x, ex, y in zip(nest.flatten(a), nest.flatten(e), nest.flatten(b)):
            if not (isinstance(x, Tensor) and isinstance(y, Tensor)):
                continue
            if x.dtype != y.dtype:
                raise TypeError("'{}' has dtype {} before the loop, but dtype {} after one iteration".format(
                    name, x.dtype.name, y.dtype.name))
            if isinstance(ex, Tensor) and not _is_subshape(y.shape, ex.shape):
                raise ValueError(
                    "'{}' has shape {} before the loop, but shape {} after one iteration. Use "
                    "tf.autograph.experimental.set_loop_options to set shape invariants.".format(name, x.shape, y.shape))


def _shape_invariants(init, opts):
    """The shape_invariants structure for while_loop from set_loop_options' (variable, shape) pairs."""
    pairs = opts.get("shape_invariants")
    if not pairs:
        return None
    from eagerflow.framework.tensor_shape import TensorShape
    by_id = {id(v): TensorShape(s) for v, s in pairs}
    return tuple(nest.map_structure(lambda x: by_id.get(id(x), getattr(x, "shape", None)), v) for v in init)


def _loop_init(get_state, symbol_names, opts):
    raw = get_state()
    _verify_loop_init(raw, symbol_names)
    init = tuple(_to_tensors(v) for v in raw)
    inv = _shape_invariants(raw, opts)
    if inv is not None:  # the invariants were given for the original objects
        inv = tuple(inv)
    return init, inv


def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    """`while test(): body()`; a tensor test becomes tf.while_loop over the loop variables."""
    first = test()
    if is_symbolic(first):
        _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
        return
    while first:
        body()
        first = test()


def _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts):
    init, invariants = _loop_init(get_state, symbol_names, opts)

    def aug_test(*loop_vars):
        set_state(loop_vars)
        return test()

    def aug_body(*loop_vars):
        set_state(loop_vars)
        body()
        new = tuple(_to_tensors(v) for v in get_state())
        _verify_loop_vars(init, loop_vars, new, symbol_names)
        return new

    final = _cf().while_loop(aug_test, aug_body, init, shape_invariants=invariants,
                             maximum_iterations=opts.get("maximum_iterations"))
    set_state(tuple(final))


def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for target in iter_: body(target)` while extra_test() holds (break/return lowering);
    a symbolic tensor iterable (tf.range or any tensor's first dimension) becomes tf.while_loop."""
    if is_symbolic(iter_):
        _tf_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
        return
    if hasattr(iter_, "_autograph_iterator") and _core_graph() is not None:  # a tf.data dataset or iterator
        _tf_iterator_for_stmt(iter_._autograph_iterator(), extra_test, body, get_state, set_state, symbol_names,
                              opts)
        return
    if extra_test is None:
        for target in iter_:
            body(target)
        return
    for target in iter_:
        ok = extra_test()
        if is_symbolic(ok):
            raise NotImplementedError(
                "break and return statements which depend on a TF condition are not supported in Python for "
                "loops. Did you intend to make it a TF loop?\nSee "
                "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/"
                "limitations.md#consistency-of-control-flow-types for more info.")
        if not ok:
            break
        body(target)


def _and_extra_test(cont, extra_test, set_state, loop_vars):
    """A loop's test `cont` and its break/return flags' test (which reads only those flags, so no
    lazy and is needed)."""
    if extra_test is None:
        return cont
    from eagerflow.ops import math_ops
    set_state(loop_vars)
    more = extra_test()
    if not is_symbolic(more):
        return cont if more else math_ops.logical_and(cont, False)
    return math_ops.logical_and(cont, more)


def _core_graph():
    from eagerflow import _core
    return _core.current_graph()


def _common_shape(a, b):
    from eagerflow.framework.tensor_shape import TensorShape
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def _tf_iterator_for_stmt(it, extra_test, body, get_state, set_state, symbol_names, opts):
    """`for x in dataset` in a graph: one While loop that asks the iterator for an optional element
    each step and runs the body under a cond on its presence (the graph's size does not depend on
    the data). As TF's dataset loops do, loop variables whose shape the body changes are relaxed to
    a shape that fits both (the loop is traced again)."""
    init, invariants = _loop_init(get_state, symbol_names, opts)
    try:
        _iterator_loop(it, extra_test, body, get_state, set_state, symbol_names, opts, init, invariants)
    except _ShapeChanged as changed:
        relaxed = tuple(nest.map_structure(
            lambda x, y: _common_shape(x.shape, y.shape) if isinstance(x, Tensor) and isinstance(y, Tensor)
            else getattr(x, "shape", None), a, b) for a, b in zip(init, changed.new))
        set_state(init)
        _iterator_loop(it, extra_test, body, get_state, set_state, symbol_names, opts, init, relaxed)


class _ShapeChanged(Exception):
    def __init__(self, new):
        super().__init__("loop variable shapes changed")
        self.new = new


def _iterator_loop(it, extra_test, body, get_state, set_state, symbol_names, opts, init, invariants):
    from eagerflow.framework.convert import convert_to_tensor
    more = convert_to_tensor(True)
    if invariants is not None:
        invariants = (more.shape,) + tuple(invariants)

    def aug_test(more, *loop_vars):
        return _and_extra_test(more, extra_test, set_state, loop_vars)

    def aug_body(more, *loop_vars):
        opt = it.get_next_as_optional()
        has = opt.has_value()

        def run():
            set_state(loop_vars)
            body(opt.get_value())
            new = tuple(_to_tensors(v) for v in get_state())
            try:
                _verify_loop_vars(init, loop_vars, new, symbol_names)
            except ValueError as e:
                if invariants is None and "after one iteration" in str(e):
                    raise _ShapeChanged(new) from None
                raise
            return new if new else convert_to_tensor(0)

        def skip():
            return tuple(loop_vars) if loop_vars else convert_to_tensor(0)

        new = _cf().cond(has, run, skip)
        if not loop_vars:
            return (has,)
        return (has,) + (tuple(new) if isinstance(new, (tuple, list)) else (new,))

    final = _cf().while_loop(aug_test, aug_body, (more,) + init, shape_invariants=invariants,
                             maximum_iterations=opts.get("maximum_iterations"))
    set_state(tuple(final)[1:] if isinstance(final, (tuple, list)) else ())


def _tf_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    from eagerflow.ops import array_ops, math_ops
    from eagerflow.framework.convert import convert_to_tensor
    if hasattr(iter_, "_as_tensor"):
        iter_ = iter_._as_tensor()
    op = iter_.op
    if op.type == "Range":
        start, _, delta = op.inputs
        n = array_ops.size(iter_)

        def item(i):
            return start + math_ops.cast(i, start.dtype) * delta
    else:
        if iter_.shape.rank == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        d0 = iter_.shape[0]
        n = d0 if d0 is not None else array_ops.shape(iter_)[0]

        def item(i):
            return array_ops.gather(iter_, i)
    init, invariants = _loop_init(get_state, symbol_names, opts)
    zero = convert_to_tensor(0)
    if invariants is not None:
        invariants = (zero.shape,) + invariants

    def aug_test(i, *loop_vars):
        return _and_extra_test(i < n, extra_test, set_state, loop_vars)

    def aug_body(i, *loop_vars):
        set_state(loop_vars)
        body(item(i))
        new = tuple(_to_tensors(v) for v in get_state())
        _verify_loop_vars(init, loop_vars, new, symbol_names)
        return (i + 1,) + new

    final = _cf().while_loop(aug_test, aug_body, (zero,) + init, shape_invariants=invariants,
                             maximum_iterations=opts.get("maximum_iterations"))
    set_state(tuple(final)[1:])

